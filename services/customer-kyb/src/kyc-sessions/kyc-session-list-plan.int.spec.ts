import { create } from '@bufbuild/protobuf';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { KycSessionStatus } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { ListKycSessionsRequestSchema } from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import { MikroORM, ormOptions } from '@corridor/db';
import { DEFAULT_PAGE_SIZE, encodeCursor } from '@corridor/pagination';
import { itReadsOnePage, listPlanDatabase, query } from '@corridor/testing';
import { createHash, randomUUID } from 'node:crypto';
import { customerKybDatabase } from '../database.js';
import { statusName } from './kyc-session-record.js';
import { listKycSessions } from './kyc-sessions.js';

// Issue 17: a page of GET /kyc-session costs the same with 60,000 sessions as with 100, on the first
// page and deep in the list, for every filter the route accepts (customer_reference, status,
// customer_id). Each page is explained as listKycSessions itself sends it (recorded through
// MikroORM's onQuery hook), against real PostgreSQL.

const NOW = new Date('2026-11-24T12:00:00.000Z');
const BIG_BUSINESS_SESSIONS = 60_000;
/** Each person has a session every 1,000: 60 over the business's whole history. */
const PEOPLE = 1_000;
/** A person who is one of the business's customers (a quarter of people are not). */
const PERSON = 123;

interface Filters {
  /** The person's customer_reference, person-123. */
  reference?: boolean;
  /** The person's customer id. */
  customer?: boolean;
  status?: KycSessionStatus;
}

/** The id of person p's customer in a business (the seed's md5 of the two). */
const customerIdSql = (business: string, person: string) => `md5(${business}::text || ':' || ${person})::uuid`;
/** The same id, computed here: the md5 of `business:n` as a uuid. */
const customerIdOf = (business: string, n: number) =>
  createHash('md5')
    .update(`${business}:${n}`)
    .digest('hex')
    .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/**
 * `count` sessions of one business, session n created n seconds before NOW for person n mod 1,000
 * (customer_reference person-p; three people in four are customers, and their sessions name them).
 * The newest 40 are PENDING and the next 60 PROCESSING; then 1% CANCELLED (n mod 97), a tenth
 * EXPIRED, the rest COMPLETED (one in seven REJECTED, retryable).
 */
async function insertSessions(url: string, businessId: string, count: number): Promise<void> {
  await query(
    url,
    `insert into customer (id, business_id, type, verification_status, fields, created_at, updated_at)
     select ${customerIdSql('$1', 'p')}, $1::uuid, 'individual', 'VERIFIED',
       jsonb_build_object('first_name', 'Ada', 'last_name', 'Obi', 'country', 'NG', 'email', 'person-' || p || '@example.com'),
       $2::timestamptz - interval '100 days', $2::timestamptz - interval '100 days'
     from generate_series(0, $3::int - 1) as p where p % 4 <> 0`,
    [businessId, NOW.toISOString(), PEOPLE],
  );
  await query(
    url,
    `insert into kyc_session (id, business_id, customer_reference, requirements, customer_id, status, result,
       rejection_reason, rejection_type, verification_token, expires_at, created_at, updated_at, submitted_at,
       completed_at, expired_at, cancelled_at)
     select gen_random_uuid(), $1::uuid, 'person-' || p, '{DOCUMENTS,SELFIE}',
       case when p % 4 <> 0 then ${customerIdSql('$1', 'p')} end, state,
       case when state = 'completed' then verdict end,
       case when verdict = 'REJECTED' and state = 'completed' then 'The document photo is unreadable' end,
       case when verdict = 'REJECTED' and state = 'completed' then 'RETRYABLE' end,
       md5($1::text || ':session:' || n), created + interval '30 minutes', created,
       created + case state when 'pending' then interval '0' when 'expired' then interval '30 minutes' else interval '1 minute' end,
       case when state in ('processing', 'completed') then created + interval '30 seconds' end,
       case when state = 'completed' then created + interval '1 minute' end,
       case when state = 'expired' then created + interval '30 minutes' end,
       case when state = 'cancelled' then created + interval '1 minute' end
     from generate_series(1, $2::int) as n,
       lateral (select n % $4::int as p, $3::timestamptz - make_interval(secs => n) as created,
         case when n <= 40 then 'pending' when n <= 100 then 'processing' when n % 97 = 0 then 'cancelled'
              when n % 10 = 0 and n > 1800 then 'expired' else 'completed' end as state,
         case when n % 7 = 0 then 'REJECTED' else 'APPROVED' end as verdict) as session`,
    [businessId, count, NOW.toISOString(), PEOPLE],
  );
}

