import { create } from '@bufbuild/protobuf';
import { decodeEvent } from '@corridor/contracts/events';
import { CreatePayoutRequestSchema } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { PayoutFailureCode, PayoutStatus } from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import { TransactionStatus } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { createLogger } from '@corridor/logging';
import { query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { creditWallet, testPaymentsContext } from '../../test/test-context.js';
import { walletBalances } from '../ledger/index.js';
import { getTransaction } from '../transactions/read-transactions.js';
import { createPayout } from './create-payout.js';
import { lookupAccount } from './destinations.js';
import { PayoutWorker } from './payout-worker.js';
import { setPayoutLimit } from './payout-limits.js';
import { sandboxAccountNumber } from './sandbox-directory.js';
import { SandboxRail } from './sandbox-rail.js';
import { describePayments } from '../../test/payments-database.js';

describePayments('payments: payouts through the sandbox rail (real PostgreSQL)', (database) => {
  let context: PaymentsContext;
  let rail: SandboxRail;
  let worker: PayoutWorker;
  let now = new Date('2026-11-24T10:00:00.000Z');
  const advance = (ms: number) => (now = new Date(now.getTime() + ms));
  const ordinary = sandboxAccountNumber('058', '012345678');

  beforeAll(async () => {
    context = testPaymentsContext(database.orm, () => now, { shards: 4 });
    rail = new SandboxRail(() => database.em(), { settleMs: 1_000, delayMs: 10_000, reverseMs: 2_000 });
    worker = new PayoutWorker({
      orm: database.orm,
      context,
      rail,
      logger: createLogger('test', { level: 'silent' }),
      leaseMs: 15_000,
      pollIntervalMs: 500,
    });
  });

  async function funded(amount: bigint): Promise<string> {
    const businessId = randomUUID();
    await creditWallet(database.orm, context, businessId, 'NGN', amount);
    return businessId;
  }
  interface PayoutFields {
    amount?: bigint;
    currency?: string;
    bankCode?: string;
    accountNumber?: string;
    beneficiaryId?: string;
    saveBeneficiary?: boolean;
  }
  const payout = (businessId: string, fields: PayoutFields = {}) => {
    const { bankCode = '058', accountNumber = ordinary, ...rest } = fields;
    const destination = fields.beneficiaryId ? {} : { bankCode, accountNumber };
    return database.em().transactional((tx) =>
      createPayout(
        tx,
        context,
        businessId,
        create(CreatePayoutRequestSchema, {
          amount: 50_000n,
          currency: 'NGN',
          narration: 'test',
          reference: randomUUID(),
          ...destination,
          ...rest,
        }),
      ),
    );
  };
  const wallet = async (businessId: string) => (await walletBalances(database.em(), businessId)).get('NGN');
  const statusOf = async (businessId: string, id: string) =>
    (await getTransaction(database.em(), businessId, id)).payoutDetails?.status;
  /** Runs the worker until nothing is due now. */
  const drain = async () => {
    while ((await worker.runOnce()) > 0);
  };

  it('reserves amount + fee at creation, submits once, then posts it when the rail settles', async () => {
    const businessId = await funded(1_000_000n);
    const created = await payout(businessId);
    // Default payout fee: flat 100.00 NGN (decision 0011).
    expect(created).toMatchObject({
      amount: -50_000n,
      fee: 10_000n,
      status: TransactionStatus.PENDING,
      payoutDetails: { status: PayoutStatus.PENDING },
    });
    expect(created.payoutDetails?.destination).toMatchObject({
      bankCode: '058',
      accountNumber: ordinary,
      bankName: 'Guaranty Trust Bank',
    });
    expect(await wallet(businessId)).toMatchObject({ ledger: 1_000_000n, pending: 60_000n, available: 940_000n });

    await drain();
    expect(await statusOf(businessId, created.id)).toBe(PayoutStatus.PROCESSING);
    advance(1_000);
    await drain();
    expect(await statusOf(businessId, created.id)).toBe(PayoutStatus.SUCCESSFUL);
    expect(await wallet(businessId)).toMatchObject({ ledger: 940_000n, pending: 0n, available: 940_000n });
    expect((await rail.view(created.id, now))?.submitCalls).toBe(1);
    // Each event carries the payout as it became: pending, processing, successful.
    const events = await query<{ payload: Buffer }>(
      database.url,
      'select payload from outbox where message_key = $1 order by id',
      [created.id],
    );
    expect(
      events.map(({ payload }) => {
        const event = decodeEvent(payload);
        return event.payload.case === 'transactionCreated' || event.payload.case === 'transactionUpdated'
          ? event.payload.value.transaction?.payoutDetails?.status
          : undefined;
      }),
    ).toEqual([PayoutStatus.PENDING, PayoutStatus.PROCESSING, PayoutStatus.SUCCESSFUL]);
  });

  it('a failing account voids the reservation; a returned one gives amount and fee back after success', async () => {
    const businessId = await funded(1_000_000n);
    const failing = await payout(businessId, { accountNumber: sandboxAccountNumber('058', '999000001') });
    const returned = await payout(businessId, { accountNumber: sandboxAccountNumber('058', '999000004') });
    await drain();
    advance(1_000);
    await drain();
    const failed = await getTransaction(database.em(), businessId, failing.id);
    expect(failed).toMatchObject({
      status: TransactionStatus.FAILED,
      payoutDetails: { status: PayoutStatus.FAILED, failureCode: PayoutFailureCode.INVALID_ACCOUNT },
    });
    expect(await statusOf(businessId, returned.id)).toBe(PayoutStatus.SUCCESSFUL);
    expect(await wallet(businessId)).toMatchObject({ ledger: 940_000n, pending: 0n });
    advance(2_000);
    await drain();
    expect(await getTransaction(database.em(), businessId, returned.id)).toMatchObject({
      status: TransactionStatus.REVERSED,
      payoutDetails: { status: PayoutStatus.REVERSED, failureCode: PayoutFailureCode.RETURNED_BY_BANK },
    });
    expect(await wallet(businessId)).toMatchObject({ ledger: 1_000_000n, pending: 0n, available: 1_000_000n });
  });

  it('after a crash between the rail’s acceptance and our record, the payout is recorded, never sent again', async () => {
    const businessId = await funded(1_000_000n);
    const created = await payout(businessId);
    // The rail accepted it, then the process died before writing "processing"; its claim lapses.
    await rail.submit(
      { payoutId: created.id, bankCode: '058', accountNumber: ordinary, amount: 50_000n, currency: 'NGN' },
      now,
    );
    await query(database.url, 'update payout set lease_until = $2 where id = $1', [
      created.id,
      new Date(now.getTime() - 1),
    ]);
    await drain();
    advance(1_000);
    await drain();
    expect(await statusOf(businessId, created.id)).toBe(PayoutStatus.SUCCESSFUL);
    expect((await rail.view(created.id, now))?.submitCalls).toBe(1);
  });

  it('refuses with nothing reserved: insufficient balance, unknown bank, bad check digit, account not found, other currency', async () => {
    const businessId = await funded(55_000n);
    const cases: [Parameters<typeof payout>[1], string][] = [
      [{}, 'INSUFFICIENT_FUNDS'],
      [{ bankCode: '999' }, 'UNKNOWN_BANK'],
      [{ accountNumber: `${ordinary.slice(0, 9)}${(Number(ordinary[9]) + 1) % 10}` }, 'INVALID_ACCOUNT_NUMBER'],
      [{ accountNumber: sandboxAccountNumber('058', '999000009') }, 'ACCOUNT_NOT_FOUND'],
      [{ currency: 'USD' }, 'CURRENCY_MISMATCH'],
      [{ amount: 0n }, 'INVALID_AMOUNT'],
    ];
    for (const [fields, reason] of cases) await expect(payout(businessId, fields)).rejects.toMatchObject({ reason });
    expect(await wallet(businessId)).toMatchObject({ ledger: 55_000n, pending: 0n, available: 55_000n });
  });

  it('a daily limit holds under concurrency, and a failed payout gives its room back', async () => {
    const businessId = await funded(10_000_000n);
    await setPayoutLimit(database.em(), context, {
      $typeName: 'corridor.payments.v1.AdminSetPayoutLimitRequest',
      businessId,
      currency: 'NGN',
      dailyLimit: 200_000n,
    });
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => payout(businessId)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(4);
    expect(
      outcomes
        .filter((outcome) => outcome.status === 'rejected')
        .every((o) => (o as PromiseRejectedResult).reason.reason === 'PAYOUT_LIMIT_EXCEEDED'),
    ).toBe(true);
  });

  it('saves a beneficiary and pays it again by id', async () => {
    const businessId = await funded(1_000_000n);
    const first = await payout(businessId, { saveBeneficiary: true });
    const beneficiaryId = first.payoutDetails?.beneficiaryId ?? '';
    expect(beneficiaryId).toMatch(/^[0-9a-f-]{36}$/);
    const again = await payout(businessId, { beneficiaryId });
    expect(again.payoutDetails?.destination?.accountNumber).toBe(ordinary);
    await expect(payout(await funded(1_000_000n), { beneficiaryId })).rejects.toMatchObject({
      reason: 'BENEFICIARY_NOT_FOUND',
    });
    await drain();
    advance(1_000);
    await drain();
  });

  it('in production pays only an account the business looked up (or a saved beneficiary)', async () => {
    const businessId = await funded(1_000_000n);
    const production = { ...context, environment: 'production' as const };
    const payoutIn = (fields: { accountNumber: string }) =>
      database.em().transactional((tx) =>
        createPayout(
          tx,
          production,
          businessId,
          create(CreatePayoutRequestSchema, {
            amount: 1_000n,
            currency: 'NGN',
            bankCode: '058',
            narration: 'test',
            reference: randomUUID(),
            ...fields,
          }),
        ),
      );
    const account = sandboxAccountNumber('058', '076543210');
    await expect(payoutIn({ accountNumber: account })).rejects.toMatchObject({ reason: 'LOOKUP_REQUIRED' });
    expect(await wallet(businessId)).toMatchObject({ pending: 0n, available: 1_000_000n });
    await lookupAccount(database.em(), production, businessId, '058', account);
    expect((await payoutIn({ accountNumber: account })).payoutDetails?.status).toBe(PayoutStatus.PENDING);
    // Another business's lookup does not count.
    await expect(
      database.em().transactional((tx) =>
        createPayout(
          tx,
          production,
          randomUUID(),
          create(CreatePayoutRequestSchema, {
            amount: 1n,
            currency: 'NGN',
            bankCode: '058',
            accountNumber: account,
            narration: 'x',
            reference: randomUUID(),
          }),
        ),
      ),
    ).rejects.toMatchObject({ reason: 'LOOKUP_REQUIRED' });
    await drain();
    advance(1_000);
    await drain();
  });
});
