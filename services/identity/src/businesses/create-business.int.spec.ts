import { OutboxRelay, createIdempotentProducer, type Producer } from '@corridor/bus';
import { EVENT_TYPES, Environment } from '@corridor/contracts/events';
import { DomainError, Status } from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import { integrationDatabase, createTopics, EventCollector, query, testKafka, uniqueSuffix } from '@corridor/testing';
import { identityDatabase } from '../database.js';
import type { IdentityContext } from '../context.js';
import { createBusiness } from './create-business.js';
import { getBusiness } from './get-business.js';

const logger = createLogger('test', { level: 'silent' });

describe('identity: creating a business (real PostgreSQL and Kafka)', () => {
  const database = integrationDatabase('identity', identityDatabase);
  let producer: Producer;
  let collector: EventCollector;
  const now = new Date('2026-11-21T10:00:00.000Z');
  const context: IdentityContext = {
    environment: 'sandbox',
    topic: `test.${uniqueSuffix()}.corridor.identity.v1`,
    now: () => now,
  };

  beforeAll(async () => {
    await createTopics([context.topic]);
    producer = createIdempotentProducer(testKafka());
    await producer.connect();
    collector = await new EventCollector([context.topic]).start();
  });

  afterAll(async () => {
    await collector.stop();
    await producer.disconnect();
  });

  it('writes the business row and its business.created outbox row in one transaction', async () => {
    const business = await createBusiness(database.em(), context, { name: '  Acme Ltd ' });
    expect(business).toMatchObject({
      name: 'Acme Ltd',
      apiEnabled: true,
      kybMinimalAllowed: false,
      rateLimits: { perMinute: 120, perHour: 1500 },
    });

    const rows = await query<{ name: string; environment: string }>(
      database.url,
      'select name, environment from business where id = $1',
      [business.id],
    );
    expect(rows).toEqual([{ name: 'Acme Ltd', environment: 'sandbox' }]);
    const outbox = await query<{ topic: string; message_key: string; published_at: Date | null }>(
      database.url,
      'select topic, message_key, published_at from outbox where message_key = $1',
      [business.id],
    );
    expect(outbox).toEqual([{ topic: context.topic, message_key: business.id, published_at: null }]);
    expect(await getBusiness(database.em(), business.id)).toMatchObject({ id: business.id, name: 'Acme Ltd' });
  });

  it('refuses an empty name with INVALID_ARGUMENT naming the field, and writes nothing', async () => {
    const before = await query<{ n: string }>(
      database.url,
      'select (select count(*) from business) + (select count(*) from outbox) as n',
    );
    const error = await createBusiness(database.em(), context, { name: '   ' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ status: Status.INVALID_ARGUMENT, fieldErrors: { name: ['is required'] } });
    const after = await query<{ n: string }>(
      database.url,
      'select (select count(*) from business) + (select count(*) from outbox) as n',
    );
    expect(after).toEqual(before);
  });

  it('answers NOT_FOUND for an unknown or malformed id', async () => {
    await expect(getBusiness(database.em(), '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      status: Status.NOT_FOUND,
    });
    await expect(getBusiness(database.em(), 'not-a-uuid')).rejects.toMatchObject({ status: Status.NOT_FOUND });
  });

  it('the relay publishes business.created with the typed payload to identity topic', async () => {
    const business = await createBusiness(database.em(), context, { name: 'Globex', kybMinimalAllowed: true });
    const relay = new OutboxRelay({ databaseUrl: database.url, producer, logger });
    await relay.start();
    try {
      const [received] = await collector.waitFor((e) => e.event.businessId === business.id);
      expect(received?.key).toBe(business.id);
      expect(received?.event).toMatchObject({
        type: EVENT_TYPES.businessCreated,
        environment: Environment.SANDBOX,
        payload: {
          case: 'businessCreated',
          value: { business: { id: business.id, name: 'Globex', kybMinimalAllowed: true } },
        },
      });
      expect(received?.event.occurredAt?.seconds).toBe(BigInt(now.getTime() / 1000));
    } finally {
      await relay.stop();
    }
  });
});
