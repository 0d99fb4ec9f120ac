import { create } from '@bufbuild/protobuf';
import { type NewEvent } from '@corridor/contracts/events';
import {
  VirtualAccountCloseReason,
  VirtualAccountStatus,
  type VirtualAccount,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { ListVirtualAccountsRequestSchema } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { Status } from '@corridor/grpc';
import { query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { walletBalances } from '../ledger/index.js';
import { testPaymentsContext } from '../../test/test-context.js';
import { collectionSpecKit, dateOf, type CustomerFacts, type Verification } from '../../test/collection-spec-kit.js';
import { issuedAccountIsValid, isVirtualAccountCurrency } from './sandbox-accounts.js';
import {
  closeVirtualAccount,
  createVirtualAccount,
  getVirtualAccount,
  listVirtualAccounts,
} from './virtual-accounts.js';
import { describePayments } from '../../test/payments-database.js';

describePayments('payments: virtual bank accounts for verified customers (real PostgreSQL)', (database) => {
  let context: PaymentsContext;
  let now = new Date('2026-11-24T10:00:00.000Z');
  const advance = (ms: number) => (now = new Date(now.getTime() + ms));
  let kit: ReturnType<typeof collectionSpecKit>;

  beforeAll(async () => {
    context = testPaymentsContext(database.orm, () => now);
    kit = collectionSpecKit(database.orm, database.url, () => now);
  });

  const deliver = (businessId: string, payload: NewEvent['payload']) => kit.deliver(businessId, payload);
  const customer = (businessId: string, facts?: CustomerFacts) => kit.customer(businessId, facts);
  const statusChanged = (
    businessId: string,
    customerId: string,
    change: { from: Verification; to: Verification; kybScope: 'MINIMAL' | 'FULL'; trigger: string },
  ) =>
    deliver(businessId, {
      case: 'customerStatusChanged',
      value: {
        customerId,
        customerType: 'business',
        kybScope: change.kybScope,
        oldStatus: change.from,
        newStatus: change.to,
        trigger: change.trigger,
        displayName: '',
      },
    });

  const open = (businessId: string, customerId: string, currency: string) =>
    database.em().transactional((tx) => createVirtualAccount(tx, context, businessId, { customerId, currency }));
  const refused = (reason: string, status = Status.INVALID_ARGUMENT) => ({ reason, status });
  const accountRows = (customerId: string) =>
    query<{ currency: string; status: string }>(
      database.url,
      'select currency, status from virtual_account where customer_id = $1 order by currency, status',
      [customerId],
    );
  const noMoneyMoved = async (businessId: string) =>
    expect((await walletBalances(database.em(), businessId)).size).toBe(0);
  const expectIssued = (account: VirtualAccount) => {
    expect(isVirtualAccountCurrency(account.currency)).toBe(true);
    if (isVirtualAccountCurrency(account.currency)) expect(issuedAccountIsValid(account.currency, account)).toBe(true);
  };

  it('seed 1: only a VERIFIED customer gets an account (PENDING, PROCESSING, REJECTED → 422 CUSTOMER_NOT_VERIFIED)', async () => {
    const businessId = randomUUID();
    for (const status of ['PENDING', 'PROCESSING', 'REJECTED'] as const) {
      const customerId = await customer(businessId, { status });
      await expect(open(businessId, customerId, 'NGN')).rejects.toMatchObject(refused('CUSTOMER_NOT_VERIFIED'));
      expect(await accountRows(customerId)).toEqual([]);
    }
    const verified = await customer(businessId, { status: 'VERIFIED' });
    expect(await open(businessId, verified, 'NGN')).toMatchObject({ status: VirtualAccountStatus.ACTIVE });
    await noMoneyMoved(businessId);
  });

  it('seed 1: a MINIMAL-KYB business customer gets NGN only (422 CURRENCY_NOT_ALLOWED_FOR_CUSTOMER for GBP, USD, EUR)', async () => {
    const businessId = randomUUID();
    const customerId = await customer(businessId, { kybScope: 'MINIMAL', name: 'Kano Grains Ltd' });
    for (const currency of ['GBP', 'USD', 'EUR']) {
      await expect(open(businessId, customerId, currency)).rejects.toMatchObject(
        refused('CURRENCY_NOT_ALLOWED_FOR_CUSTOMER'),
      );
    }
    const account = await open(businessId, customerId, 'NGN');
    // The account is named after the customer (display_name of customer.created).
    expect(account).toMatchObject({
      customerId,
      currency: 'NGN',
      status: VirtualAccountStatus.ACTIVE,
      accountName: 'Kano Grains Ltd',
      bankName: 'Wema Bank',
      bankCode: '035',
    });
    expect([account.closedAt, account.closeReason]).toEqual([undefined, undefined]);
    expect(dateOf(account.createdAt)).toEqual(now);
    expectIssued(account);
    expect(await accountRows(customerId)).toEqual([{ currency: 'NGN', status: 'active' }]);
    await noMoneyMoved(businessId);
  });

  it('seed 1: a FULL-KYB business customer gets NGN, USD, GBP and EUR, each a valid number of its scheme', async () => {
    const businessId = randomUUID();
    const customerId = await customer(businessId, { kybScope: 'FULL' });
    const accounts = [];
    for (const currency of ['NGN', 'USD', 'GBP', 'EUR']) accounts.push(await open(businessId, customerId, currency));
    for (const account of accounts) expectIssued(account);
    expect(accounts.map((account) => account.bankName)).toEqual([
      'Wema Bank',
      'Community Federal Savings Bank',
      'ClearBank',
      'Solaris',
    ]);
    expect(new Set(accounts.map((account) => account.accountNumber)).size).toBe(4);
    expect((await accountRows(customerId)).map((row) => row.currency)).toEqual(['EUR', 'GBP', 'NGN', 'USD']);
    await noMoneyMoved(businessId);
  });

  it('decision 0014: an individual customer gets NGN only', async () => {
    const businessId = randomUUID();
    const customerId = await customer(businessId, { type: 'individual', name: 'Chidi Okafor' });
    for (const currency of ['USD', 'GBP', 'EUR']) {
      await expect(open(businessId, customerId, currency)).rejects.toMatchObject(
        refused('CURRENCY_NOT_ALLOWED_FOR_CUSTOMER'),
      );
    }
    expect(await open(businessId, customerId, 'NGN')).toMatchObject({ accountName: 'Chidi Okafor' });
  });

  it('an unknown customer, another business’s customer or a malformed id is 422 CUSTOMER_NOT_FOUND', async () => {
    const businessId = randomUUID();
    const othersCustomer = await customer(randomUUID());
    for (const customerId of [randomUUID(), othersCustomer, 'not-a-uuid', '']) {
      await expect(open(businessId, customerId, 'NGN')).rejects.toMatchObject(refused('CUSTOMER_NOT_FOUND'));
    }
    expect(await accountRows(othersCustomer)).toEqual([]);
  });

  it('CAD has no virtual accounts (422 CURRENCY_OPERATION_NOT_SUPPORTED); an unknown code is 422 UNKNOWN_CURRENCY', async () => {
    const businessId = randomUUID();
    const customerId = await customer(businessId);
    await expect(open(businessId, customerId, 'CAD')).rejects.toMatchObject(
      refused('CURRENCY_OPERATION_NOT_SUPPORTED'),
    );
    await expect(open(businessId, customerId, 'XYZ')).rejects.toMatchObject(refused('UNKNOWN_CURRENCY'));
    expect(await accountRows(customerId)).toEqual([]);
  });

  it('one open account per customer and currency (422 VIRTUAL_ACCOUNT_ALREADY_OPEN); once closed, a new one opens with a new number', async () => {
    const businessId = randomUUID();
    const customerId = await customer(businessId);
    const first = await open(businessId, customerId, 'GBP');
    await expect(open(businessId, customerId, 'GBP')).rejects.toMatchObject(refused('VIRTUAL_ACCOUNT_ALREADY_OPEN'));
    // Another currency of the same customer is a different account.
    await open(businessId, customerId, 'EUR');

    advance(60_000);
    const closed = await closeVirtualAccount(database.em(), context, businessId, first.id);
    expect(closed).toMatchObject({
      id: first.id,
      status: VirtualAccountStatus.CLOSED,
      closeReason: VirtualAccountCloseReason.REQUESTED,
    });
    expect(dateOf(closed.closedAt)).toEqual(now);
    const closedAt = now;

    advance(60_000);
    const second = await open(businessId, customerId, 'GBP');
    expect(second.id).not.toBe(first.id);
    expect(second.accountNumber).not.toBe(first.accountNumber);
    expectIssued(second);
    // Closing again changes nothing: still closed at the first close.
    const again = await closeVirtualAccount(database.em(), context, businessId, first.id);
    expect(dateOf(again.closedAt)).toEqual(closedAt);
    expect(await accountRows(customerId)).toEqual([
      { currency: 'EUR', status: 'active' },
      { currency: 'GBP', status: 'active' },
      { currency: 'GBP', status: 'closed' },
    ]);
  });

  it('20 concurrent creates for one customer and currency open exactly one account', async () => {
    const businessId = randomUUID();
    const customerId = await customer(businessId);
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => open(businessId, customerId, 'NGN')));
    const opened = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const rejected = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(opened).toHaveLength(1);
    expect(rejected).toHaveLength(19);
    for (const outcome of rejected) {
      expect(outcome.reason).toMatchObject(refused('VIRTUAL_ACCOUNT_ALREADY_OPEN'));
    }
    expect(await accountRows(customerId)).toEqual([{ currency: 'NGN', status: 'active' }]);
  });

  it('seed 3.1: upgrading a VERIFIED MINIMAL customer to FULL (back to PENDING) leaves its NGN account open', async () => {
    const businessId = randomUUID();
    const customerId = await customer(businessId, { kybScope: 'MINIMAL' });
    const ngn = await open(businessId, customerId, 'NGN');
    advance(1_000);
    await statusChanged(businessId, customerId, {
      from: 'VERIFIED',
      to: 'PENDING',
      kybScope: 'FULL',
      trigger: 'upgrade',
    });
    const kept = await getVirtualAccount(database.em(), businessId, ngn.id);
    expect(kept).toMatchObject({ status: VirtualAccountStatus.ACTIVE, accountName: 'Adaeze Textiles Ltd' });
    expect(kept.closedAt).toBeUndefined();
    // Until verified again, no new account, in any currency.
    await expect(open(businessId, customerId, 'GBP')).rejects.toMatchObject(refused('CUSTOMER_NOT_VERIFIED'));

    await statusChanged(businessId, customerId, {
      from: 'PENDING',
      to: 'PROCESSING',
      kybScope: 'FULL',
      trigger: 'submit',
    });
    await statusChanged(businessId, customerId, {
      from: 'PROCESSING',
      to: 'VERIFIED',
      kybScope: 'FULL',
      trigger: 'review',
    });
    // The status events carry no name; the one of customer.created is kept.
    expect(await open(businessId, customerId, 'GBP')).toMatchObject({
      status: VirtualAccountStatus.ACTIVE,
      accountName: 'Adaeze Textiles Ltd',
    });
  });

  it('decision 0014: a customer REJECTED has its open accounts closed (close_reason customer_rejected)', async () => {
    const businessId = randomUUID();
    const customerId = await customer(businessId);
    const bystander = await customer(businessId);
    const ngn = await open(businessId, customerId, 'NGN');
    const gbp = await open(businessId, customerId, 'GBP');
    const untouched = await open(businessId, bystander, 'NGN');
    await closeVirtualAccount(database.em(), context, businessId, gbp.id);
    const closedByRequestAt = now;

    advance(3_600_000);
    await statusChanged(businessId, customerId, {
      from: 'VERIFIED',
      to: 'PENDING',
      kybScope: 'FULL',
      trigger: 'upgrade',
    });
    await statusChanged(businessId, customerId, {
      from: 'PENDING',
      to: 'PROCESSING',
      kybScope: 'FULL',
      trigger: 'submit',
    });
    advance(60_000);
    await statusChanged(businessId, customerId, {
      from: 'PROCESSING',
      to: 'REJECTED',
      kybScope: 'FULL',
      trigger: 'review',
    });

    const rejected = await getVirtualAccount(database.em(), businessId, ngn.id);
    expect(rejected).toMatchObject({
      status: VirtualAccountStatus.CLOSED,
      closeReason: VirtualAccountCloseReason.CUSTOMER_REJECTED,
    });
    expect(dateOf(rejected.closedAt)).toEqual(now);
    // An account the business had closed keeps its own reason and time.
    const earlier = await getVirtualAccount(database.em(), businessId, gbp.id);
    expect(earlier.closeReason).toBe(VirtualAccountCloseReason.REQUESTED);
    expect(dateOf(earlier.closedAt)).toEqual(closedByRequestAt);
    expect(await getVirtualAccount(database.em(), businessId, untouched.id)).toMatchObject({
      status: VirtualAccountStatus.ACTIVE,
    });
    await expect(open(businessId, customerId, 'NGN')).rejects.toMatchObject(refused('CUSTOMER_NOT_VERIFIED'));
  });

  it('lists newest first with exact filters (customer, currency, status) and cursor pages; only the business’s own', async () => {
    const businessId = randomUUID();
    const first = await customer(businessId);
    const second = await customer(businessId, { kybScope: 'MINIMAL' });
    const opened: VirtualAccount[] = [];
    for (const [customerId, currency] of [
      [first, 'NGN'],
      [first, 'USD'],
      [second, 'NGN'],
      [first, 'GBP'],
      [first, 'EUR'],
    ] as const) {
      advance(1_000);
      opened.push(await open(businessId, customerId, currency));
    }
    await closeVirtualAccount(database.em(), context, businessId, opened[1]?.id ?? '');
    const elsewhere = randomUUID();
    const foreign = await open(elsewhere, await customer(elsewhere), 'NGN');

    const list = (fields: Parameters<typeof create<typeof ListVirtualAccountsRequestSchema>>[1] = {}) =>
      listVirtualAccounts(database.em(), businessId, create(ListVirtualAccountsRequestSchema, fields));
    const ids = (accounts: VirtualAccount[]) => accounts.map((account) => account.id);
    const newestFirst = ids([...opened].reverse());

    expect(ids((await list()).virtualAccounts)).toEqual(newestFirst);
    expect(ids((await list({ customerId: second })).virtualAccounts)).toEqual([opened[2]?.id]);
    expect(ids((await list({ customerId: 'not-a-uuid' })).virtualAccounts)).toEqual([]);
    expect(ids((await list({ currency: 'NGN' })).virtualAccounts)).toEqual([opened[2]?.id, opened[0]?.id]);
    expect(ids((await list({ status: VirtualAccountStatus.CLOSED })).virtualAccounts)).toEqual([opened[1]?.id]);
    expect(ids((await list({ customerId: first, status: VirtualAccountStatus.ACTIVE })).virtualAccounts)).toEqual([
      opened[4]?.id,
      opened[3]?.id,
      opened[0]?.id,
    ]);

    // Two per page: forward to the end, then back to the start, no gap and no repeat.
    const seen: string[] = [];
    let page = await list({ page: { cursor: '', limit: 2 } });
    expect(page.previousCursor).toBeUndefined();
    seen.push(...ids(page.virtualAccounts));
    while (page.nextCursor) {
      page = await list({ page: { cursor: page.nextCursor, limit: 2 } });
      seen.push(...ids(page.virtualAccounts));
    }
    expect(seen).toEqual(newestFirst);
    expect(seen).not.toContain(foreign.id);
    const back = await list({ page: { cursor: page.previousCursor ?? '', limit: 2 } });
    expect(ids(back.virtualAccounts)).toEqual(newestFirst.slice(2, 4));
    await expect(list({ page: { cursor: 'garbage', limit: 2 } })).rejects.toMatchObject({
      status: Status.INVALID_ARGUMENT,
    });
  });

  it('another business’s account is 404 VIRTUAL_ACCOUNT_NOT_FOUND to read or close, and stays open', async () => {
    const owner = randomUUID();
    const account = await open(owner, await customer(owner), 'NGN');
    const intruder = randomUUID();
    const notFound = refused('VIRTUAL_ACCOUNT_NOT_FOUND', Status.NOT_FOUND);
    await expect(getVirtualAccount(database.em(), intruder, account.id)).rejects.toMatchObject(notFound);
    await expect(closeVirtualAccount(database.em(), context, intruder, account.id)).rejects.toMatchObject(notFound);
    await expect(getVirtualAccount(database.em(), owner, randomUUID())).rejects.toMatchObject(notFound);
    await expect(getVirtualAccount(database.em(), owner, 'not-a-uuid')).rejects.toMatchObject(notFound);
    expect(await getVirtualAccount(database.em(), owner, account.id)).toMatchObject({
      status: VirtualAccountStatus.ACTIVE,
    });
  });
});
