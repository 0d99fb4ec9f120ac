import { create } from '@bufbuild/protobuf';
import { RefundStatus } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { FeeOperation } from '@corridor/contracts/corridor/payments/v1/money_pb';
import {
  CreateCollectionRequestSchema,
  CreatePayoutRequestSchema,
  CreateRefundRequestSchema,
  CreateSwapRequestSchema,
  FeeRuleSchema,
} from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import {
  AmountSide,
  TransactionStatus,
  TransactionType,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { Status } from '@corridor/grpc';
import { query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { walletBalances } from '../ledger/index.js';
import { createPayout } from '../payouts/create-payout.js';
import { sandboxAccountNumber } from '../payouts/sandbox-directory.js';
import { setFeeRule } from '../reference/fees.js';
import { setMidRate } from '../reference/rates.js';
import { createSwap } from '../swaps/create-swap.js';
import { creditWallet, testPaymentsContext } from '../../test/test-context.js';
import { getTransaction } from '../transactions/read-transactions.js';
import { collectionSpecKit, dateOf } from '../../test/collection-spec-kit.js';
import { createCollection, receiveTransfer } from '../collections/collect.js';
import { createRefund, decideDueRefunds, getRefund } from './refunds.js';
import { createVirtualAccount } from '../collections/virtual-accounts.js';
import { describePayments } from '../../test/payments-database.js';

const DAY = 86_400_000;

describePayments('payments: refunds of collections through the sandbox rail (real PostgreSQL)', (database) => {
  let context: PaymentsContext;
  let now = new Date('2026-11-24T10:00:00.000Z');
  const advance = (ms: number) => (now = new Date(now.getTime() + ms));
  let kit: ReturnType<typeof collectionSpecKit>;

  beforeAll(async () => {
    context = testPaymentsContext(database.orm, () => now);
    kit = collectionSpecKit(database.orm, database.url, () => now);
    await setMidRate(database.em(), context, { baseCurrency: 'GBP', quoteCurrency: 'USD', rate: '1.27' });
  });

  const credit = (businessId: string, currency: string, amount: bigint) =>
    creditWallet(database.orm, context, businessId, currency, amount);

  /** A business whose VERIFIED FULL-KYB customer has open accounts, as the consumer and the API make them. */
  async function business() {
    const { businessId, customerId } = await kit.business();
    const accounts = new Map<string, string>();
    for (const currency of ['NGN', 'GBP', 'EUR', 'USD']) {
      const account = await database
        .em()
        .transactional((tx) => createVirtualAccount(tx, context, businessId, { customerId, currency }));
      accounts.set(currency, account.id);
    }
    /** A bank transfer of `amount` arriving now (1% fee: the wallet gets 99%). */
    const collect = (currency: string, amount: bigint) =>
      database.em().transactional((tx) =>
        receiveTransfer(tx, context, businessId, {
          virtualAccountId: accounts.get(currency) ?? '',
          amount,
          senderName: 'Jane Doe',
        }),
      );
    return { businessId, customerId, collect };
  }

  const refund = (businessId: string, fields: Parameters<typeof create<typeof CreateRefundRequestSchema>>[1]) =>
    database
      .em()
      .transactional((tx) => createRefund(tx, context, businessId, create(CreateRefundRequestSchema, fields)));
  const wallet = async (businessId: string, currency: string) =>
    (await walletBalances(database.em(), businessId)).get(currency);
  const transaction = (businessId: string, id: string) => getTransaction(database.em(), businessId, id);
  const decide = () => decideDueRefunds(database.em(), context);
  const refundRows = (businessId: string) =>
    query<{ id: string; collection_id: string }>(
      database.url,
      'select id, collection_id from refund where business_id = $1',
      [businessId],
    );
  const reservations = (refundId: string) =>
    query<{ phase: string; amount: string; credit: string }>(
      database.url,
      `select t.phase, t.amount::text as amount, c.kind as credit from ledger_transfer t
       join ledger_account c on c.id = t.credit_account_id where t.transaction_id = $1 order by t.id`,
      [refundId],
    );
  /** The REFUND transaction's events: created or updated, with its status and the refund_details' status. */
  const events = async (refundId: string) =>
    (await kit.outboxEvents(refundId)).map((event) => {
      if (event.case !== 'transactionCreated' && event.case !== 'transactionUpdated') return [event.case];
      const { transaction: sent } = event.value;
      return [event.case, sent?.status, sent?.refundDetails?.status];
    });

  it('seed 2.5, 3.5: a successful GBP collection’s refund is processing with the amount reserved, then successful and posted', async () => {
    const { businessId, collect } = await business();
    const collected = await collect('GBP', 100_000n);
    await credit(businessId, 'GBP', 50_000n);
    expect(await wallet(businessId, 'GBP')).toMatchObject({ ledger: 149_000n, pending: 0n });

    const started = await refund(businessId, {
      transactionId: collected.id,
      reason: 'goods returned',
      reference: 'refund-001',
    });
    expect(started).toMatchObject({
      existing: false,
      refund: {
        transactionId: collected.id,
        status: RefundStatus.PROCESSING,
        amount: 100_000n,
        currency: 'GBP',
        reason: 'goods returned',
        reference: 'refund-001',
      },
    });
    const refundId = started.refund.id;
    expect(started.refund.completedAt).toBeUndefined();
    expect(await wallet(businessId, 'GBP')).toMatchObject({ ledger: 149_000n, pending: 100_000n, available: 49_000n });
    expect(await reservations(refundId)).toEqual([{ phase: 'pending', amount: '100000', credit: 'settlement' }]);
    expect(await transaction(businessId, collected.id)).toMatchObject({
      status: TransactionStatus.SUCCESSFUL,
      refundStatus: RefundStatus.PROCESSING,
    });
    expect(await transaction(businessId, refundId)).toMatchObject({
      type: TransactionType.REFUND,
      status: TransactionStatus.PROCESSING,
      amount: -100_000n,
      fee: 0n,
      refundDetails: { id: refundId, status: RefundStatus.PROCESSING, transactionId: collected.id },
    });
    // The created event carries the refund (the refund_initiated webhook is made from it).
    expect(await events(refundId)).toEqual([
      ['transactionCreated', TransactionStatus.PROCESSING, RefundStatus.PROCESSING],
    ]);

    advance(999);
    await decide();
    expect((await getRefund(database.em(), businessId, refundId)).status).toBe(RefundStatus.PROCESSING);
    advance(1);
    expect(await decide()).toBeGreaterThanOrEqual(1);
    const done = await getRefund(database.em(), businessId, refundId);
    expect(done).toMatchObject({ status: RefundStatus.SUCCESSFUL });
    expect(dateOf(done.completedAt)).toEqual(now);
    expect(await wallet(businessId, 'GBP')).toMatchObject({ ledger: 49_000n, pending: 0n, available: 49_000n });
    expect(await transaction(businessId, collected.id)).toMatchObject({ refundStatus: RefundStatus.SUCCESSFUL });
    expect(await transaction(businessId, refundId)).toMatchObject({ status: TransactionStatus.SUCCESSFUL });
    expect((await events(refundId)).at(-1)).toEqual([
      'transactionUpdated',
      TransactionStatus.SUCCESSFUL,
      RefundStatus.SUCCESSFUL,
    ]);
  });

  it('an EUR refund also reserves the business’s refund fee, and posts amount and fee together', async () => {
    const { businessId, collect } = await business();
    await setFeeRule(
      database.em(),
      context,
      create(FeeRuleSchema, { businessId, operation: FeeOperation.REFUND, currency: 'EUR', flat: 250n }),
    );
    const collected = await collect('EUR', 20_000n);
    await credit(businessId, 'EUR', 1_000n);
    const { refund: started } = await refund(businessId, { transactionId: collected.id, amount: 20_000n });
    expect(await wallet(businessId, 'EUR')).toMatchObject({ ledger: 20_800n, pending: 20_250n, available: 550n });
    expect(await reservations(started.id)).toEqual([
      { phase: 'pending', amount: '20000', credit: 'settlement' },
      { phase: 'pending', amount: '250', credit: 'fees' },
    ]);
    expect(await transaction(businessId, started.id)).toMatchObject({ amount: -20_000n, fee: 250n });
    advance(1_000);
    await decide();
    expect(await wallet(businessId, 'EUR')).toMatchObject({ ledger: 550n, pending: 0n, available: 550n });
  });

  it('seed 3.5: a refund the payer’s bank declines (collection ending 093) fails: the money is back, refund_status failed, no retry', async () => {
    const { businessId, collect } = await business();
    const collected = await collect('GBP', 30_093n);
    await credit(businessId, 'GBP', 10_000n);
    const before = await wallet(businessId, 'GBP');
    const { refund: started } = await refund(businessId, { transactionId: collected.id, reference: 'declined-1' });
    expect(await wallet(businessId, 'GBP')).toMatchObject({ pending: 30_093n });
    advance(1_000);
    await decide();
    const failed = await getRefund(database.em(), businessId, started.id);
    expect(failed).toMatchObject({ status: RefundStatus.FAILED, failureReason: 'declined_by_bank' });
    expect(await wallet(businessId, 'GBP')).toMatchObject({
      ledger: before?.ledger,
      pending: 0n,
      available: before?.available,
    });
    expect(await transaction(businessId, collected.id)).toMatchObject({ refundStatus: RefundStatus.FAILED });
    expect(await transaction(businessId, started.id)).toMatchObject({ status: TransactionStatus.FAILED });
    expect(await reservations(started.id)).toEqual([
      { phase: 'pending', amount: '30093', credit: 'settlement' },
      { phase: 'void_pending', amount: '30093', credit: 'settlement' },
    ]);
    // Failed is final: later passes change nothing, and the collection is not refunded twice.
    advance(60_000);
    await decide();
    expect(await events(started.id)).toHaveLength(2);
    await expect(refund(businessId, { transactionId: collected.id, reference: 'declined-2' })).rejects.toMatchObject({
      reason: 'ALREADY_REFUNDED',
    });
  });

  it('a collection ending in 092 is answered after the rail’s delay, not the settle time', async () => {
    const { businessId, collect } = await business();
    const collected = await collect('GBP', 40_092n);
    await credit(businessId, 'GBP', 1_000n);
    const { refund: started } = await refund(businessId, { transactionId: collected.id });
    advance(9_999);
    await decide();
    expect((await getRefund(database.em(), businessId, started.id)).status).toBe(RefundStatus.PROCESSING);
    advance(1);
    await decide();
    expect((await getRefund(database.em(), businessId, started.id)).status).toBe(RefundStatus.SUCCESSFUL);
    expect(await wallet(businessId, 'GBP')).toMatchObject({
      pending: 0n,
      ledger: collected.net + 1_000n - collected.amount,
    });
  });

  it('seed 4.4: refuses ineligible refunds with 422 naming why, and writes nothing', async () => {
    const { businessId, customerId, collect } = await business();
    await credit(businessId, 'GBP', 500_000n);
    await credit(businessId, 'NGN', 500_000n);
    const ngn = await collect('NGN', 100_000n);
    const usd = await collect('USD', 100_000n);
    const gbp = await collect('GBP', 100_000n);
    const bounced = await collect('GBP', 5_091n);
    const pending = await database
      .em()
      .transactional((tx) =>
        createCollection(
          tx,
          context,
          businessId,
          create(CreateCollectionRequestSchema, { customerId, amount: 10_000n, currency: 'GBP', description: 'x' }),
        ),
      );
    const payout = await database.em().transactional((tx) =>
      createPayout(
        tx,
        context,
        businessId,
        create(CreatePayoutRequestSchema, {
          amount: 50_000n,
          currency: 'NGN',
          narration: 'test',
          reference: randomUUID(),
          bankCode: '058',
          accountNumber: sandboxAccountNumber('058', '012345678'),
        }),
      ),
    );
    const swap = await database.em().transactional((tx) =>
      createSwap(
        tx,
        context,
        businessId,
        create(CreateSwapRequestSchema, {
          fromCurrency: 'GBP',
          toCurrency: 'USD',
          amount: 1_000n,
          amountSide: AmountSide.FROM,
        }),
      ),
    );
    const before = await walletBalances(database.em(), businessId);

    const cases: [Parameters<typeof refund>[1], string][] = [
      [{ transactionId: ngn.id }, 'REFUND_CURRENCY_NOT_SUPPORTED'],
      [{ transactionId: usd.id }, 'REFUND_CURRENCY_NOT_SUPPORTED'],
      [{ transactionId: bounced.id }, 'COLLECTION_NOT_SUCCESSFUL'],
      [{ transactionId: pending.id }, 'COLLECTION_NOT_SUCCESSFUL'],
      [{ transactionId: payout.id }, 'NOT_A_COLLECTION'],
      [{ transactionId: swap.id }, 'NOT_A_COLLECTION'],
      [{ transactionId: gbp.id, amount: 50_000n }, 'PARTIAL_REFUND_NOT_SUPPORTED'],
      [{ transactionId: gbp.id, amount: 100_001n }, 'PARTIAL_REFUND_NOT_SUPPORTED'],
    ];
    for (const [fields, reason] of cases) {
      await expect(refund(businessId, { reference: randomUUID(), ...fields })).rejects.toMatchObject({
        reason,
        status: Status.INVALID_ARGUMENT,
      });
    }
    for (const transactionId of [randomUUID(), 'not-a-uuid']) {
      await expect(refund(businessId, { transactionId })).rejects.toMatchObject({
        reason: 'TRANSACTION_NOT_FOUND',
        status: Status.NOT_FOUND,
      });
    }
    await expect(refund(randomUUID(), { transactionId: gbp.id })).rejects.toMatchObject({
      reason: 'TRANSACTION_NOT_FOUND',
    });
    expect(await refundRows(businessId)).toEqual([]);
    expect(await walletBalances(database.em(), businessId)).toEqual(before);
    expect((await transaction(businessId, gbp.id)).refundStatus).toBeUndefined();
  });

  it('seed 4.4: the 7-day window: exactly 7 days after the collection is accepted, a moment later 422 REFUND_WINDOW_CLOSED', async () => {
    const { businessId, collect } = await business();
    const [first, second] = [await collect('EUR', 10_000n), await collect('EUR', 10_000n)];
    await credit(businessId, 'EUR', 10_000n);
    advance(7 * DAY);
    expect((await refund(businessId, { transactionId: first.id })).refund.status).toBe(RefundStatus.PROCESSING);
    advance(1);
    await expect(refund(businessId, { transactionId: second.id })).rejects.toMatchObject({
      reason: 'REFUND_WINDOW_CLOSED',
      status: Status.INVALID_ARGUMENT,
    });
    expect(await wallet(businessId, 'EUR')).toMatchObject({ pending: 10_000n });
    await decide();
  });

  it('seed 4.4: a reference names one refund: same collection → the same refund (existing), another collection → 400; once refunded → 422', async () => {
    const { businessId, collect } = await business();
    const collected = await collect('GBP', 60_000n);
    const other = await collect('GBP', 60_000n);
    await credit(businessId, 'GBP', 10_000n);
    const first = await refund(businessId, { transactionId: collected.id, reference: 'rf-42' });
    const pendingAfterFirst = (await wallet(businessId, 'GBP'))?.pending;
    expect(pendingAfterFirst).toBe(60_000n);

    const again = await refund(businessId, { transactionId: collected.id, reference: 'rf-42', reason: 'changed' });
    expect(again).toEqual({ refund: first.refund, existing: true });
    expect((await wallet(businessId, 'GBP'))?.pending).toBe(pendingAfterFirst);
    expect(await reservations(first.refund.id)).toHaveLength(1);
    expect(await events(first.refund.id)).toHaveLength(1);

    await expect(refund(businessId, { transactionId: other.id, reference: 'rf-42' })).rejects.toMatchObject({
      reason: 'REFERENCE_USED_ON_ANOTHER_TRANSACTION',
      status: Status.FAILED_PRECONDITION,
    });
    for (const reference of ['rf-43', undefined]) {
      await expect(refund(businessId, { transactionId: collected.id, reference })).rejects.toMatchObject({
        reason: 'ALREADY_REFUNDED',
        status: Status.INVALID_ARGUMENT,
      });
    }
    expect(await refundRows(businessId)).toEqual([{ id: first.refund.id, collection_id: collected.id }]);
    expect((await transaction(businessId, other.id)).refundStatus).toBeUndefined();
    // References belong to a business: another business may use the same one.
    const elsewhere = await business();
    const theirs = await elsewhere.collect('GBP', 10_000n);
    await credit(elsewhere.businessId, 'GBP', 1_000n);
    expect(await refund(elsewhere.businessId, { transactionId: theirs.id, reference: 'rf-42' })).toMatchObject({
      existing: false,
    });
    advance(1_000);
    await decide();
  });

  it('a wallet that cannot cover the refund is 422 INSUFFICIENT_FUNDS and nothing is written', async () => {
    const { businessId, collect } = await business();
    // The wallet holds the net (99%) of the collection: short of the full amount by the fee.
    const collected = await collect('GBP', 100_000n);
    expect(await wallet(businessId, 'GBP')).toMatchObject({ ledger: 99_000n, pending: 0n });
    await expect(refund(businessId, { transactionId: collected.id, reference: 'short-1' })).rejects.toMatchObject({
      reason: 'INSUFFICIENT_FUNDS',
      status: Status.INVALID_ARGUMENT,
    });
    expect(await wallet(businessId, 'GBP')).toMatchObject({ ledger: 99_000n, pending: 0n, available: 99_000n });
    expect(await refundRows(businessId)).toEqual([]);
    expect((await transaction(businessId, collected.id)).refundStatus).toBeUndefined();
    expect(
      await query(database.url, `select id from payment_transaction where business_id = $1 and type = 'REFUND'`, [
        businessId,
      ]),
    ).toEqual([]);
    // Funded, the same reference now starts the refund.
    await credit(businessId, 'GBP', 1_000n);
    expect(await refund(businessId, { transactionId: collected.id, reference: 'short-1' })).toMatchObject({
      existing: false,
    });
    advance(1_000);
    await decide();
  });

  it('50 concurrent refunds of one collection (half one reference, half others) make one refund and one reservation', async () => {
    const { businessId, collect } = await business();
    const collected = await collect('EUR', 80_000n);
    await credit(businessId, 'EUR', 1_000n);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        refund(businessId, { transactionId: collected.id, reference: i % 2 === 0 ? 'same-ref' : `ref-${i}` }),
      ),
    );
    const answered = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    const refusals = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(answered.filter((answer) => !answer.existing)).toHaveLength(1);
    expect(new Set(answered.map((answer) => answer.refund.id)).size).toBe(1);
    for (const refusal of refusals) expect(refusal).toMatchObject({ reason: 'ALREADY_REFUNDED' });
    const rows = await refundRows(businessId);
    expect(rows).toEqual([{ id: answered[0]?.refund.id, collection_id: collected.id }]);
    expect(await reservations(rows[0]?.id ?? '')).toHaveLength(1);
    expect(await wallet(businessId, 'EUR')).toMatchObject({ pending: 80_000n, ledger: 80_200n });
    advance(1_000);
    await decide();
    expect(await wallet(businessId, 'EUR')).toMatchObject({ pending: 0n, ledger: 200n });
  });

  it('refunds made while the worker decides others, across businesses, never deadlock: every request and pass succeeds', async () => {
    // The worker once decided a batch in one transaction, locking refund after refund's accounts in no
    // single order, and deadlocked with refunds being made (PostgreSQL 40P01, answered 500 under load).
    const businesses = await Promise.all(Array.from({ length: 6 }, () => business()));
    const collected = await Promise.all(
      businesses.map(async ({ businessId, collect }) => {
        await credit(businessId, 'GBP', 10_000_000n);
        const ids: string[] = [];
        for (let index = 0; index < 8; index += 1) ids.push((await collect('GBP', 10_000n)).id);
        return { businessId, ids };
      }),
    );
    const refundsOf = (half: 0 | 1) =>
      collected.flatMap(({ businessId, ids }) =>
        ids.filter((_, index) => index % 2 === half).map((transactionId) => ({ businessId, transactionId })),
      );
    for (const { businessId, transactionId } of refundsOf(0)) await refund(businessId, { transactionId });
    advance(DAY); // the first half's answers are due
    let making = true;
    const passes: PromiseSettledResult<number>[] = [];
    const deciding = Promise.all(
      [0, 1].map(async () => {
        while (making) passes.push(...(await Promise.allSettled([decide()])));
      }),
    );
    const made = await Promise.allSettled(
      refundsOf(1).map(({ businessId, transactionId }) => refund(businessId, { transactionId })),
    );
    making = false;
    await deciding;
    expect(made.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    expect(passes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
    advance(DAY);
    while ((await decide()) > 0);
    const undecided = await query<{ n: number }>(
      database.url,
      `select count(*)::int as n from refund where status = 'processing' and business_id = any($1::uuid[])`,
      [collected.map(({ businessId }) => businessId)],
    );
    expect(undecided[0]?.n).toBe(0);
  });

  it('another business’s refund is 404 REFUND_NOT_FOUND', async () => {
    const { businessId, collect } = await business();
    const collected = await collect('GBP', 10_000n);
    await credit(businessId, 'GBP', 100n);
    const { refund: started } = await refund(businessId, { transactionId: collected.id });
    expect(await getRefund(database.em(), businessId, started.id)).toEqual(started);
    for (const [owner, id] of [
      [randomUUID(), started.id],
      [businessId, randomUUID()],
      [businessId, 'not-a-uuid'],
    ] as const) {
      await expect(getRefund(database.em(), owner, id)).rejects.toMatchObject({
        reason: 'REFUND_NOT_FOUND',
        status: Status.NOT_FOUND,
      });
    }
    advance(1_000);
    await decide();
  });
});
