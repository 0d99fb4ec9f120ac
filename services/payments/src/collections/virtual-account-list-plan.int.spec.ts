import { create } from '@bufbuild/protobuf';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { VirtualAccountStatus } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { ListVirtualAccountsRequestSchema } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { MikroORM, ormOptions } from '@corridor/db';
import { DEFAULT_PAGE_SIZE, encodeCursor } from '@corridor/pagination';
import { itReadsOnePage, listPlanDatabase, query } from '@corridor/testing';
import { createHash, randomUUID } from 'node:crypto';
import { paymentsDatabase } from '../database.js';
import { listVirtualAccounts } from './virtual-accounts.js';

// Issue 17: a page of GET /virtual-account costs the same with 60,000 accounts as with 100, on the
// first page and deep in the list, for every filter the route accepts (customer_id, currency,
// status). Each page is explained as listVirtualAccounts itself sends it (recorded through
// MikroORM's onQuery hook), against real PostgreSQL.

const NOW = new Date('2026-11-24T12:00:00.000Z');
const BIG_BUSINESS_ACCOUNTS = 60_000;
/** The customer whose accounts churn: 300 accounts over the business's whole history, 3 open. */
const BUSY_CUSTOMER = 7;

interface Filters {
  customer?: 'busy';
  currency?: string;
  status?: VirtualAccountStatus;
}

/** customer_projection's id of customer `c` of a business (the seed's md5 of the two). */
const customerIdSql = (business: string, c: string) => `md5(${business}::text || ':' || ${c})::uuid`;
/** The same id, computed here: the md5 of `business:n` as a uuid. */
const customerIdOf = (business: string, n: number) =>
  createHash('md5')
    .update(`${business}:${n}`)
    .digest('hex')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/**
 * `count` accounts of one business, account n created n seconds before NOW. Customer c = n / 3
 * opens three in three seconds: NGN, USD, then GBP (EUR for one customer in 25, so EUR is rare).
 * A customer in ten is REJECTED, its accounts closed (customer_rejected). Every 200th customer's
 * accounts are the busy customer's instead, all but its own first three closed (requested).
 */
async function insertVirtualAccounts(url: string, businessId: string, count: number, numberPrefix: string) {
  await query(
    url,
    `insert into customer_projection (customer_id, business_id, customer_type, kyb_scope, verification_status,
       display_name, updated_at)
     select ${customerIdSql('$1', 'c')}, $1::uuid, 'business', 'FULL',
       case when c % 10 = 3 then 'REJECTED' else 'VERIFIED' end, 'Customer ' || c, $3::timestamptz
     from generate_series(0, $2::int / 3) as c`,
    [businessId, count, NOW.toISOString()],
  );
  await query(
    url,
    `insert into virtual_account (id, business_id, customer_id, currency, status, account_name, account_number,
       bank_name, bank_code, created_at, closed_at, close_reason)
     select gen_random_uuid(), $1::uuid, ${customerIdSql('$1', 'holder')}, money,
       case when reason is null then 'active' else 'closed' end, 'Customer ' || holder, $4 || lpad(n::text, 9, '0'),
       'Corridor Sandbox Bank', '999', created,
       case when reason is not null then least(created + interval '1 day', $3::timestamptz) end, reason
     from generate_series(1, $2::int) as n,
       lateral (select n / 3 as c, n % 3 as r, $3::timestamptz - make_interval(secs => n) as created) as slot,
       lateral (select case when c % 200 = $5 then $5 else c end as holder,
         case when r = 0 then 'NGN' when r = 1 then 'USD' when c % 25 = 0 then 'EUR' else 'GBP' end as money,
         case when c % 10 = 3 then 'customer_rejected' when c % 200 = $5 and c <> $5 then 'requested' end as reason
       ) as account`,
    [businessId, count, NOW.toISOString(), numberPrefix, BUSY_CUSTOMER],
  );
}

