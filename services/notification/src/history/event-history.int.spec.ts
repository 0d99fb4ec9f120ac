import { create } from '@bufbuild/protobuf';
import { EventConsumer, type EventMeta } from '@corridor/bus';
import { GetEventRequestSchema } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { encodeEvent, topicName, type Event } from '@corridor/contracts/events';
import { createLogger } from '@corridor/logging';
import { createTopics, eventually, integrationDatabase, query, testKafka, uniqueSuffix } from '@corridor/testing';
import type { EntityManager } from '@mikro-orm/core';
import type { Producer } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { notificationDatabase } from '../database.js';
import { successfulCollectionEvent } from '../../test/events/transaction-events.fixtures.js';
import { deliveriesFromEvents, webhookEventTopics } from '../events/deliveries-from-events.js';
import { generateSigningSecret, lastFour, WebhookSecrets } from '../secrets/webhook-secrets.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';
import { EventHistoryRepository, type NewHistoryEvent } from './event-history-repository.js';
import { getEvent, listEvents } from './history-api.js';

const logger = createLogger('notification-test', { level: 'silent' });
const secrets = new WebhookSecrets('c'.repeat(64));
const handler = deliveriesFromEvents({
  environment: 'sandbox',
  scheduleMs: [0, 60_000],
  now: () => new Date(),
  logger,
});
const meta: EventMeta = { topic: 'test', partition: 0, offset: '0' };

interface HistoryRow {
  id: string;
  sequence: string;
  event_type: string;
  body: string;
}

