import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { ListTransactionsRequestSchema } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { TransactionStatus, TransactionType } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { MikroORM, ormOptions } from '@corridor/db';
import { DEFAULT_PAGE_SIZE, encodeCursor } from '@corridor/pagination';
import { itReadsOnePage, listPlanDatabase, query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { paymentsDatabase } from '../database.js';
import { listTransactions } from './read-transactions.js';
import { transactionStatusName, transactionTypeName } from './transaction-record.js';

// Issue 17: a page of GET /transactions costs the same with 60,000 transactions as with 100, on the
// first page and deep in the list, for every filter the route accepts. Each page is explained as
// listTransactions itself sends it (recorded through MikroORM's onQuery hook), against real PostgreSQL.

const NOW = new Date('2026-11-24T12:00:00.000Z');
const BIG_BUSINESS_TRANSACTIONS = 60_000;
/** The newest transactions, PENDING or PROCESSING, as a live business's are. */
const IN_FLIGHT = 100;
const secondsBefore = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
const FROM = secondsBefore(30_000);
const TO = secondsBefore(10_000);
const dateOf = (at: Timestamp | undefined) => (at ? timestampDate(at) : new Date(Number.NaN));

interface Filters {
  status?: TransactionStatus;
  type?: TransactionType;
  currency?: string;
  reference?: string;
  from?: Date;
  to?: Date;
}

/**
 * `count` transactions of one business, transaction n created n seconds before NOW with reference
 * ref-n. Types by n mod 97: about half collections, 31% payouts, 14% swaps, 4% refunds, 1%
 * adjustments. Statuses: the newest 40 PENDING and 60 PROCESSING (in flight), then 1% each FAILED
 * (n mod 101), REVERSED (mod 103) and EXPIRED (mod 107), the rest SUCCESSFUL. Currencies
 * by n mod 53: 60% NGN, 19% USD, 9% each GBP and EUR, 2% CAD. The moduli are prime to each other,
 * so the filters are independent and each combination has matches over the whole history.
 */
async function insertTransactions(url: string, businessId: string, count: number): Promise<void> {
  await query(
    url,
    `insert into payment_transaction (id, business_id, type, status, currency, amount, fee, net, reference,
       description, created_at, updated_at)
     select gen_random_uuid(), $1::uuid, kind, state, money, amount, 50, amount - 50, 'ref-' || n,
       'plan spec transaction ' || n, created, created
     from generate_series(1, $2::int) as n,
       lateral (select $3::timestamptz - make_interval(secs => n) as created,
         case when n % 97 < 48 then 'COLLECTION' when n % 97 < 78 then 'PAYOUT' when n % 97 < 92 then 'SWAP'
              when n % 97 < 96 then 'REFUND' else 'ADJUSTMENT' end as kind,
         case when n <= 40 then 'PENDING' when n <= 100 then 'PROCESSING' when n % 101 = 0 then 'FAILED'
              when n % 103 = 0 then 'REVERSED' when n % 107 = 0 then 'EXPIRED' else 'SUCCESSFUL' end as state,
         case when n % 53 < 32 then 'NGN' when n % 53 < 42 then 'USD' when n % 53 < 47 then 'GBP'
              when n % 53 < 52 then 'EUR' else 'CAD' end as money,
         (case when n % 97 between 48 and 77 then -100 else 100 end) * (1 + n % 1000) as amount) as transaction`,
    [businessId, count, NOW.toISOString()],
  );
}

const describeFilters = (filters: Filters) =>
  [
    filters.status !== undefined && `status=${transactionStatusName(filters.status)}`,
    filters.type !== undefined && `type=${transactionTypeName(filters.type)}`,
    filters.currency && `currency=${filters.currency}`,
    filters.reference && `reference=${filters.reference}`,
    filters.from && 'from',
    filters.to && 'to',
  ]
    .filter(Boolean)
    .join(' & ') || 'no filter';

/** Every filter alone (a rare and a common value of each), and the combinations a dashboard sends. */
const FIRST_PAGES: [string, Filters, number, number?][] = (
  [
    [{}, DEFAULT_PAGE_SIZE],
    [{ status: TransactionStatus.FAILED }, DEFAULT_PAGE_SIZE],
    // 97% match: the planner walks the newest-first index past the 100 in flight at its head, a cost
    // set by how many are in flight, not by the table's size.
    [{ status: TransactionStatus.SUCCESSFUL }, DEFAULT_PAGE_SIZE, IN_FLIGHT + 4 * DEFAULT_PAGE_SIZE],
    [{ status: TransactionStatus.PENDING }, DEFAULT_PAGE_SIZE],
    [{ type: TransactionType.ADJUSTMENT }, DEFAULT_PAGE_SIZE],
    [{ type: TransactionType.PAYOUT }, DEFAULT_PAGE_SIZE],
    [{ currency: 'CAD' }, DEFAULT_PAGE_SIZE],
    [{ currency: 'NGN' }, DEFAULT_PAGE_SIZE],
    // A reference is unique per business: its one transaction is the whole answer.
    [{ reference: 'ref-30000' }, 1],
    [{ from: FROM }, DEFAULT_PAGE_SIZE],
    [{ to: TO }, DEFAULT_PAGE_SIZE],
    [{ from: FROM, to: TO }, DEFAULT_PAGE_SIZE],
    [{ status: TransactionStatus.FAILED, type: TransactionType.PAYOUT }, DEFAULT_PAGE_SIZE],
    [{ type: TransactionType.PAYOUT, currency: 'NGN' }, DEFAULT_PAGE_SIZE],
    [{ status: TransactionStatus.FAILED, from: FROM, to: TO }, DEFAULT_PAGE_SIZE],
    [{ currency: 'CAD', from: FROM }, DEFAULT_PAGE_SIZE],
    [{ type: TransactionType.SWAP, currency: 'USD', to: TO }, DEFAULT_PAGE_SIZE],
  ] as [Filters, number, number?][]
).map(([filters, expected, maxRowsRead]) => [describeFilters(filters), filters, expected, maxRowsRead]);

/** Deep cursors, read both ways: half-way down each filtered list (the whole business's: 30,000 rows). */
const DEEP_PAGES: [string, Filters, number][] = (
  [
    [{}, 30_000],
    [{ status: TransactionStatus.FAILED }, 300],
    [{ type: TransactionType.ADJUSTMENT }, 300],
    [{ currency: 'CAD' }, 500],
    [{ from: FROM, to: TO }, 10_000],
    [{ status: TransactionStatus.FAILED, type: TransactionType.PAYOUT }, 90],
  ] as [Filters, number][]
).map(([filters, depth]) => [describeFilters(filters), filters, depth]);

describe('payments: the transaction list reads one page, not the business (issue 17, real PostgreSQL)', () => {
  const bigBusiness = randomUUID();
  const plan = listPlanDatabase({
    name: 'transaction_list_plan',
    table: 'payment_transaction',
    pageSize: DEFAULT_PAGE_SIZE,
    open: (url, onQuery) =>
      MikroORM.init({ ...ormOptions({ ...paymentsDatabase(url), logger: () => undefined }), onQuery }),
    seed: async (url) => {
      await insertTransactions(url, bigBusiness, BIG_BUSINESS_TRANSACTIONS);
      await insertTransactions(url, randomUUID(), 100);
    },
  });

  itReadsOnePage(plan, {
    firstPages: FIRST_PAGES,
    deepPages: DEEP_PAGES,
    /** Runs listTransactions as the gRPC handler does; checks each transaction matches every filter. */
    async page(filters, cursor) {
      const request = create(ListTransactionsRequestSchema, {
        ...filters,
        from: filters.from && timestampFromDate(filters.from),
        to: filters.to && timestampFromDate(filters.to),
        page: { cursor: cursor ? encodeCursor(cursor) : '', limit: 0 },
      });
      const { result, statement } = await plan.list((orm) => listTransactions(orm.em.fork(), bigBusiness, request));
      const createdAt = result.transactions.map((transaction) => dateOf(transaction.createdAt));
      for (const [index, transaction] of result.transactions.entries()) {
        expect(transaction.businessId).toBe(bigBusiness);
        if (filters.status !== undefined) expect(transaction.status).toBe(filters.status);
        if (filters.type !== undefined) expect(transaction.type).toBe(filters.type);
        if (filters.currency) expect(transaction.currency).toBe(filters.currency);
        if (filters.reference) expect(transaction.reference).toBe(filters.reference);
        if (filters.from) expect(createdAt[index]?.getTime()).toBeGreaterThanOrEqual(filters.from.getTime());
        if (filters.to) expect(createdAt[index]?.getTime()).toBeLessThan(filters.to.getTime());
      }
      return { createdAt, nextCursor: result.nextCursor, statement };
    },
    tests: (filters) => [
      ['business_id =', bigBusiness],
      ['status =', filters.status === undefined ? undefined : transactionStatusName(filters.status)],
      ['type =', filters.type === undefined ? undefined : transactionTypeName(filters.type)],
      ['currency =', filters.currency],
      ['reference =', filters.reference],
      ['created_at >=', filters.from],
      ['created_at <', filters.to],
    ],
  });
});