const dateOf = (at: Timestamp | undefined) => (at ? timestampDate(at) : new Date(Number.NaN));
const ACTIVE = VirtualAccountStatus.ACTIVE;
const CLOSED = VirtualAccountStatus.CLOSED;
const describeFilters = (filters: Filters) =>
  [
    filters.customer && 'customer_id (300 accounts)',
    filters.currency && `currency=${filters.currency}`,
    filters.status !== undefined && `status=${filters.status === CLOSED ? 'closed' : 'active'}`,
  ]
    .filter(Boolean)
    .join(' & ') || 'no filter';

/** Every filter alone (a rare and a common value of each), and combinations of them. */
const FIRST_PAGES: [string, Filters, number][] = (
  [
    {},
    { customer: 'busy' },
    { currency: 'EUR' },
    { currency: 'NGN' },
    { status: ACTIVE },
    { status: CLOSED },
    { customer: 'busy', currency: 'NGN' },
    { customer: 'busy', status: CLOSED },
    { currency: 'EUR', status: ACTIVE },
    { currency: 'NGN', status: CLOSED },
  ] as Filters[]
).map((filters) => [describeFilters(filters), filters, DEFAULT_PAGE_SIZE]);

/** Deep cursors, read both ways: half-way down each filtered list (the whole business's: 30,000 rows). */
const DEEP_PAGES: [string, Filters, number][] = (
  [
    [{}, 30_000],
    [{ customer: 'busy' }, 150],
    [{ currency: 'EUR' }, 400],
    [{ currency: 'NGN' }, 10_000],
    [{ status: CLOSED }, 3_000],
  ] as [Filters, number][]
).map(([filters, depth]) => [describeFilters(filters), filters, depth]);

describe('payments: the virtual-account list reads one page, not the business (issue 17, real PostgreSQL)', () => {
  const bigBusiness = randomUUID();
  const busyCustomer = customerIdOf(bigBusiness, BUSY_CUSTOMER);
  const plan = listPlanDatabase({
    name: 'virtual_account_list_plan',
    table: 'virtual_account',
    pageSize: DEFAULT_PAGE_SIZE,
    open: (url, onQuery) =>
      MikroORM.init({ ...ormOptions({ ...paymentsDatabase(url), logger: () => undefined }), onQuery }),
    seed: async (url) => {
      await insertVirtualAccounts(url, bigBusiness, BIG_BUSINESS_ACCOUNTS, '9');
      await insertVirtualAccounts(url, randomUUID(), 100, '8');
    },
  });

  itReadsOnePage(plan, {
    firstPages: FIRST_PAGES,
    deepPages: DEEP_PAGES,
    /** Runs listVirtualAccounts as the gRPC handler does; checks each account matches every filter. */
    async page(filters, cursor) {
      const request = create(ListVirtualAccountsRequestSchema, {
        customerId: filters.customer && busyCustomer,
        currency: filters.currency,
        status: filters.status,
        page: { cursor: cursor ? encodeCursor(cursor) : '', limit: 0 },
      });
      const { result, statement } = await plan.list((orm) => listVirtualAccounts(orm.em.fork(), bigBusiness, request));
      for (const account of result.virtualAccounts) {
        if (filters.customer) expect(account.customerId).toBe(busyCustomer);
        if (filters.currency) expect(account.currency).toBe(filters.currency);
        if (filters.status !== undefined) expect(account.status).toBe(filters.status);
      }
      const createdAt = result.virtualAccounts.map((account) => dateOf(account.createdAt));
      return { createdAt, nextCursor: result.nextCursor, statement };
    },
    tests: (filters) => [
      ['business_id =', bigBusiness],
      ['customer_id =', filters.customer && busyCustomer],
      ['currency =', filters.currency],
      ['status =', filters.status === undefined ? undefined : filters.status === CLOSED ? 'closed' : 'active'],
    ],
  });
});
