import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { ListDeliveriesRequestSchema } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { MikroORM, ormOptions } from '@corridor/db';
import { DEFAULT_PAGE_SIZE, encodeCursor, TOTAL_CAP } from '@corridor/pagination';
import { itReadsOnePage, listPlanDatabase, query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { notificationDatabase } from '../database.js';
import { WEBHOOK_EVENT_TYPES } from '../events/webhook-events.js';
import { listDeliveries } from './delivery-api.js';
import { DELIVERY_STATUS_WORDS, EVENT_WORDS } from './delivery-proto.js';

// Issue 17: a page of the delivery log costs the same with 60,000 deliveries as with 100, on the
// first page and 30,000 rows deep. Each filter combination GET /webhook/deliveries accepts is
// explained as listDeliveries itself sends it (recorded through MikroORM's onQuery hook), against
// real PostgreSQL; a numbered page's count stops at TOTAL_CAP + 1 rows (decision 0018).

const NOW = new Date('2026-11-24T12:00:00.000Z');
const BIG_LOG = 60_000;
/** Rare on purpose, as failures and reversals are: 1% failed, about 0.7% payout.reversed. */
const RARE_EVENT = 'payout.reversed';
const COMMON_EVENTS = WEBHOOK_EVENT_TYPES.filter((type) => type !== RARE_EVENT);
const secondsBefore = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
const FROM = secondsBefore(30_000);
const TO = secondsBefore(10_000);

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
  const bigBusiness = randomUUID();
  const plan = listPlanDatabase({
    name: 'delivery_list_plan',
    table: 'webhook_delivery',
    pageSize: DEFAULT_PAGE_SIZE,
    open: (url, onQuery) =>
      MikroORM.init({ ...ormOptions({ ...notificationDatabase(url), logger: () => undefined }), onQuery }),
    seed: async (url) => {
      await insertDeliveries(url, bigBusiness, randomUUID(), BIG_LOG);
      await insertDeliveries(url, randomUUID(), randomUUID(), 100);
    },
  });

  /** Runs listDeliveries as the gRPC handler does: a cursor page, or the numbered page `number`. */
  const list = (filters: Filters, page: { cursor?: string; number?: number }) =>
    plan.list((orm) =>
      listDeliveries(
        orm.em.fork(),
        bigBusiness,
        create(ListDeliveriesRequestSchema, {
          status: filters.status === undefined ? undefined : DELIVERY_STATUS_WORDS.toProto(filters.status),
          eventType: filters.eventType === undefined ? undefined : EVENT_WORDS.toProto(filters.eventType),
          createdFrom: filters.from && timestampFromDate(filters.from),
          createdTo: filters.to && timestampFromDate(filters.to),
          page: page.number ?? 0,
          cursorPage: { cursor: page.cursor ?? '' },
        }),
      ),
    );

  itReadsOnePage(plan, {
    firstPages: COMBINATIONS.map((filters) => [describeFilters(filters), filters, DEFAULT_PAGE_SIZE]),
    deepPages: [
      ['no filter', {}, 30_000],
      ['status=failed', { status: 'failed' }, 300],
      [`event=${RARE_EVENT}`, { eventType: RARE_EVENT }, 200],
      ['from & to', { from: FROM, to: TO }, 10_000],
    ],
    async page(filters, cursor) {
      const { result, statement } = await list(filters, { cursor: cursor && encodeCursor(cursor) });
      const createdAt = result.deliveries.map((delivery) =>
        delivery.createdAt ? timestampDate(delivery.createdAt) : new Date(Number.NaN),
      );
      for (const [index, delivery] of result.deliveries.entries()) {
        if (filters.status) expect(DELIVERY_STATUS_WORDS.toWord(delivery.status, 'status')).toBe(filters.status);
        if (filters.eventType) expect(EVENT_WORDS.toWord(delivery.eventType, 'event')).toBe(filters.eventType);
        if (filters.from) expect(createdAt[index]?.getTime()).toBeGreaterThanOrEqual(filters.from.getTime());
        if (filters.to) expect(createdAt[index]?.getTime()).toBeLessThan(filters.to.getTime());
      }
      return { createdAt, nextCursor: result.cursorPage?.nextCursor, statement };
    },
    tests: (filters) => [
      ['business_id =', bigBusiness],
      ['status =', filters.status],
      ['event_type =', filters.eventType],
      ['created_at >=', filters.from],
      ['created_at <', filters.to],
    ],
  });

  it('numbered page 100 counts no further than its cap, says the total is a lower bound, reads its 15 rows', async () => {
    const { result, statement, count } = await list({}, { number: 100 });
    expect(result.deliveries).toHaveLength(DEFAULT_PAGE_SIZE);
    expect(result.page).toMatchObject({ currentPage: 100, total: BigInt(TOTAL_CAP), totalCapped: true, lastPage: 100 });
    if (!count) throw new Error('a numbered page sent no count');
    // Any plan will do that stops at the cap: the rows read, kept or filtered out, are what it costs.
    const counted = await plan.readsOf(count);
    expect(counted.rowsRead).toBeGreaterThan(TOTAL_CAP);
    expect(counted.rowsRead).toBeLessThanOrEqual(TOTAL_CAP + 1);
    // It skips 1,485 ids through the list's index and reads whole only the 15 it answers.
    expect(await plan.problemsOf(statement, 102 * DEFAULT_PAGE_SIZE)).toEqual([]);
  });

  it('a numbered page past 100 is refused naming page', async () => {
    await expect(list({}, { number: 101 })).rejects.toMatchObject({
      message: expect.stringMatching(/page must be at most 100/),
    });
  });
});