describe('the event history and its per-business sequence (decisions 0066, 0067; real PostgreSQL and Kafka)', () => {
  const database = integrationDatabase('notification', notificationDatabase);

  const historyOf = (businessId: string) =>
    query<HistoryRow>(
      database.url,
      'select id, sequence, event_type, body from webhook_event where business_id = $1 order by sequence',
      [businessId],
    );
  const sequencesOf = async (businessId: string) => (await historyOf(businessId)).map((row) => Number(row.sequence));
  const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  async function registered(businessId: string): Promise<void> {
    const em = database.em();
    const id = randomUUID();
    const secret = generateSigningSecret();
    em.create(WebhookEndpoint, {
      id,
      businessId,
      collectionUrl: 'https://receiver.test/collection',
      payoutUrl: 'https://receiver.test/payout',
      signingSecretSealed: secrets.seal(secret, id),
      signingSecretLast4: lastFour(secret),
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await em.flush();
  }

  /** Applies events as the consumer does: in one transaction, recorded as it commits. */
  const apply = (events: Event[], em: EntityManager = database.em()) =>
    em.transactional(async (tx) => {
      for (const event of events) await handler(event, tx, meta);
    });

  it('records every webhook event, registered URL or not, with the exact body its delivery carries and its number', async () => {
    const [withUrl, withoutUrl] = [randomUUID(), randomUUID()];
    await registered(withUrl);
    const events = [
      successfulCollectionEvent(withUrl),
      successfulCollectionEvent(withUrl),
      successfulCollectionEvent(withoutUrl),
    ];
    await apply(events);

    const history = await historyOf(withUrl);
    expect(history.map((row) => [row.id, Number(row.sequence), row.event_type])).toEqual([
      [events[0]?.id, 1, 'collection.successful'],
      [events[1]?.id, 2, 'collection.successful'],
    ]);
    expect(await sequencesOf(withoutUrl)).toEqual([1]);
    const deliveries = await query<{ event_id: string; sequence: string; body: string }>(
      database.url,
      'select event_id, sequence, body from webhook_delivery where business_id = $1 order by sequence',
      [withUrl],
    );
    expect(deliveries.map((row) => [row.event_id, Number(row.sequence), row.body])).toEqual(
      history.map((row) => [row.id, Number(row.sequence), row.body]),
    );
    expect(Object.keys(JSON.parse(history[0]?.body ?? '{}') as object)).toEqual(['event', 'data']);
    const none = await query(database.url, 'select 1 from webhook_delivery where business_id = $1', [withoutUrl]);
    expect(none).toHaveLength(0);
  });

  it('a rolled back transaction leaves no event and spends no number; a redelivered event takes none', async () => {
    const businessId = randomUUID();
    await expect(
      database.em().transactional(async (tx) => {
        await handler(successfulCollectionEvent(businessId), tx, meta);
        throw new Error('the chunk failed');
      }),
    ).rejects.toThrow('the chunk failed');
    expect(await sequencesOf(businessId)).toEqual([]);

    const event = successfulCollectionEvent(businessId);
    await apply([event]);
    await apply([event, successfulCollectionEvent(businessId)]);
    expect(await sequencesOf(businessId)).toEqual([1, 2]);
    expect((await historyOf(businessId))[0]?.id).toBe(event.id);
  });

  it('a transaction numbering the same business waits for the one before it: numbers follow commit order', async () => {
    const businessId = randomUUID();
    const order: string[] = [];
    let releaseFirst: () => void = () => undefined;
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    const first = database.em().transactional(async (tx) => {
      await new EventHistoryRepository(tx).record([historyEvent(businessId)]);
      await firstHolds;
      order.push('first commits');
    });
    // The first holds the counter row; the second's insert of the same business queues behind it.
    await eventually(async () => expect(await sequencesOf(businessId)).toEqual([]), 5_000);
    const second = database
      .em()
      .transactional((tx) => new EventHistoryRepository(tx).record([historyEvent(businessId)]))
      .then(() => order.push('second commits'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(order).toEqual([]);
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(['first commits', 'second commits']);
    expect(await sequencesOf(businessId)).toEqual([1, 2]);
  });

  it('parallel transactions over the same businesses number each business 1..n, without a gap, a duplicate or a deadlock', async () => {
    const businesses = [randomUUID(), randomUUID(), randomUUID()];
    const perTransaction = 20;
    const transactions = 8;
    await Promise.all(
      Array.from({ length: transactions }, (_, t) =>
        database.em().transactional((tx) =>
          new EventHistoryRepository(tx).record(
            // Each transaction names the businesses in another order: the counter rows are still locked in one.
            Array.from({ length: perTransaction }, (_, i) => historyEvent(businesses[(i + t) % businesses.length]!)),
          ),
        ),
      ),
    );
    const counts = businesses.map(() => 0);
    for (let t = 0; t < transactions; t++) for (let i = 0; i < perTransaction; i++) counts[(i + t) % 3]! += 1;
    for (const [index, businessId] of businesses.entries()) {
      expect(await sequencesOf(businessId)).toEqual(oneTo(counts[index]!));
    }
  });

  it('deletes events past retention, oldest first, in batches, and keeps the newer ones', async () => {
    const businessId = randomUUID();
    const day = 24 * 3600 * 1000;
    const now = Date.now();
    await database
      .em()
      .transactional((tx) =>
        new EventHistoryRepository(tx).record([
          historyEvent(businessId, new Date(now - 31 * day)),
          historyEvent(businessId, new Date(now - 31 * day)),
          historyEvent(businessId, new Date(now - 29 * day)),
        ]),
      );
    const repository = new EventHistoryRepository(database.em());
    const cutoff = new Date(now - 30 * day);
    // Other specs' old events share the table: delete until a batch is short, as the sweep does.
    while ((await repository.deleteOlder({ createdBefore: cutoff, limit: 1 })) === 1);
    expect(await sequencesOf(businessId)).toEqual([3]);
  });

  describe('the API (GET /event and /event/{id})', () => {
    it('pages a business history newest first with the house cursors, filters by type and time, never another business', async () => {
      const [mine, theirs] = [randomUUID(), randomUUID()];
      const base = Date.now() - 60_000;
      await database
        .em()
        .transactional((tx) =>
          new EventHistoryRepository(tx).record([
            ...oneTo(5).map((i) => historyEvent(mine, new Date(base + i * 1000))),
            historyEvent(theirs, new Date(base)),
          ]),
        );
      const first = await listEvents(database.em(), mine, { cursorPage: { cursor: '', limit: 3 } } as never);
      expect(first.events.map((event) => Number(event.sequence))).toEqual([5, 4, 3]);
      const second = await listEvents(database.em(), mine, {
        cursorPage: { cursor: first.cursorPage.nextCursor, limit: 3 },
      } as never);
      expect(second.events.map((event) => Number(event.sequence))).toEqual([2, 1]);
      expect(second.cursorPage.nextCursor).toBeUndefined();

      const window = await listEvents(database.em(), mine, {
        createdFrom: { seconds: BigInt(Math.floor((base + 2000) / 1000)), nanos: ((base + 2000) % 1000) * 1e6 },
        createdTo: { seconds: BigInt(Math.floor((base + 4000) / 1000)), nanos: ((base + 4000) % 1000) * 1e6 },
      } as never);
      expect(window.events.map((event) => Number(event.sequence))).toEqual([3, 2]);

      const theirEvent = (await historyOf(theirs))[0]!;
      await expect(
        getEvent(database.em(), mine, create(GetEventRequestSchema, { eventId: theirEvent.id })),
      ).rejects.toMatchObject({
        message: expect.stringContaining('not found'),
      });
      const own = await getEvent(database.em(), theirs, create(GetEventRequestSchema, { eventId: theirEvent.id }));
      expect([own.id, Number(own.sequence), own.body]).toEqual([theirEvent.id, 1, theirEvent.body]);
    });

    it('refuses a cursor it did not make and a window that ends before it starts, naming the field', async () => {
      await expect(
        listEvents(database.em(), randomUUID(), { cursorPage: { cursor: 'bm90LWEtY3Vyc29y', limit: 3 } } as never),
      ).rejects.toMatchObject({ message: expect.stringContaining('cursor') });
      await expect(
        listEvents(database.em(), randomUUID(), {
          createdFrom: { seconds: 2_000_000_000n, nanos: 0 },
          createdTo: { seconds: 1_000_000_000n, nanos: 0 },
        } as never),
      ).rejects.toMatchObject({ message: expect.stringContaining('before to') });
    });
  });

  describe('through Kafka: two consumers of one group on four partitions', () => {
    const prefix = `test-${uniqueSuffix()}.`;
    let producer: Producer;
    const consumers: EventConsumer[] = [];

    beforeAll(async () => {
      await createTopics(webhookEventTopics(prefix), 4);
      producer = testKafka().producer();
      await producer.connect();
      for (let i = 0; i < 2; i++) {
        const consumer = new EventConsumer({
          kafka: testKafka(),
          groupId: `${prefix}notification`,
          topics: webhookEventTopics(prefix),
          em: database.orm.em,
          handler,
          logger,
        });
        await consumer.start();
        consumers.push(consumer);
      }
    });

    afterAll(async () => {
      await Promise.all(consumers.map((consumer) => consumer.stop()));
      await producer?.disconnect();
    });

    it('numbers every event of a business once, 1..n, whatever partition and consumer applied it', async () => {
      const businessId = randomUUID();
      await registered(businessId);
      const events = Array.from({ length: 120 }, () => successfulCollectionEvent(businessId));
      // Keyed by transaction, as payments publishes: the business's events spread over every partition.
      await producer.send({
        topic: topicName(prefix, 'payments'),
        messages: events.map((event) => ({ key: randomUUID(), value: Buffer.from(encodeEvent(event)) })),
      });
      // One event a second time: it takes no number.
      await producer.send({
        topic: topicName(prefix, 'payments'),
        messages: [{ key: randomUUID(), value: Buffer.from(encodeEvent(events[0]!)) }],
      });
      const history = await eventually(async () => {
        const rows = await historyOf(businessId);
        expect(rows).toHaveLength(events.length);
        return rows;
      }, 60_000);
      expect(history.map((row) => Number(row.sequence))).toEqual(oneTo(events.length));
      expect(new Set(history.map((row) => row.id))).toEqual(new Set(events.map((event) => event.id)));
      const numbered = await query<{ n: string }>(
        database.url,
        `select count(*) as n from webhook_delivery d join webhook_event h on h.id = d.event_id
         where d.business_id = $1 and d.sequence = h.sequence`,
        [businessId],
      );
      expect(Number(numbered[0]?.n)).toBe(events.length);
    });
  });
});

/** An event for the repository alone, recorded at `createdAt`. */
function historyEvent(businessId: string, createdAt = new Date()): NewHistoryEvent {
  return {
    id: randomUUID(),
    businessId,
    eventType: 'collection.successful',
    body: '{"event":"collection.successful","data":{}}',
    occurredAt: createdAt,
    createdAt,
  };
}
