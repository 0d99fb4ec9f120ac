import { DeadLetterStatus, RetryOutcome } from '@corridor/contracts/corridor/bus/v1/dead_letter_service_pb';
import { DomainError, Status } from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import {
  createTestDatabase,
  createTopics,
  eventually,
  query,
  testKafka,
  uniqueSuffix,
  type TestDatabase,
} from '@corridor/testing';
import type { EntityManager } from '@mikro-orm/core';
import { MikroORM } from '@mikro-orm/postgresql';
import { metrics } from '@opentelemetry/api';
import { DataPointType, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { Producer } from 'kafkajs';
import type { EventHandler } from '../consumer/apply-events.js';
import { EventConsumer } from '../consumer/consumer.js';
import { encodeEvent, Environment, newEvent, type Event } from '@corridor/contracts/events';
import { processedEventSchemaSql } from '../outbox/schema.js';
import { getDeadLetter, listDeadLetters } from './read.js';
import { recordDeadLetters, type UndecodableMessage } from './record.js';
import { pruneResolvedDeadLetters } from './retention.js';
import { retryDeadLetter } from './retry.js';
import { deadLetterSchemaSql } from './schema.js';

const logger = createLogger('test', { level: 'silent' });
const DAY_MS = 24 * 3_600_000;

/** The SDK's own pipeline, read on demand: what a Prometheus scrape of the service would see. */
class CollectingReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

/** A value no build of Corridor can read as an event (protobuf: wire type 4 cannot be skipped). */
const GARBAGE = Buffer.from('this is not an event');

/** The DomainError a call fails with. */
async function failure(call: Promise<unknown>): Promise<DomainError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

describe('dead letters against real PostgreSQL and Kafka', () => {
  let db: TestDatabase;
  let orm: MikroORM;
  let producer: Producer;
  const reader = new CollectingReader();
  const topic = `test.dead-letters.${uniqueSuffix()}`;
  const flakyTopic = `test.dead-letters.flaky.${uniqueSuffix()}`;
  const refusingTopic = `test.dead-letters.refusing.${uniqueSuffix()}`;

  beforeAll(async () => {
    // Registered before any consumer is made, as a service's instrument.ts does.
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    db = await createTestDatabase('dead_letters');
    for (const statement of [...processedEventSchemaSql, ...deadLetterSchemaSql]) await query(db.url, statement);
    await query(db.url, 'create table projection (event_id uuid primary key, business_id text not null)');
    orm = await MikroORM.init({
      clientUrl: db.url,
      entities: [],
      discovery: { warnWhenNoEntities: false },
      allowGlobalContext: false,
    });
    await createTopics([topic, flakyTopic, refusingTopic], 1);
    producer = testKafka().producer();
    await producer.connect();
  });

  afterAll(async () => {
    await producer.disconnect();
    await orm.close();
    await db.drop();
    metrics.disable();
  });

  beforeEach(() => query(db.url, 'truncate dead_letter, processed_event, projection'));

  const event = (businessId: string) =>
    newEvent({
      businessId,
      environment: Environment.SANDBOX,
      payload: { case: 'businessCreated', value: { business: { id: businessId } } },
    });

  /** The projection handler, counting its runs per business. */
  function projection() {
    const runs: string[] = [];
    const handler: EventHandler = async (e, em) => {
      runs.push(e.businessId);
      await em
        .getConnection()
        .execute(
          'insert into projection (event_id, business_id) values (?, ?)',
          [e.id, e.businessId],
          'run',
          em.getTransactionContext(),
        );
    };
    return { runs, handler };
  }

  const projected = async () =>
    (await query<{ business_id: string }>(db.url, 'select business_id from projection order by business_id')).map(
      (row) => row.business_id,
    );

  const committedOffset = async (groupId: string, onTopic = topic) => {
    const admin = testKafka().admin();
    await admin.connect();
    try {
      const [offsets] = await admin.fetchOffsets({ groupId, topics: [onTopic] });
      return offsets?.partitions[0]?.offset;
    } finally {
      await admin.disconnect();
    }
  };

  async function deadLettersCounted(groupId: string, onTopic = topic): Promise<number> {
    const { resourceMetrics } = await reader.collect();
    let count = 0;
    for (const scope of resourceMetrics.scopeMetrics) {
      if (scope.scope.name !== '@corridor/bus') continue;
      for (const metric of scope.metrics) {
        if (metric.descriptor.name !== 'corridor_consumer_dead_letters' || metric.dataPointType !== DataPointType.SUM)
          continue;
        for (const point of metric.dataPoints) {
          if (point.attributes.consumer === groupId && point.attributes.topic === onTopic) count += point.value;
        }
      }
    }
    return count;
  }

  interface StoredRow {
    id: string;
    partition: number;
    message_offset: string;
    message_key: Buffer | null;
    message_value: Buffer | null;
    headers: Record<string, string[]>;
    error: string;
    received_at: Date;
    retry_count: number;
    resolved_at: Date | null;
  }
  const rowsOf = (groupId: string, onTopic = topic) =>
    query<StoredRow>(
      db.url,
      `select id, partition, message_offset, message_key, message_value, headers, error, received_at, retry_count,
         resolved_at
       from dead_letter where consumer = $1 and topic = $2 order by message_offset`,
      [groupId, onTopic],
    );

  it('records undecodable messages with their exact bytes, applies the valid one, commits past all, counts them, and a redelivery adds no row', async () => {
    const groupId = `test-group-${uniqueSuffix()}`;
    const { runs, handler } = projection();
    const receivedAt = new Date('2026-11-26T09:00:00.123Z');
    const make = () =>
      new EventConsumer({
        kafka: testKafka(),
        groupId,
        topics: [topic],
        em: orm.em,
        logger,
        handler,
        now: () => receivedAt,
      });
    const valid = event('valid');
    await producer.send({
      topic,
      messages: [
        { key: 'garbage-key', value: GARBAGE, headers: { 'x-origin': 'test', 'x-raw': Buffer.from([0, 255]) } },
        { key: valid.businessId, value: Buffer.from(encodeEvent(valid)) },
        { key: null, value: null },
      ],
    });

    const first = make();
    await first.start();
    try {
      await eventually(async () => expect(await committedOffset(groupId)).toBe('3'), 30_000);
    } finally {
      await first.stop();
    }
    expect(await projected()).toEqual(['valid']);
    const rows = await rowsOf(groupId);
    expect(rows).toHaveLength(2);
    const [garbage, empty] = rows;
    expect(garbage).toMatchObject({
      partition: 0,
      message_offset: '0',
      headers: { 'x-origin': [Buffer.from('test').toString('base64')], 'x-raw': ['AP8='] },
      received_at: receivedAt,
      retry_count: 0,
      resolved_at: null,
    });
    expect(garbage?.message_value?.equals(GARBAGE)).toBe(true);
    expect(garbage?.message_key?.toString()).toBe('garbage-key');
    expect(garbage?.error).toMatch(/^not a corridor\.events\.v1\.Event: /);
    expect(empty).toMatchObject({
      message_offset: '2',
      message_key: null,
      message_value: null,
      error: 'empty message (no value)',
    });
    expect(await deadLettersCounted(groupId)).toBe(2);

    // The same group reads the partition again from the start (offsets reset while it is stopped).
    const admin = testKafka().admin();
    await admin.connect();
    try {
      await admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '0' }] });
    } finally {
      await admin.disconnect();
    }
    expect(await committedOffset(groupId)).toBe('0');
    const again = make();
    await again.start();
    try {
      await eventually(async () => expect(await committedOffset(groupId)).toBe('3'), 30_000);
    } finally {
      await again.stop();
    }
    expect((await rowsOf(groupId)).map((row) => row.id)).toEqual(rows.map((row) => row.id));
    expect(await deadLettersCounted(groupId)).toBe(2);
    expect(runs).toEqual(['valid']);
  });

  it('a chunk whose handler fails keeps its dead letter only with the chunk that commits, and counts it once', async () => {
    const groupId = `test-group-${uniqueSuffix()}`;
    let failures = 0;
    const { handler: project } = projection();
    const consumer = new EventConsumer({
      kafka: testKafka(),
      groupId,
      topics: [flakyTopic],
      em: orm.em,
      logger,
      async handler(e, em, meta) {
        await project(e, em, meta);
        if (failures++ === 0) throw new Error('handler failed after writing');
      },
    });
    await producer.send({
      topic: flakyTopic,
      messages: [{ value: GARBAGE }, { value: Buffer.from(encodeEvent(event('flaky'))) }],
    });
    await consumer.start();
    try {
      await eventually(async () => expect(await projected()).toEqual(['flaky']), 30_000);
    } finally {
      await consumer.stop();
    }
    // The first try rolled back with its dead letter; the second committed both, and only then counted.
    expect(failures).toBe(2);
    const rows = await query(db.url, 'select 1 from dead_letter where consumer = $1 and topic = $2', [
      groupId,
      flakyTopic,
    ]);
    expect(rows).toHaveLength(1);
    expect(await deadLettersCounted(groupId, flakyTopic)).toBe(1);
  });

  it('never commits an offset past a message whose dead letter could not be stored', async () => {
    const groupId = `test-group-${uniqueSuffix()}`;
    const { runs, handler } = projection();
    // The database refuses this group's dead letters for a while; a sequence (not rolled back) counts the tries.
    await query(db.url, 'create sequence refused_dead_letters');
    await query(
      db.url,
      `create function refuse_dead_letter() returns trigger language plpgsql as $$
         begin
           if new.consumer = '${groupId}' then
             perform nextval('refused_dead_letters');
             raise exception 'dead letters refused for the test';
           end if;
           return new;
         end $$`,
    );
    await query(
      db.url,
      'create trigger refuse_dead_letter before insert on dead_letter for each row execute function refuse_dead_letter()',
    );
    const consumer = new EventConsumer({
      kafka: testKafka(),
      groupId,
      topics: [refusingTopic],
      em: orm.em,
      logger,
      handler,
    });
    await producer.send({
      topic: refusingTopic,
      messages: [{ value: Buffer.from(encodeEvent(event('beside-it'))) }, { value: GARBAGE }],
    });
    await consumer.start();
    try {
      await eventually(async () => {
        const [tries] = await query<{ n: string }>(db.url, 'select last_value as n from refused_dead_letters');
        expect(Number(tries?.n)).toBeGreaterThanOrEqual(2);
      }, 30_000);
      // Refused twice: nothing of the chunk is kept, and the group's offset has not moved past it.
      expect(['-1', '0', undefined]).toContain(await committedOffset(groupId, refusingTopic));
      expect(await rowsOf(groupId, refusingTopic)).toEqual([]);
      expect(await projected()).toEqual([]);

      await query(db.url, 'drop trigger refuse_dead_letter on dead_letter');
      await eventually(async () => expect(await committedOffset(groupId, refusingTopic)).toBe('2'), 60_000);
      expect(await rowsOf(groupId, refusingTopic)).toHaveLength(1);
      expect(await projected()).toEqual(['beside-it']);
      expect(runs).toEqual(['beside-it']);
    } finally {
      await consumer.stop();
      await query(db.url, 'drop trigger if exists refuse_dead_letter on dead_letter');
      await query(db.url, 'drop function refuse_dead_letter');
      await query(db.url, 'drop sequence refused_dead_letters');
    }
  });

  /** A dead letter as the consumer records it, at a given offset, for retries and lists. */
  async function deadLetter(
    groupId: string,
    value: Buffer | null,
    {
      offset = '0',
      receivedAt = new Date(),
      headers,
    }: Partial<Pick<UndecodableMessage, 'offset' | 'headers'>> & {
      receivedAt?: Date;
    } = {},
  ): Promise<string> {
    const message: UndecodableMessage = {
      topic,
      partition: 0,
      offset,
      key: null,
      value,
      headers,
      error: 'what an older build said',
    };
    const [recorded] = await orm.em
      .fork()
      .transactional((em: EntityManager) => recordDeadLetters(em, groupId, [message], receivedAt));
    if (!recorded?.id) throw new Error('not recorded');
    return recorded.id;
  }

  const retrying = (groupId: string, handler: EventHandler, applied: Event[] = []) => ({
    groupId,
    handler,
    logger,
    now: () => new Date('2026-11-26T10:00:00.000Z'),
    onApplied: (e: Event) => void applied.push(e),
  });

  it('a retry of a dead letter that still does not decode records the attempt and fails FAILED_PRECONDITION naming why', async () => {
    const groupId = `test-group-${uniqueSuffix()}`;
    const { runs, handler } = projection();
    const id = await deadLetter(groupId, GARBAGE);

    const error = await failure(retryDeadLetter(orm.em, retrying(groupId, handler), id));
    expect(error.status).toBe(Status.FAILED_PRECONDITION);
    expect(error.reason).toBe('DEAD_LETTER_UNDECODABLE');
    expect(error.message).toMatch(
      new RegExp(`^dead letter ${id} still cannot be decoded: not a corridor\\.events\\.v1\\.Event: `),
    );
    await failure(retryDeadLetter(orm.em, retrying(groupId, handler), id));

    const stored = await getDeadLetter(orm.em.fork(), id);
    expect(stored).toMatchObject({
      status: DeadLetterStatus.UNRESOLVED,
      retryCount: 2,
      lastRetryError: expect.stringMatching(/^not a corridor\.events\.v1\.Event: /),
      error: 'what an older build said',
      eventId: '',
    });
    expect(stored.lastRetriedAt?.seconds).toBe(BigInt(Date.parse('2026-11-26T10:00:00.000Z') / 1000));
    expect(Buffer.from(stored.value ?? []).equals(GARBAGE)).toBe(true);
    expect(runs).toEqual([]);
  });

  it('a retry of a dead letter whose bytes now decode applies the event once through the handler and resolves it; a second retry applies nothing', async () => {
    const groupId = `test-group-${uniqueSuffix()}`;
    const { runs, handler } = projection();
    const readable = event('readable-now');
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const id = await deadLetter(groupId, Buffer.from(encodeEvent(readable)), {
      offset: '7',
      headers: { traceparent },
    });
    const applied: Event[] = [];

    const retried = await retryDeadLetter(orm.em, retrying(groupId, handler, applied), id);
    expect(retried.outcome).toBe(RetryOutcome.APPLIED);
    expect(retried.deadLetter).toMatchObject({
      id,
      status: DeadLetterStatus.RESOLVED,
      retryCount: 1,
      lastRetryError: '',
      eventId: readable.id,
      offset: 7n,
      headers: [{ name: 'traceparent', value: Buffer.from(traceparent) }],
    });
    expect(retried.deadLetter.resolvedAt).toBeDefined();
    expect(runs).toEqual(['readable-now']);
    expect(applied.map((e) => e.id)).toEqual([readable.id]);
    expect(await projected()).toEqual(['readable-now']);
    const processed = await query(db.url, 'select 1 from processed_event where consumer = $1 and event_id = $2', [
      groupId,
      readable.id,
    ]);
    expect(processed).toHaveLength(1);

    const again = await retryDeadLetter(orm.em, retrying(groupId, handler, applied), id);
    expect(again.outcome).toBe(RetryOutcome.ALREADY_RESOLVED);
    expect(again.deadLetter).toEqual(retried.deadLetter);
    expect(runs).toEqual(['readable-now']);
    expect(applied).toHaveLength(1);
  });

  it('two retries at once apply the event once; an event the consumer applied already resolves without the handler', async () => {
    const groupId = `test-group-${uniqueSuffix()}`;
    const { runs, handler } = projection();
    const racing = event('racing');
    const id = await deadLetter(groupId, Buffer.from(encodeEvent(racing)));
    const outcomes = await Promise.all([
      retryDeadLetter(orm.em, retrying(groupId, handler), id),
      retryDeadLetter(orm.em, retrying(groupId, handler), id),
    ]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual([RetryOutcome.APPLIED, RetryOutcome.ALREADY_RESOLVED]);
    expect(runs).toEqual(['racing']);

    const seen = event('seen');
    await query(db.url, 'insert into processed_event (consumer, event_id) values ($1, $2)', [groupId, seen.id]);
    const copy = await deadLetter(groupId, Buffer.from(encodeEvent(seen)), { offset: '1' });
    const retried = await retryDeadLetter(orm.em, retrying(groupId, handler), copy);
    expect(retried.outcome).toBe(RetryOutcome.ALREADY_APPLIED);
    expect(retried.deadLetter).toMatchObject({ status: DeadLetterStatus.RESOLVED, eventId: seen.id });
    expect(runs).toEqual(['racing']);
  });

  it('a retry whose handler fails rolls the event back, records the attempt and fails with the handler error; the next one applies it', async () => {
    const groupId = `test-group-${uniqueSuffix()}`;
    const { runs, handler } = projection();
    const later = event('later');
    const id = await deadLetter(groupId, Buffer.from(encodeEvent(later)));
    const failing: EventHandler = async (e, em, meta) => {
      await handler(e, em, meta);
      throw new Error('projection refused it');
    };
    await expect(retryDeadLetter(orm.em, retrying(groupId, failing), id)).rejects.toThrow('projection refused it');
    expect(await getDeadLetter(orm.em.fork(), id)).toMatchObject({
      status: DeadLetterStatus.UNRESOLVED,
      retryCount: 1,
      lastRetryError: 'decoded, but the handler failed: projection refused it',
    });
    expect(await projected()).toEqual([]);
    expect(await query(db.url, 'select 1 from processed_event where consumer = $1', [groupId])).toHaveLength(0);

    const retried = await retryDeadLetter(orm.em, retrying(groupId, handler), id);
    expect(retried.outcome).toBe(RetryOutcome.APPLIED);
    expect(retried.deadLetter).toMatchObject({ retryCount: 2, lastRetryError: '', status: DeadLetterStatus.RESOLVED });
    expect(await projected()).toEqual(['later']);
    expect(runs).toEqual(['later', 'later']);
  });

  it('answers NOT_FOUND for an unknown or malformed id, and FAILED_PRECONDITION for another group’s dead letter', async () => {
    const groupId = `test-group-${uniqueSuffix()}`;
    const { runs, handler } = projection();
    for (const id of ['6f1b2c3d-0000-4000-8000-000000000000', 'not-an-id']) {
      const error = await failure(retryDeadLetter(orm.em, retrying(groupId, handler), id));
      expect([error.status, error.reason, error.message]).toEqual([
        Status.NOT_FOUND,
        'DEAD_LETTER_NOT_FOUND',
        `dead letter ${id} not found`,
      ]);
      expect((await failure(getDeadLetter(orm.em.fork(), id))).status).toBe(Status.NOT_FOUND);
    }
    const theirs = await deadLetter('another-group', Buffer.from(encodeEvent(event('theirs'))));
    const error = await failure(retryDeadLetter(orm.em, retrying(groupId, handler), theirs));
    expect([error.status, error.reason]).toEqual([Status.FAILED_PRECONDITION, 'DEAD_LETTER_OF_ANOTHER_CONSUMER']);
    expect(runs).toEqual([]);
  });

  it('lists newest first in cursor pages, filtered by status, without the raw bytes', async () => {
    const groupId = `test-group-${uniqueSuffix()}`;
    const { handler } = projection();
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 26, 9, minute));
    const ids: string[] = [];
    for (let minute = 0; minute < 5; minute++) {
      const value = minute === 2 ? Buffer.from(encodeEvent(event('fixed'))) : GARBAGE;
      ids.push(await deadLetter(groupId, value, { offset: String(minute), receivedAt: at(minute) }));
    }
    await retryDeadLetter(orm.em, retrying(groupId, handler), ids[2] ?? '');
    const newestFirst = [...ids].reverse();

    const first = await listDeadLetters(orm.em.fork(), {
      status: DeadLetterStatus.UNSPECIFIED,
      cursorPage: { cursor: '', limit: 2 },
    });
    expect(first.deadLetters?.map((d) => d.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.deadLetters?.[0]).toMatchObject({ valueSize: GARBAGE.length, headers: [] });
    expect(first.deadLetters?.[0]?.value).toBeUndefined();
    expect(first.cursorPage?.previousCursor).toBeUndefined();
    const second = await listDeadLetters(orm.em.fork(), {
      status: DeadLetterStatus.UNSPECIFIED,
      cursorPage: { cursor: first.cursorPage?.nextCursor ?? '', limit: 2 },
    });
    expect(second.deadLetters?.map((d) => d.id)).toEqual(newestFirst.slice(2, 4));
    const back = await listDeadLetters(orm.em.fork(), {
      status: DeadLetterStatus.UNSPECIFIED,
      cursorPage: { cursor: second.cursorPage?.previousCursor ?? '', limit: 2 },
    });
    expect(back.deadLetters?.map((d) => d.id)).toEqual(newestFirst.slice(0, 2));

    const unresolved = await listDeadLetters(orm.em.fork(), { status: DeadLetterStatus.UNRESOLVED });
    expect(unresolved.deadLetters?.map((d) => d.id)).toEqual(newestFirst.filter((id) => id !== ids[2]));
    expect(unresolved.cursorPage?.nextCursor).toBeUndefined();
    const resolved = await listDeadLetters(orm.em.fork(), { status: DeadLetterStatus.RESOLVED });
    expect(resolved.deadLetters?.map((d) => d.id)).toEqual([ids[2]]);

    const tooMany = await failure(
      listDeadLetters(orm.em.fork(), {
        status: DeadLetterStatus.UNSPECIFIED,
        cursorPage: { cursor: '', limit: 101 },
      }),
    );
    expect([tooMany.status, tooMany.fieldErrors]).toEqual([
      Status.INVALID_ARGUMENT,
      { per_page: ['must be between 1 and 100'] },
    ]);
    const badStatus = await failure(listDeadLetters(orm.em.fork(), { status: 9 as DeadLetterStatus }));
    expect(badStatus.fieldErrors).toEqual({ status: ['must be unresolved or resolved'] });
  });

  it('deletes resolved dead letters past retention and keeps unresolved ones whatever their age', async () => {
    const groupId = `test-group-${uniqueSuffix()}`;
    const now = new Date('2026-12-31T00:00:00.000Z');
    const old = await deadLetter(groupId, GARBAGE, { offset: '1' });
    const oldResolved = await deadLetter(groupId, GARBAGE, { offset: '2' });
    const recentResolved = await deadLetter(groupId, GARBAGE, { offset: '3' });
    const resolve = (id: string, daysAgo: number) =>
      query(db.url, 'update dead_letter set resolved_at = $2, event_id = gen_random_uuid() where id = $1', [
        id,
        new Date(now.getTime() - daysAgo * DAY_MS),
      ]);
    await query(db.url, 'update dead_letter set received_at = $2 where id = $1', [old, new Date(0)]);
    await resolve(oldResolved, 31);
    await resolve(recentResolved, 29);

    expect(await pruneResolvedDeadLetters(orm.em.fork(), { now, batchSize: 1 })).toBe(1);
    const left = await query<{ id: string }>(db.url, 'select id from dead_letter where consumer = $1 order by id', [
      groupId,
    ]);
    expect(left.map((row) => row.id)).toEqual([old, recentResolved].sort());
  });
});
