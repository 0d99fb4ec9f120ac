import { createTestDatabase, query, type TestDatabase } from '@corridor/testing';
import { MikroORM } from '@mikro-orm/postgresql';
import { outboxSchemaSql, processedEventSchemaSql } from './outbox/schema.js';
import {
  outboxRetentionDownSql,
  outboxRetentionSql,
  processedEventRetentionDownSql,
  processedEventRetentionSql,
  pruneProcessedEvents,
} from './retention.js';

const DAY_MS = 24 * 3_600_000;
const now = new Date('2026-11-24T12:00:00.000Z');

describe('processed_event retention against real PostgreSQL', () => {
  let db: TestDatabase;
  let orm: MikroORM;

  beforeAll(async () => {
    db = await createTestDatabase('processed_event_retention');
    for (const statement of [...outboxSchemaSql, ...processedEventSchemaSql]) await query(db.url, statement);
    for (const statement of [...outboxRetentionSql, ...processedEventRetentionSql]) await query(db.url, statement);
    orm = await MikroORM.init({
      clientUrl: db.url,
      entities: [],
      discovery: { warnWhenNoEntities: false },
      allowGlobalContext: false,
    });
  });

  afterAll(async () => {
    await orm.close();
    await db.drop();
  });

  beforeEach(() => query(db.url, 'truncate processed_event'));

  /** `count` rows of `consumer`, processed `ageDays` before the test's now. */
  const processed = (consumer: string, ageDays: number, count = 1) =>
    query(
      db.url,
      `insert into processed_event (consumer, event_id, processed_at)
       select $1, gen_random_uuid(), $2::timestamptz from generate_series(1, $3)`,
      [consumer, new Date(now.getTime() - ageDays * DAY_MS), count],
    );
  const kept = async () =>
    query<{ consumer: string; n: number }>(
      db.url,
      'select consumer, count(*)::int as n from processed_event group by consumer order by consumer',
    );

  it('deletes events processed before the retention, of every consumer group, and keeps those inside it', async () => {
    await processed('notification', 15);
    await processed('payments', 20);
    await processed('notification', 13);
    const deleted = await pruneProcessedEvents(orm.em.fork(), { now, retentionMs: 14 * DAY_MS });
    expect(deleted).toBe(2);
    expect(await kept()).toEqual([{ consumer: 'notification', n: 1 }]);
  });

  it('removes a backlog many batches long, leaving the recent rows', async () => {
    await processed('notification', 30, 2_345);
    await processed('notification', 1, 7);
    const deleted = await pruneProcessedEvents(orm.em.fork(), { now, retentionMs: 14 * DAY_MS, batchSize: 500 });
    expect(deleted).toBe(2_345);
    expect(await kept()).toEqual([{ consumer: 'notification', n: 7 }]);
  });

  it('stops between batches once the service is stopping', async () => {
    await processed('notification', 30, 1_000);
    const stopping = new AbortController();
    stopping.abort();
    const deleted = await pruneProcessedEvents(orm.em.fork(), {
      now,
      retentionMs: 14 * DAY_MS,
      batchSize: 100,
      signal: stopping.signal,
    });
    expect(deleted).toBe(100);
    expect(await kept()).toEqual([{ consumer: 'notification', n: 900 }]);
  });

  it('finds the oldest batch through processed_at_idx at scale, not by reading the whole table', async () => {
    await processed('notification', 1, 200_000);
    await processed('notification', 30, 10);
    await query(db.url, 'analyze processed_event');
    const plan = await query<{ 'QUERY PLAN': string }>(
      db.url,
      `explain select consumer, event_id from processed_event where processed_at < $1 order by processed_at limit 1000`,
      [new Date(now.getTime() - 14 * DAY_MS)],
    );
    const text = plan.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toContain('processed_event_processed_at_idx');
    expect(text).not.toMatch(/Seq Scan/);
  });

  it('tunes autovacuum on both tables, and the down migration puts the defaults back', async () => {
    const options = async () =>
      query<{ relname: string; reloptions: string[] | null }>(
        db.url,
        `select relname, reloptions from pg_class where relname in ('outbox', 'processed_event') order by relname`,
      );
    for (const row of await options()) {
      expect(row.reloptions).toEqual(
        expect.arrayContaining(['autovacuum_vacuum_scale_factor=0.01', 'autovacuum_analyze_scale_factor=0.02']),
      );
    }
    for (const statement of [...outboxRetentionDownSql, ...processedEventRetentionDownSql]) {
      await query(db.url, statement);
    }
    expect(await options()).toEqual([
      { relname: 'outbox', reloptions: null },
      { relname: 'processed_event', reloptions: null },
    ]);
    const index = await query(db.url, `select 1 from pg_indexes where indexname = 'processed_event_processed_at_idx'`);
    expect(index).toHaveLength(0);
    // Reapplied, so the test leaves the schema as a migrated service has it.
    for (const statement of [...outboxRetentionSql, ...processedEventRetentionSql]) await query(db.url, statement);
  });
});
