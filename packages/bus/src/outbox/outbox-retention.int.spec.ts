import { createLogger } from '@corridor/logging';
import { createTestDatabase, eventually, query, testKafka, type TestDatabase } from '@corridor/testing';
import type { Producer } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { createIdempotentProducer } from '../producer.js';
import { OutboxRelay } from './relay.js';
import { outboxSchemaSql } from './schema.js';

const logger = createLogger('test', { level: 'silent' });
const HOUR_MS = 3_600_000;

describe('outbox retention against real PostgreSQL', () => {
  let db: TestDatabase;
  let producer: Producer;

  beforeAll(async () => {
    db = await createTestDatabase('outbox_retention');
    for (const statement of outboxSchemaSql) await query(db.url, statement);
    producer = createIdempotentProducer(testKafka());
    await producer.connect();
  });

  afterAll(async () => {
    await producer.disconnect();
    await db.drop();
  });

  beforeEach(() => query(db.url, 'delete from outbox'));

  /** A row with its ages set by the database's clock, as the relay's own writes are. */
  async function insertRow(label: string, ageHours: { created: number; published: number | null }): Promise<void> {
    await query(
      db.url,
      `insert into outbox (event_id, topic, message_key, payload, created_at, published_at)
       values ($1, 'test.retention', $2, '\\x00', now() - make_interval(hours => $3),
               case when $4::int is null then null else now() - make_interval(hours => $4::int) end)`,
      [randomUUID(), label, ageHours.created, ageHours.published],
    );
  }
  const remaining = async () =>
    (await query<{ message_key: string }>(db.url, 'select message_key from outbox order by message_key')).map(
      (row) => row.message_key,
    );

  it('deletes a published row past retention, keeps one inside it, and keeps an unpublished one whatever its age', async () => {
    await insertRow('published-73h-ago', { created: 74, published: 73 });
    await insertRow('published-71h-ago', { created: 72, published: 71 });
    await insertRow('never-published-30-days', { created: 720, published: null });
    const relay = new OutboxRelay({ databaseUrl: db.url, producer, logger, retentionMs: 72 * HOUR_MS });
    try {
      expect(await relay.deleteExpiredBatch()).toBe(1);
      expect(await relay.deleteExpiredBatch()).toBe(0);
    } finally {
      await relay.stop();
    }
    expect(await remaining()).toEqual(['never-published-30-days', 'published-71h-ago']);
  });

  it('honours a configured retention: 1 h deletes what the 72 h default would keep', async () => {
    await insertRow('published-2h-ago', { created: 3, published: 2 });
    await insertRow('published-just-now', { created: 0, published: 0 });
    const relay = new OutboxRelay({ databaseUrl: db.url, producer, logger, retentionMs: HOUR_MS });
    try {
      expect(await relay.deleteExpiredBatch()).toBe(1);
    } finally {
      await relay.stop();
    }
    expect(await remaining()).toEqual(['published-just-now']);
  });

  it('deletes a backlog larger than one batch a bounded batch per statement, and the running relay clears all of it', async () => {
    for (let i = 0; i < 25; i += 1)
      await insertRow(`old-${String(i).padStart(2, '0')}`, { created: 100, published: 99 });
    await insertRow('recent', { created: 1, published: 1 });
    const options = { databaseUrl: db.url, producer, logger, retentionMs: 72 * HOUR_MS, retentionBatchSize: 4 };

    const probe = new OutboxRelay(options);
    try {
      expect(await probe.deleteExpiredBatch()).toBe(4); // never more than one batch in one statement
    } finally {
      await probe.stop();
    }
    expect(await remaining()).toHaveLength(22);

    const relay = new OutboxRelay({ ...options, pollIntervalMs: 60_000 });
    await relay.start();
    try {
      // Twenty-one rows left to go in batches of four: the loop keeps going without waiting for its poll.
      await eventually(async () => expect(await remaining()).toEqual(['recent']), 10_000);
    } finally {
      await relay.stop();
    }
  });
});
