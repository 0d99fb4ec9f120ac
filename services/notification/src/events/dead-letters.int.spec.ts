import { deadLetterServiceRegistration } from '@corridor/bus';
import { encodeEvent, Environment, newEvent } from '@corridor/contracts/events';
import { DeadLetterStatus, RetryOutcome } from '@corridor/contracts/corridor/bus/v1/dead_letter_service_pb';
import { openMigratedDatabase, type MikroORM } from '@corridor/db';
import { DomainError, Status } from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import {
  createTestDatabase,
  insertDeadLetter,
  query,
  serveDeadLetters,
  testKafka,
  type DeadLetterServiceUnderTest,
  type TestDatabase,
} from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { notificationDatabase } from '../database.js';
import { generateSigningSecret, lastFour, WebhookSecrets } from '../secrets/webhook-secrets.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';
import { webhookEventConsumer } from './webhook-event-consumer.js';

const logger = createLogger('notification-test', { level: 'silent' });
const GROUP = 'notification';
const TOPIC = 'test.corridor.customer.v1';
const GARBAGE = Buffer.from('this is not an event');
const now = new Date('2026-11-26T12:00:00.000Z');

describe('notification: its dead letters over gRPC (real PostgreSQL, the migrated schema, the delivery handler)', () => {
  let db: TestDatabase;
  let orm: MikroORM;
  let served: DeadLetterServiceUnderTest;
  const client = () => served.client;
  let wakes = 0;

  beforeAll(async () => {
    db = await createTestDatabase('notification_dead_letters');
    orm = await openMigratedDatabase(notificationDatabase(db.url));
    // The consumer's own options, as bootstrap hands them to the server; the consumer is not started.
    const consuming = webhookEventConsumer({
      kafka: testKafka(),
      orm,
      groupId: GROUP,
      topicPrefix: 'test.',
      environment: 'sandbox',
      scheduleMs: [0, 60_000],
      now: () => now,
      logger,
      wakeWorker: () => void wakes++,
    });
    served = await serveDeadLetters(deadLetterServiceRegistration(consuming));
  });

  afterAll(async () => {
    await served?.stop();
    await orm?.close();
    await db?.drop();
  });

  /** A dead letter as the consumer records it. */
  const deadLetter = (offset: number, value: Buffer) =>
    insertDeadLetter(db.url, {
      consumer: GROUP,
      topic: TOPIC,
      offset,
      value,
      receivedAt: new Date(now.getTime() - 60_000 + offset),
    });

  /** A business with a webhook registration (its URLs are never called: no worker runs here). */
  async function registeredBusiness(): Promise<string> {
    const em = orm.em.fork();
    const [businessId, endpointId] = [randomUUID(), randomUUID()];
    const secret = generateSigningSecret();
    em.create(WebhookEndpoint, {
      id: endpointId,
      businessId,
      collectionUrl: 'https://hooks.example.com/collections',
      payoutUrl: 'https://hooks.example.com/payouts',
      kycUrl: 'https://hooks.example.com/kyc',
      signingSecretSealed: new WebhookSecrets('d'.repeat(64)).seal(secret, endpointId),
      signingSecretLast4: lastFour(secret),
      createdAt: now,
      updatedAt: now,
    });
    await em.flush();
    return businessId;
  }

  it('lists and retries: a still-garbage one fails FAILED_PRECONDITION, a readable one becomes its webhook delivery once', async () => {
    const businessId = await registeredBusiness();
    const verified = newEvent({
      businessId,
      environment: Environment.SANDBOX,
      payload: {
        case: 'customerStatusChanged',
        value: {
          customerId: randomUUID(),
          customerType: 'individual',
          oldStatus: 'PROCESSING',
          newStatus: 'VERIFIED',
          trigger: 'review',
        },
      },
    });
    const garbage = await deadLetter(1, GARBAGE);
    const readable = await deadLetter(2, Buffer.from(encodeEvent(verified)));

    const listed = await client().listDeadLetters({ cursorPage: { limit: 1 } });
    expect(listed.deadLetters.map((d) => [d.id, d.topic, d.status])).toEqual([
      [readable, TOPIC, DeadLetterStatus.UNRESOLVED],
    ]);
    const older = await client().listDeadLetters({ cursorPage: { cursor: listed.cursorPage?.nextCursor ?? '' } });
    expect(older.deadLetters.map((d) => d.id)).toEqual([garbage]);

    const refused = await client()
      .retryDeadLetter({ deadLetterId: garbage })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ status: Status.FAILED_PRECONDITION, reason: 'DEAD_LETTER_UNDECODABLE' });

    const retried = await client().retryDeadLetter({ deadLetterId: readable });
    expect(retried.outcome).toBe(RetryOutcome.APPLIED);
    expect(retried.deadLetter).toMatchObject({ status: DeadLetterStatus.RESOLVED, eventId: verified.id });
    expect((await client().retryDeadLetter({ deadLetterId: readable })).outcome).toBe(RetryOutcome.ALREADY_RESOLVED);
    expect(
      await query(db.url, 'select event_type, destination, status from webhook_delivery where event_id = $1', [
        verified.id,
      ]),
    ).toEqual([{ event_type: 'customer.status_changed', destination: 'kyc_url', status: 'pending' }]);
    // The worker is woken for the new delivery, as after the consumer's own commit.
    expect(wakes).toBe(1);

    const resolved = await client().listDeadLetters({ status: DeadLetterStatus.RESOLVED });
    expect(resolved.deadLetters.map((d) => d.id)).toEqual([readable]);
  });
});