const dateOf = (at: Timestamp | undefined) => (at ? timestampDate(at) : new Date(Number.NaN));

const describeFilters = (filters: Filters) =>
  [
    filters.reference && `customer_reference=person-${PERSON}`,
    filters.customer && 'customer_id',
    filters.status !== undefined && `status=${statusName(filters.status)}`,
  ]
    .filter(Boolean)
    .join(' & ') || 'no filter';

/** Every filter alone (a rare and a common status), and the combinations a platform sends. */
/** The newest sessions, pending or processing, as a live platform's are. */
const IN_FLIGHT = 100;

const FIRST_PAGES: [string, Filters, number, number?][] = (
  [
    {},
    { reference: true },
    { customer: true },
    { status: KycSessionStatus.CANCELLED },
    { status: KycSessionStatus.PENDING },
    { status: KycSessionStatus.EXPIRED },
    { status: KycSessionStatus.COMPLETED },
    { reference: true, status: KycSessionStatus.COMPLETED },
    { customer: true, status: KycSessionStatus.COMPLETED },
    { reference: true, customer: true },
  ] as Filters[]
).map((filters) => [
  describeFilters(filters),
  filters,
  DEFAULT_PAGE_SIZE,
  // Most sessions are completed: the planner walks the newest-first index past the ones in flight at
  // its head, a cost set by how many are in flight, not by the table's size.
  filters.status === KycSessionStatus.COMPLETED && !filters.reference && !filters.customer
    ? IN_FLIGHT + 4 * DEFAULT_PAGE_SIZE
    : undefined,
]);

/** Deep cursors, read both ways: half-way down each filtered list (the whole business's: 30,000 rows). */
const DEEP_PAGES: [string, Filters, number][] = (
  [
    [{}, 30_000],
    [{ reference: true }, 30],
    [{ customer: true }, 30],
    [{ status: KycSessionStatus.CANCELLED }, 300],
    [{ status: KycSessionStatus.EXPIRED }, 2_500],
  ] as [Filters, number][]
).map(([filters, depth]) => [describeFilters(filters), filters, depth]);

describe('customer-kyb: the KYC-session list reads one page, not the business (issue 17, real PostgreSQL)', () => {
  const bigBusiness = randomUUID();
  const personCustomer = customerIdOf(bigBusiness, PERSON);
  const plan = listPlanDatabase({
    name: 'kyc_session_list_plan',
    table: 'kyc_session',
    pageSize: DEFAULT_PAGE_SIZE,
    open: (url, onQuery) =>
      MikroORM.init({ ...ormOptions({ ...customerKybDatabase(url), logger: () => undefined }), onQuery }),
    seed: async (url) => {
      await insertSessions(url, bigBusiness, BIG_BUSINESS_SESSIONS);
      await insertSessions(url, randomUUID(), 100);
    },
  });

  itReadsOnePage(plan, {
    firstPages: FIRST_PAGES,
    deepPages: DEEP_PAGES,
    /** Runs listKycSessions as the gRPC handler does; checks each session matches every filter. */
    async page(filters, cursor) {
      const request = create(ListKycSessionsRequestSchema, {
        customerReference: filters.reference ? `person-${PERSON}` : undefined,
        customerId: filters.customer ? personCustomer : undefined,
        status: filters.status,
        page: { cursor: cursor ? encodeCursor(cursor) : '', limit: 0 },
      });
      const { result, statement } = await plan.list((orm) => listKycSessions(orm.em.fork(), bigBusiness, request));
      for (const session of result.sessions) {
        expect(session.businessId).toBe(bigBusiness);
        if (filters.reference) expect(session.customerReference).toBe(`person-${PERSON}`);
        if (filters.customer) expect(session.customerId).toBe(personCustomer);
        if (filters.status !== undefined) expect(session.status).toBe(filters.status);
      }
      const createdAt = result.sessions.map((session) => dateOf(session.createdAt));
      return { createdAt, nextCursor: result.nextCursor, statement };
    },
    tests: (filters) => [
      ['business_id =', bigBusiness],
      ['customer_reference =', filters.reference ? `person-${PERSON}` : undefined],
      ['customer_id =', filters.customer ? personCustomer : undefined],
      ['status =', filters.status === undefined ? undefined : statusName(filters.status)],
    ],
  });
});
