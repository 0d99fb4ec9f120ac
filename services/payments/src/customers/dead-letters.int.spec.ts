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
import { paymentsDatabase } from '../database.js';
import { customerEventConsumer } from './customer-event-consumer.js';

const logger = createLogger('payments-test', { level: 'silent' });
const GROUP = 'payments';
const TOPIC = 'test.corridor.customer.v1';
const GARBAGE = Buffer.from('this is not an event');
const now = new Date('2026-11-26T12:00:00.000Z');

describe('payments: its dead letters over gRPC (real PostgreSQL, the migrated schema, the projection handler)', () => {
  let db: TestDatabase;
  let orm: MikroORM;
  let served: DeadLetterServiceUnderTest;
  const client = () => served.client;

  beforeAll(async () => {
    db = await createTestDatabase('payments_dead_letters');
    orm = await openMigratedDatabase(paymentsDatabase(db.url));
    // The consumer's own options, as bootstrap hands them to the server; the consumer is not started.
    const consuming = customerEventConsumer({
      kafka: testKafka(),
      orm,
      groupId: GROUP,
      topicPrefix: 'test.',
      now: () => now,
      logger,
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

  it('lists, shows, and retries: a still-garbage one fails FAILED_PRECONDITION, a readable one projects the customer once', async () => {
    const customerId = randomUUID();
    const businessId = randomUUID();
    const created = newEvent({
      businessId,
      environment: Environment.SANDBOX,
      payload: {
        case: 'customerCreated',
        value: {
          customerId,
          customerType: 'individual',
          verificationStatus: 'PENDING',
          displayName: 'Ada Obi',
        },
      },
    });
    const garbage = await deadLetter(1, GARBAGE);
    const readable = await deadLetter(2, Buffer.from(encodeEvent(created)));

    const listed = await client().listDeadLetters({ status: DeadLetterStatus.UNRESOLVED });
    expect(listed.deadLetters.map((d) => [d.id, d.offset, d.valueSize])).toEqual([
      [readable, 2n, encodeEvent(created).length],
      [garbage, 1n, GARBAGE.length],
    ]);
    const { deadLetter: shown } = await client().getDeadLetter({ deadLetterId: garbage });
    expect(Buffer.from(shown?.value ?? []).equals(GARBAGE)).toBe(true);

    const refused = await client()
      .retryDeadLetter({ deadLetterId: garbage })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ status: Status.FAILED_PRECONDITION, reason: 'DEAD_LETTER_UNDECODABLE' });
    expect((refused as DomainError).message).toMatch(`dead letter ${garbage} still cannot be decoded: `);

    const retried = await client().retryDeadLetter({ deadLetterId: readable });
    expect(retried.outcome).toBe(RetryOutcome.APPLIED);
    expect(retried.deadLetter).toMatchObject({ status: DeadLetterStatus.RESOLVED, eventId: created.id, retryCount: 1 });
    expect(
      await query(db.url, 'select business_id, verification_status, display_name from customer_projection'),
    ).toEqual([{ business_id: businessId, verification_status: 'PENDING', display_name: 'Ada Obi' }]);
    expect((await client().retryDeadLetter({ deadLetterId: readable })).outcome).toBe(RetryOutcome.ALREADY_RESOLVED);

    const unresolved = await client().listDeadLetters({ status: DeadLetterStatus.UNRESOLVED });
    expect(unresolved.deadLetters.map((d) => [d.id, d.retryCount])).toEqual([[garbage, 1]]);
    const missing = await client()
      .retryDeadLetter({ deadLetterId: randomUUID() })
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: Status.NOT_FOUND, reason: 'DEAD_LETTER_NOT_FOUND' });
  });
});
