import { createLogger } from '@corridor/logging';
import {
  createTestDatabase,
  createTopics,
  eventually,
  EventCollector,
  query,
  testKafka,
  uniqueSuffix,
  type TestDatabase,
} from '@corridor/testing';
import { MikroORM } from '@mikro-orm/postgresql';
import type { Producer } from 'kafkajs';
import pg from 'pg';
import { Environment, newEvent } from '@corridor/contracts/events';
import { createIdempotentProducer } from '../producer.js';
import { OutboxMessage, recordEvent } from './record.js';
import { OutboxRelay } from './relay.js';
import { outboxSchemaSql } from './schema.js';

const logger = createLogger('test', { level: 'silent' });

function businessCreated(businessId: string) {
  return newEvent({
    businessId,
    environment: Environment.SANDBOX,
    payload: { case: 'businessCreated', value: { business: { id: businessId, name: 'Acme' } } },
  });
}

describe('transactional outbox against real PostgreSQL and Kafka', () => {
  let db: TestDatabase;
  let orm: MikroORM;
  let producer: Producer;
  const topic = `test.outbox.${uniqueSuffix()}`;
  let collector: EventCollector;

  beforeAll(async () => {
    db = await createTestDatabase('outbox');
    for (const statement of outboxSchemaSql) await query(db.url, statement);
    orm = await MikroORM.init({ clientUrl: db.url, entities: [OutboxMessage], allowGlobalContext: false });
    await createTopics([topic]);
    producer = createIdempotentProducer(testKafka());
    await producer.connect();
    collector = await new EventCollector([topic]).start();
  });

  afterAll(async () => {
    await collector.stop();
    await producer.disconnect();
    await orm.close();
    await db.drop();
  });

  const record = (ids: string[]) =>
    orm.em.fork().transactional(async (em) => {
      for (const id of ids) recordEvent(em, { topic, key: id, event: businessCreated(id) });
    });

  it('writes nothing when the transaction rolls back', async () => {
    const before = await query<{ n: string }>(db.url, 'select count(*) as n from outbox');
    await expect(
      orm.em.fork().transactional(async (em) => {
        recordEvent(em, { topic, key: 'k', event: businessCreated('rolled-back') });
        await em.flush();
        throw new Error('use case failed after writing');
      }),
    ).rejects.toThrow('use case failed');
    const after = await query<{ n: string }>(db.url, 'select count(*) as n from outbox');
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('publishes committed rows with the aggregate id as key and marks them published', async () => {
    await record(['b-1', 'b-2', 'b-3']);
    const relay = new OutboxRelay({ databaseUrl: db.url, producer, logger, batchSize: 2 });
    expect(await relay.publishBatch()).toBe(2);
    expect(await relay.publishBatch()).toBe(1);
    expect(await relay.publishBatch()).toBe(0);
    await relay.stop();

    const received = await collector.waitFor((e) => ['b-1', 'b-2', 'b-3'].includes(e.event.businessId), 3);
    expect(received.map((e) => e.key).sort()).toEqual(['b-1', 'b-2', 'b-3']);
    expect(received[0]?.event.type).toBe('business.created');
    expect(received[0]?.headers['event-id']).toBe(received[0]?.event.id);
    const unpublished = await query(db.url, 'select id from outbox where published_at is null');
    expect(unpublished).toHaveLength(0);
  });

  it('wakes on NOTIFY: a row committed while the relay runs is published without waiting for the poll', async () => {
    const relay = new OutboxRelay({ databaseUrl: db.url, producer, logger, pollIntervalMs: 60_000 });
    await relay.start();
    try {
      const started = Date.now();
      await record(['notified']);
      await collector.waitFor((e) => e.event.businessId === 'notified', 1, 10_000);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await relay.stop();
    }
  });

  it('two relays racing over the same rows publish each row once', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => `race-${i}`);
    await record(ids);
    const relays = [1, 2].map(
      () => new OutboxRelay({ databaseUrl: db.url, producer, logger, batchSize: 7, pollIntervalMs: 50 }),
    );
    await Promise.all(relays.map((r) => r.start()));
    try {
      await collector.waitFor((e) => e.event.businessId.startsWith('race-'), 60);
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // would-be duplicates arrive by now
      const seen = collector.received
        .filter((e) => e.event.businessId.startsWith('race-'))
        .map((e) => e.event.businessId);
      expect(seen).toHaveLength(60);
      expect(new Set(seen).size).toBe(60);
    } finally {
      await Promise.all(relays.map((r) => r.stop()));
    }
  });

  it('keeps rows unpublished while Kafka refuses them and publishes them once it accepts', async () => {
    const missingTopic = `test.outbox.missing.${uniqueSuffix()}`;
    await orm.em
      .fork()
      .transactional(async (em) => recordEvent(em, { topic: missingTopic, key: 'k', event: businessCreated('late') }));
    const relay = new OutboxRelay({ databaseUrl: db.url, producer, logger });
    await expect(relay.publishBatch()).rejects.toThrow();
    const pending = await query(db.url, 'select id from outbox where published_at is null and topic = $1', [
      missingTopic,
    ]);
    expect(pending).toHaveLength(1);

    await createTopics([missingTopic]);
    const late = await new EventCollector([missingTopic]).start();
    try {
      expect(await relay.publishBatch()).toBe(1);
      await late.waitFor((e) => e.event.businessId === 'late');
    } finally {
      await late.stop();
      await relay.stop();
    }
  });

  it('lives through its connection being cut mid-batch, as PostgreSQL restarting does, and publishes once it can', async () => {
    await record(['before-cut']);
    // Holding the table makes the relay's batch wait with its pooled connection checked out.
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    const relay = new OutboxRelay({ databaseUrl: db.url, producer, logger, pollIntervalMs: 50 });
    try {
      await holder.query('begin');
      await holder.query('lock table outbox in access exclusive mode');
      await relay.start();
      await eventually(async () => {
        const cut = await query<{ cut: boolean }>(
          db.url,
          `select pg_terminate_backend(pid) as cut from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and query like '%from outbox%'`,
        );
        if (cut.length === 0) throw new Error('the relay is not waiting on the outbox yet');
      });
      await holder.query('commit');
      await record(['after-cut']);
      await collector.waitFor((e) => ['before-cut', 'after-cut'].includes(e.event.businessId), 2, 10_000);
    } finally {
      await holder.end();
      await relay.stop();
    }
  });
});
