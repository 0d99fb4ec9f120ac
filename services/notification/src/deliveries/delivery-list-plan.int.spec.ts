import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { ListDeliveriesRequestSchema } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { MikroORM, ormOptions } from '@corridor/db';
import { createTestDatabase, isIndexScan, planOf, query, readsOf, type TestDatabase } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { notificationDatabase } from '../database.js';
import { WEBHOOK_EVENT_TYPES } from '../events/webhook-events.js';
import { DELIVERIES_PER_PAGE, listDeliveries } from './delivery-api.js';

// Issue 17: the delivery log's page 1 costs the same with 60,000 deliveries as with 100. Each filter
// combination GET /webhook/deliveries accepts is explained as listDeliveries itself sends it
// (recorded through MikroORM's onQuery hook), against real PostgreSQL.

const NOW = new Date('2026-11-24T12:00:00.000Z');
const BIG_LOG = 60_000;
/** A page and a few more: a plan that filters the page out of the whole log reads thousands. */
const MAX_ROWS_READ = 4 * DELIVERIES_PER_PAGE;
/** Rare on purpose, as failures and reversals are: 1% failed, about 0.7% payout.reversed. */
const RARE_EVENT = 'payout.reversed';
const COMMON_EVENTS = WEBHOOK_EVENT_TYPES.filter((type) => type !== RARE_EVENT);
const secondsBefore = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
const FROM = secondsBefore(30_000);
const TO = secondsBefore(10_000);

interface Statement {
  sql: string;
  params: unknown[];
}

interface Filters {
  status?: string;
  eventType?: string;
  from?: Date;
  to?: Date;
}

/** Every combination the route accepts: status, event, and the date range open, closed or half-open. */
const COMBINATIONS: Filters[] = [undefined, 'failed'].flatMap((status) =>
  [undefined, RARE_EVENT].flatMap((eventType) =>
    [{}, { from: FROM }, { to: TO }, { from: FROM, to: TO }].map((range) => ({ status, eventType, ...range })),
  ),
);

const describeFilters = (filters: Filters) =>
  [
    filters.status && `status=${filters.status}`,
    filters.eventType && `event=${filters.eventType}`,
    filters.from && 'from',
    filters.to && 'to',
  ]
    .filter(Boolean)
    .join(' & ') || 'no filter';

/** `count` deliveries of one business, delivery n created n seconds before NOW. */
async function insertDeliveries(url: string, businessId: string, endpointId: string, count: number): Promise<void> {
  await query(
    url,
    `insert into webhook_endpoint (id, business_id, collection_url, payout_url, signing_secret_sealed,
       signing_secret_last4, created_at, updated_at)
     values ($1, $2, 'https://example.com/c', 'https://example.com/p', '\\x00', 'abcd', $3, $3)`,
    [endpointId, businessId, NOW],
  );
  await query(
    url,
    `insert into webhook_delivery (id, business_id, endpoint_id, event_id, event_type, destination, body, status,
       attempt_count, event_occurred_at, created_at, updated_at)
     select gen_random_uuid(), $1, $2, gen_random_uuid(),
       case when n % 300 = 0 or n % 301 = 0 then $4 else ($5::text[])[1 + n % cardinality($5::text[])] end,
       'collection_url', '{}',
       case when n <= 40 then 'pending' when n % 100 = 0 then 'failed' else 'succeeded' end,
       1, created, created, created
     from generate_series(1, $3::int) as n,
       lateral (select $6::timestamptz - make_interval(secs => n) as created) as at`,
    [businessId, endpointId, count, RARE_EVENT, COMMON_EVENTS, NOW],
  );
}

describe('notification: the delivery log reads one page, not the whole log (issue 17, real PostgreSQL)', () => {
  let db: TestDatabase | undefined;
  let orm: MikroORM | undefined;
  const bigBusiness = randomUUID();
  const recorded: Statement[] = [];
  let recording = false;

  const open = () => {
    if (!orm) throw new Error('the database is not open');
    return orm;
  };

  /** Runs listDeliveries as the gRPC handler does and returns its answer and the list query it sent. */
  async function listPageOne(filters: Filters) {
    const request = create(ListDeliveriesRequestSchema, {
      status: filters.status,
      eventType: filters.eventType,
      createdFrom: filters.from && timestampFromDate(filters.from),
      createdTo: filters.to && timestampFromDate(filters.to),
      page: 1,
    });
    recorded.length = 0;
    recording = true;
    try {
      const answer = await listDeliveries(open().em.fork(), bigBusiness, request);
      const list = recorded.find(({ sql }) => /from webhook_delivery .*order by/s.test(sql));
      if (!list) throw new Error(`listDeliveries sent no list query: ${JSON.stringify(recorded)}`);
      return { answer, list };
    } finally {
      recording = false;
    }
  }

  async function explainAnalyze({ sql, params }: Statement) {
    const rows = await open().em.fork().getConnection().execute(`explain (analyze, format json) ${sql}`, params);
    return readsOf(planOf(rows), 'webhook_delivery');
  }

  beforeAll(async () => {
    db = await createTestDatabase('delivery_list_plan');
    orm = await MikroORM.init({
      ...ormOptions({ ...notificationDatabase(db.url), logger: () => undefined }),
      onQuery: (sql, params) => {
        if (recording) recorded.push({ sql, params: [...params] });
        return sql;
      },
    });
    await orm.migrator.up();
    await insertDeliveries(db.url, bigBusiness, randomUUID(), BIG_LOG);
    await insertDeliveries(db.url, randomUUID(), randomUUID(), 100);
    await query(db.url, 'vacuum analyze webhook_delivery');
  });
  afterAll(async () => {
    await orm?.close();
    await db?.drop();
  });

  it.each(COMBINATIONS.map((filters) => [describeFilters(filters), filters] as const))(
    '%s: page 1 is a full page of matches, read through an index, never a scan of the log',
    async (_name, filters) => {
      const { answer, list } = await listPageOne(filters);
      // A full page of real matches: a plan that found nothing would read nothing and prove nothing.
      expect(answer.deliveries).toHaveLength(DELIVERIES_PER_PAGE);
      for (const delivery of answer.deliveries) {
        if (filters.status) expect(delivery.status).toBe(filters.status);
        if (filters.eventType) expect(delivery.eventType).toBe(filters.eventType);
        const createdAt = delivery.createdAt ? timestampDate(delivery.createdAt) : undefined;
        if (filters.from) expect(createdAt?.getTime()).toBeGreaterThanOrEqual(filters.from.getTime());
        if (filters.to) expect(createdAt?.getTime()).toBeLessThan(filters.to.getTime());
      }

      const reads = await explainAnalyze(list);
      expect(reads.scans).not.toHaveLength(0);
      expect(reads.scans.filter((scan) => !isIndexScan(scan))).toEqual([]);
      expect(reads.rowsRead).toBeLessThanOrEqual(MAX_ROWS_READ);
    },
  );
});
