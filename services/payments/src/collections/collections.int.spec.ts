import { create } from '@bufbuild/protobuf';
import { CollectionFailureCode, CollectionMethod } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { FeeOperation } from '@corridor/contracts/corridor/payments/v1/money_pb';
import {
  CreateCollectionRequestSchema,
  FeeRuleSchema,
} from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { TransactionStatus, TransactionType } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { Status } from '@corridor/grpc';
import { query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { walletBalances } from '../ledger/index.js';
import { setFeeRule } from '../reference/fees.js';
import { forgetCurrencies } from '../reference/currencies.js';
import { testPaymentsContext } from '../../test/test-context.js';
import { collectionSpecKit, dateOf } from '../../test/collection-spec-kit.js';
import { createCollection, expireDueCollections, getCollection, receiveTransfer, settleCollection } from './collect.js';
import { authorizePaymentRequest, getPaymentRequest } from './payment-requests.js';
import { closeVirtualAccount, createVirtualAccount } from './virtual-accounts.js';
import { describePayments } from '../../test/payments-database.js';

const HOUR = 3_600_000;

describePayments('payments: collections by bank transfer and money request (real PostgreSQL)', (database) => {
  let context: PaymentsContext;
  let now = new Date('2026-11-24T10:00:00.000Z');
  const advance = (ms: number) => (now = new Date(now.getTime() + ms));
  let kit: ReturnType<typeof collectionSpecKit>;

  beforeAll(async () => {
    context = testPaymentsContext(database.orm, () => now);
    kit = collectionSpecKit(database.orm, database.url, () => now);
  });

  const business = () => kit.business();
  const openAccount = (businessId: string, customerId: string, currency: string) =>
    database.em().transactional((tx) => createVirtualAccount(tx, context, businessId, { customerId, currency }));
  const transfer = (businessId: string, virtualAccountId: string, amount: bigint, on = context) =>
    database
      .em()
      .transactional((tx) => receiveTransfer(tx, on, businessId, { virtualAccountId, amount, senderName: 'Jane Doe' }));
  const request = (
    businessId: string,
    fields: Parameters<typeof create<typeof CreateCollectionRequestSchema>>[1] & { customerId: string },
  ) =>
    database.em().transactional((tx) =>
      createCollection(
        tx,
        context,
        businessId,
        create(CreateCollectionRequestSchema, {
          amount: 50_000n,
          currency: 'EUR',
          description: 'Invoice 42',
          ...fields,
        }),
      ),
    );
  const tokenOf = (transaction: { collectionDetails?: { paymentToken?: string } }) =>
    transaction.collectionDetails?.paymentToken ?? '';
  const settle = (businessId: string, id: string, outcome: 'pay' | 'decline' | 'expire', on = context) =>
    database.em().transactional((tx) => settleCollection(tx, on, businessId, id, outcome));
  const wallet = async (businessId: string, currency: string) =>
    (await walletBalances(database.em(), businessId)).get(currency);
  const read = (businessId: string, id: string) => getCollection(database.em(), businessId, id);

  it('a transfer into an open account is a SUCCESSFUL collection: amount - fee to the wallet, the fee to the fee account', async () => {
    const { businessId, customerId } = await business();
    const account = await openAccount(businessId, customerId, 'GBP');
    const collected = await transfer(businessId, account.id, 100_000n);
    // Default collection fee: 1% (decision 0011).
    expect(collected).toMatchObject({
      type: TransactionType.COLLECTION,
      status: TransactionStatus.SUCCESSFUL,
      currency: 'GBP',
      amount: 100_000n,
      fee: 1_000n,
      net: 99_000n,
      collectionDetails: {
        method: CollectionMethod.BANK_TRANSFER,
        customerId,
        virtualAccountId: account.id,
        senderName: 'Jane Doe',
        railReference: expect.stringMatching(/^SBX[0-9A-F]{12}$/),
      },
    });
    expect(collected.collectionDetails?.failureCode).toBeUndefined();
    expect(collected.collectionDetails?.paymentToken).toBeUndefined();
    expect(dateOf(collected.collectionDetails?.completedAt)).toEqual(now);
    expect(await wallet(businessId, 'GBP')).toMatchObject({ ledger: 99_000n, pending: 0n, available: 99_000n });
    expect(await kit.moves(collected.id)).toEqual([
      { phase: 'posted', amount: '99000', debit: 'settlement', credit: 'wallet' },
      { phase: 'posted', amount: '1000', debit: 'settlement', credit: 'fees' },
    ]);
    expect(await kit.statusTrail(collected.id)).toEqual([['created', TransactionStatus.SUCCESSFUL]]);
    expect(await read(businessId, collected.id)).toEqual(collected);
    await expect(read(randomUUID(), collected.id)).rejects.toMatchObject({
      reason: 'COLLECTION_NOT_FOUND',
      status: Status.NOT_FOUND,
    });
  });

  it('a transfer into a closed account bounces: FAILED (ACCOUNT_CLOSED), no money moves', async () => {
    const { businessId, customerId } = await business();
    const account = await openAccount(businessId, customerId, 'NGN');
    await closeVirtualAccount(database.em(), context, businessId, account.id);
    const bounced = await transfer(businessId, account.id, 500_000n);
    expect(bounced).toMatchObject({
      status: TransactionStatus.FAILED,
      amount: 500_000n,
      fee: 0n,
      collectionDetails: { failureCode: CollectionFailureCode.ACCOUNT_CLOSED, virtualAccountId: account.id },
    });
    expect(await wallet(businessId, 'NGN')).toBeUndefined();
    expect(await kit.moves(bounced.id)).toEqual([]);
    expect(await kit.statusTrail(bounced.id)).toEqual([['created', TransactionStatus.FAILED]]);
  });

  it('decision 0014: an amount ending in 091 minor units is refused by the sending bank: FAILED (REJECTED_BY_BANK)', async () => {
    const { businessId, customerId } = await business();
    const account = await openAccount(businessId, customerId, 'USD');
    const bounced = await transfer(businessId, account.id, 12_091n);
    expect(bounced).toMatchObject({
      status: TransactionStatus.FAILED,
      fee: 0n,
      collectionDetails: { failureCode: CollectionFailureCode.REJECTED_BY_BANK },
    });
    expect(await kit.moves(bounced.id)).toEqual([]);
    const received = await transfer(businessId, account.id, 12_092n);
    expect(received.status).toBe(TransactionStatus.SUCCESSFUL);
    expect(await wallet(businessId, 'USD')).toMatchObject({ ledger: 12_092n - 121n, pending: 0n });
  });

  it('incoming transfers are sandbox-only (403 SANDBOX_ONLY) and only into the business’s own accounts (404)', async () => {
    const { businessId, customerId } = await business();
    const account = await openAccount(businessId, customerId, 'NGN');
    const production = { ...context, environment: 'production' as const };
    await expect(transfer(businessId, account.id, 10_000n, production)).rejects.toMatchObject({
      reason: 'SANDBOX_ONLY',
      status: Status.PERMISSION_DENIED,
    });
    for (const [owner, id] of [
      [randomUUID(), account.id],
      [businessId, randomUUID()],
      [businessId, 'not-a-uuid'],
    ] as const) {
      await expect(transfer(owner, id, 10_000n)).rejects.toMatchObject({
        reason: 'VIRTUAL_ACCOUNT_NOT_FOUND',
        status: Status.NOT_FOUND,
      });
    }
    await expect(transfer(businessId, account.id, 0n)).rejects.toMatchObject({ reason: 'INVALID_AMOUNT' });
    expect(await query(database.url, 'select id from collection where business_id = $1', [businessId])).toEqual([]);
    expect(await wallet(businessId, 'NGN')).toBeUndefined();
  });

  it('a money request is PENDING with a payment token expiring in 48 hours; the payer approves: SUCCESSFUL and credited', async () => {
    const { businessId, customerId } = await business();
    const created = await request(businessId, {
      customerId,
      redirectUrl: 'https://shop.example/paid',
      reference: 'invoice-42',
    });
    expect(created).toMatchObject({
      type: TransactionType.COLLECTION,
      status: TransactionStatus.PENDING,
      amount: 50_000n,
      fee: 500n,
      net: 49_500n,
      reference: 'invoice-42',
      collectionDetails: {
        method: CollectionMethod.MONEY_REQUEST,
        customerId,
        description: 'Invoice 42',
        redirectUrl: 'https://shop.example/paid',
      },
    });
    const token = tokenOf(created);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(dateOf(created.collectionDetails?.expiresAt)).toEqual(new Date(now.getTime() + 48 * HOUR));
    expect(created.collectionDetails?.completedAt).toBeUndefined();
    expect(await wallet(businessId, 'EUR')).toBeUndefined();
    expect(await getPaymentRequest(database.em(), context, token)).toMatchObject({
      transactionId: created.id,
      amount: 50_000n,
      currency: 'EUR',
      description: 'Invoice 42',
      status: 'PENDING',
      redirectUrl: 'https://shop.example/paid',
    });

    advance(HOUR);
    expect(await authorizePaymentRequest(database.em(), context, token, true)).toMatchObject({
      status: 'SUCCESSFUL',
    });
    const paid = await read(businessId, created.id);
    expect(paid).toMatchObject({
      status: TransactionStatus.SUCCESSFUL,
      collectionDetails: { railReference: expect.stringMatching(/^SBX/) },
    });
    expect(dateOf(paid.collectionDetails?.completedAt)).toEqual(now);
    expect(await wallet(businessId, 'EUR')).toMatchObject({ ledger: 49_500n, pending: 0n, available: 49_500n });
    expect(await kit.statusTrail(created.id)).toEqual([
      ['created', TransactionStatus.PENDING],
      ['updated', TransactionStatus.PENDING, TransactionStatus.SUCCESSFUL],
    ]);
    // A finished request cannot be authorized again (400), and nothing more moves.
    await expect(authorizePaymentRequest(database.em(), context, token, true)).rejects.toMatchObject({
      reason: 'PAYMENT_REQUEST_NOT_PENDING',
      status: Status.FAILED_PRECONDITION,
      message: expect.stringContaining('SUCCESSFUL'),
    });
    expect(await wallet(businessId, 'EUR')).toMatchObject({ ledger: 49_500n });
  });

  it('the payer declines: FAILED (DECLINED_BY_PAYER), no money; a refused amount (…091) fails REJECTED_BY_BANK', async () => {
    const { businessId, customerId } = await business();
    const declined = await request(businessId, { customerId });
    expect(await authorizePaymentRequest(database.em(), context, tokenOf(declined), false)).toMatchObject({
      status: 'FAILED',
    });
    expect(await read(businessId, declined.id)).toMatchObject({
      status: TransactionStatus.FAILED,
      collectionDetails: { failureCode: CollectionFailureCode.DECLINED_BY_PAYER },
    });
    const refused = await request(businessId, { customerId, amount: 7_091n });
    await authorizePaymentRequest(database.em(), context, tokenOf(refused), true);
    expect(await read(businessId, refused.id)).toMatchObject({
      status: TransactionStatus.FAILED,
      collectionDetails: { failureCode: CollectionFailureCode.REJECTED_BY_BANK },
    });
    expect(await wallet(businessId, 'EUR')).toBeUndefined();
    expect([...(await kit.moves(declined.id)), ...(await kit.moves(refused.id))]).toEqual([]);
    await expect(authorizePaymentRequest(database.em(), context, tokenOf(declined), true)).rejects.toMatchObject({
      reason: 'PAYMENT_REQUEST_NOT_PENDING',
      message: expect.stringContaining('FAILED'),
    });
  });

  it('seed 3.5: a request not paid within 48 hours is EXPIRED by the sweep, no funds move, one transactionUpdated event', async () => {
    const { businessId, customerId } = await business();
    const created = await request(businessId, { customerId });
    advance(48 * HOUR - 1);
    await expireDueCollections(database.em(), context);
    expect((await read(businessId, created.id)).status).toBe(TransactionStatus.PENDING);

    advance(1);
    expect(await expireDueCollections(database.em(), context)).toBeGreaterThanOrEqual(1);
    const expired = await read(businessId, created.id);
    expect(expired.status).toBe(TransactionStatus.EXPIRED);
    expect(expired.collectionDetails?.completedAt).toBeUndefined();
    expect(await kit.statusTrail(created.id)).toEqual([
      ['created', TransactionStatus.PENDING],
      ['updated', TransactionStatus.PENDING, TransactionStatus.EXPIRED],
    ]);
    // The payer approving afterwards moves nothing: 400 naming EXPIRED.
    await expect(authorizePaymentRequest(database.em(), context, tokenOf(created), true)).rejects.toMatchObject({
      reason: 'PAYMENT_REQUEST_NOT_PENDING',
      status: Status.FAILED_PRECONDITION,
      message: expect.stringContaining('EXPIRED'),
    });
    expect(await wallet(businessId, 'EUR')).toBeUndefined();
    expect(await kit.moves(created.id)).toEqual([]);
  });

  it('seed 3.5: approving after the expiry time, before any sweep, answers EXPIRED and moves no money', async () => {
    const { businessId, customerId } = await business();
    const created = await request(businessId, { customerId });
    advance(48 * HOUR + 1_000);
    expect(await authorizePaymentRequest(database.em(), context, tokenOf(created), true)).toMatchObject({
      status: 'EXPIRED',
    });
    await expireDueCollections(database.em(), context);
    expect((await read(businessId, created.id)).status).toBe(TransactionStatus.EXPIRED);
    expect(await kit.statusTrail(created.id)).toEqual([
      ['created', TransactionStatus.PENDING],
      ['updated', TransactionStatus.PENDING, TransactionStatus.EXPIRED],
    ]);
    expect(await wallet(businessId, 'EUR')).toBeUndefined();
  });

  it('two sweeps running side by side expire each due request exactly once, one event each', async () => {
    const { businessId, customerId } = await business();
    const created = [];
    for (let i = 0; i < 12; i++) created.push(await request(businessId, { customerId }));
    advance(48 * HOUR);
    const [due] = await query<{ count: string }>(
      database.url,
      `select count(*) from collection where status = 'pending' and expires_at <= $1`,
      [now],
    );
    const replica = async () => {
      let expired = 0;
      for (let batch; (batch = await expireDueCollections(database.em(), context, 3)) > 0;) expired += batch;
      return expired;
    };
    const [first, second] = await Promise.all([replica(), replica()]);
    expect(first + second).toBe(Number(due?.count));
    for (const { id } of created) {
      expect(await kit.statusTrail(id)).toEqual([
        ['created', TransactionStatus.PENDING],
        ['updated', TransactionStatus.PENDING, TransactionStatus.EXPIRED],
      ]);
    }
    expect(await wallet(businessId, 'EUR')).toBeUndefined();
  });

  it('sandbox settle: pay credits, decline fails, expire ends it now; a bank transfer or finished request is 400', async () => {
    const { businessId, customerId } = await business();
    const [toPay, toDecline, toExpire] = [
      await request(businessId, { customerId }),
      await request(businessId, { customerId }),
      await request(businessId, { customerId }),
    ];
    expect(await settle(businessId, toPay.id, 'pay')).toMatchObject({ status: TransactionStatus.SUCCESSFUL });
    expect(await settle(businessId, toDecline.id, 'decline')).toMatchObject({
      status: TransactionStatus.FAILED,
      collectionDetails: { failureCode: CollectionFailureCode.DECLINED_BY_PAYER },
    });
    advance(60_000);
    const expired = await settle(businessId, toExpire.id, 'expire');
    expect(expired.status).toBe(TransactionStatus.EXPIRED);
    expect(dateOf(expired.collectionDetails?.expiresAt)).toEqual(now);
    expect(await wallet(businessId, 'EUR')).toMatchObject({ ledger: 49_500n, pending: 0n });

    const notPending = { reason: 'COLLECTION_NOT_PENDING', status: Status.FAILED_PRECONDITION };
    await expect(settle(businessId, toPay.id, 'decline')).rejects.toMatchObject(notPending);
    const account = await openAccount(businessId, customerId, 'EUR');
    const arrived = await transfer(businessId, account.id, 10_000n);
    await expect(settle(businessId, arrived.id, 'pay')).rejects.toMatchObject(notPending);
    const notFound = { reason: 'COLLECTION_NOT_FOUND', status: Status.NOT_FOUND };
    await expect(settle(randomUUID(), toExpire.id, 'pay')).rejects.toMatchObject(notFound);
    await expect(settle(businessId, randomUUID(), 'pay')).rejects.toMatchObject(notFound);
    const pending = await request(businessId, { customerId });
    await expect(
      settle(businessId, pending.id, 'pay', { ...context, environment: 'production' }),
    ).rejects.toMatchObject({ reason: 'SANDBOX_ONLY', status: Status.PERMISSION_DENIED });
    expect((await read(businessId, pending.id)).status).toBe(TransactionStatus.PENDING);
    expect(await wallet(businessId, 'EUR')).toMatchObject({ ledger: 49_500n + 9_900n, pending: 0n });
  });

  it('an unknown payment token is 404 PAYMENT_REQUEST_NOT_FOUND, to read or to authorize', async () => {
    for (const token of ['no-such-token', '']) {
      const notFound = { reason: 'PAYMENT_REQUEST_NOT_FOUND', status: Status.NOT_FOUND };
      await expect(getPaymentRequest(database.em(), context, token)).rejects.toMatchObject(notFound);
      await expect(authorizePaymentRequest(database.em(), context, token, true)).rejects.toMatchObject(notFound);
    }
  });

  it('refuses a money request naming why: customer, amount (or one the fee eats), currency, a reused reference (409)', async () => {
    const { businessId, customerId } = await business();
    const stranger = (await business()).customerId;
    const cases: [Parameters<typeof request>[1], string, Status][] = [
      [{ customerId: stranger }, 'CUSTOMER_NOT_FOUND', Status.INVALID_ARGUMENT],
      [{ customerId: 'not-a-uuid' }, 'CUSTOMER_NOT_FOUND', Status.INVALID_ARGUMENT],
      [{ customerId, amount: 0n }, 'INVALID_AMOUNT', Status.INVALID_ARGUMENT],
      [{ customerId, amount: -5n }, 'INVALID_AMOUNT', Status.INVALID_ARGUMENT],
      [{ customerId, currency: 'XYZ' }, 'UNKNOWN_CURRENCY', Status.INVALID_ARGUMENT],
    ];
    for (const [fields, reason, status] of cases) {
      await expect(request(businessId, fields)).rejects.toMatchObject({ reason, status });
    }
    // Every seeded currency collects; this test database's CAD is made not to, to see that refusal.
    await query(
      database.url,
      `update currency set operations = array_remove(operations, 'collection') where code = 'CAD'`,
    );
    forgetCurrencies(database.orm.em); // as a restart after a migration would: a process reads currencies once
    await expect(request(businessId, { customerId, currency: 'CAD' })).rejects.toMatchObject({
      reason: 'CURRENCY_OPERATION_NOT_SUPPORTED',
      status: Status.INVALID_ARGUMENT,
    });
    await setFeeRule(
      database.em(),
      context,
      create(FeeRuleSchema, { businessId, operation: FeeOperation.COLLECTION, currency: 'GBP', flat: 2_000n }),
    );
    await expect(request(businessId, { customerId, currency: 'GBP', amount: 2_000n })).rejects.toMatchObject({
      reason: 'INVALID_AMOUNT',
    });
    await request(businessId, { customerId, reference: 'order-7' });
    await expect(request(businessId, { customerId, reference: 'order-7' })).rejects.toMatchObject({
      reason: 'REFERENCE_ALREADY_USED',
      status: Status.ALREADY_EXISTS,
    });
    expect(await query(database.url, 'select id from collection where business_id = $1', [businessId])).toHaveLength(1);
    expect((await walletBalances(database.em(), businessId)).size).toBe(0);
  });
});
