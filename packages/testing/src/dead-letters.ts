import { randomUUID } from 'node:crypto';
import {
  DeadLetterService,
  DeadLetterStatus,
  RetryOutcome,
} from '@corridor/contracts/corridor/bus/v1/dead_letter_service_pb';
import { encodeEvent, type Event } from '@corridor/contracts/events';
import type { MikroORM } from '@corridor/db';
import {
  createClient,
  DomainError,
  startGrpcServer,
  Status,
  type ClientOf,
  type ServiceRegistration,
} from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import { createTestDatabase, query, type TestDatabase } from './postgres.js';

export interface DeadLetterServiceUnderTest {
  client: ClientOf<typeof DeadLetterService>;
  stop(): Promise<void>;
}

/**
 * A consuming service's DeadLetterService (the registration its bootstrap builds) behind a real gRPC
 * server on a free port, and a client of it: what notification's and payments' specs call.
 */
export async function serveDeadLetters(registration: ServiceRegistration): Promise<DeadLetterServiceUnderTest> {
  const server = await startGrpcServer({
    address: '127.0.0.1:0',
    services: [registration],
    logger: createLogger('dead-letters-test', { level: 'silent' }),
  });
  const client = createClient(DeadLetterService, { address: `127.0.0.1:${server.port}` });
  return {
    client,
    stop: async () => {
      client.close();
      await server.shutdown(1_000);
    },
  };
}

/** A dead letter as the consumer records it (partition 0, no key), e.g. bytes an older build could not read. */
export async function insertDeadLetter(
  databaseUrl: string,
  letter: { consumer: string; topic: string; offset: number; value: Buffer; receivedAt: Date },
): Promise<string> {
  const id = randomUUID();
  await query(
    databaseUrl,
    `insert into dead_letter (id, consumer, topic, partition, message_offset, message_key, message_value, error,
       received_at)
     values ($1, $2, $3, 0, $4, null, $5, 'as an older build read it', $6)`,
    [id, letter.consumer, letter.topic, letter.offset, letter.value, letter.receivedAt],
  );
  return id;
}

/** What a consuming service's dead-letter spec supplies: the rest of the contract is every service's. */
export interface DeadLetterContract {
  /** The consumer group, as the service names it: notification, payments. */
  service: string;
  /** The service's migrated database (its openMigratedDatabase) at `url`. */
  openDatabase(url: string): Promise<MikroORM>;
  /** Its DeadLetterService over that database, as its bootstrap builds it (the consumer is not started). */
  registration(orm: MikroORM): ServiceRegistration;
  /** An event its handler applies, with what the handler needs stored first (a registration…). */
  readableEvent(orm: MikroORM): Promise<Event>;
  /** That the handler applied `event`, once. */
  expectApplied(databaseUrl: string, event: Event): Promise<void>;
}

const DEAD_LETTER_TOPIC = 'test.corridor.customer.v1';
const GARBAGE = Buffer.from('this is not an event');

/**
 * The DeadLetterService every consuming service serves (decision 0023), held over real PostgreSQL
 * and gRPC: list (newest first, a page at a time, by status), show the bytes, refuse to retry what
 * still cannot be decoded, apply a readable one once through the service's own handler, and answer
 * an unknown id NOT_FOUND.
 */
export function describeDeadLetterService(contract: DeadLetterContract): void {
  describe(`${contract.service}: its dead letters over gRPC (real PostgreSQL, the migrated schema, its handler)`, () => {
    let db: TestDatabase;
    let orm: MikroORM;
    let served: DeadLetterServiceUnderTest;
    const receivedAt = new Date('2026-11-26T12:00:00.000Z');

    beforeAll(async () => {
      db = await createTestDatabase(`${contract.service}_dead_letters`);
      orm = await contract.openDatabase(db.url);
      served = await serveDeadLetters(contract.registration(orm));
    });

    afterAll(async () => {
      await served?.stop();
      await orm?.close();
      await db?.drop();
    });

    const deadLetter = (offset: number, value: Buffer) =>
      insertDeadLetter(db.url, {
        consumer: contract.service,
        topic: DEAD_LETTER_TOPIC,
        offset,
        value,
        receivedAt: new Date(receivedAt.getTime() + offset),
      });

    it('lists, shows and retries: a still-garbage one fails FAILED_PRECONDITION, a readable one is applied once', async () => {
      const { client } = served;
      const event = await contract.readableEvent(orm);
      const garbage = await deadLetter(1, GARBAGE);
      const readable = await deadLetter(2, Buffer.from(encodeEvent(event)));

      const first = await client.listDeadLetters({ status: DeadLetterStatus.UNRESOLVED, cursorPage: { limit: 1 } });
      expect(first.deadLetters.map((d) => [d.id, d.topic, d.offset, d.valueSize])).toEqual([
        [readable, DEAD_LETTER_TOPIC, 2n, encodeEvent(event).length],
      ]);
      const older = await client.listDeadLetters({ cursorPage: { cursor: first.cursorPage?.nextCursor ?? '' } });
      expect(older.deadLetters.map((d) => d.id)).toEqual([garbage]);
      const { deadLetter: shown } = await client.getDeadLetter({ deadLetterId: garbage });
      expect(Buffer.from(shown?.value ?? []).equals(GARBAGE)).toBe(true);

      const refused = await client.retryDeadLetter({ deadLetterId: garbage }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DomainError);
      expect(refused).toMatchObject({ status: Status.FAILED_PRECONDITION, reason: 'DEAD_LETTER_UNDECODABLE' });
      expect((refused as DomainError).message).toMatch(`dead letter ${garbage} still cannot be decoded: `);

      const retried = await client.retryDeadLetter({ deadLetterId: readable });
      expect(retried.outcome).toBe(RetryOutcome.APPLIED);
      expect(retried.deadLetter).toMatchObject({ status: DeadLetterStatus.RESOLVED, eventId: event.id, retryCount: 1 });
      expect((await client.retryDeadLetter({ deadLetterId: readable })).outcome).toBe(RetryOutcome.ALREADY_RESOLVED);
      await contract.expectApplied(db.url, event);

      const resolved = await client.listDeadLetters({ status: DeadLetterStatus.RESOLVED });
      expect(resolved.deadLetters.map((d) => d.id)).toEqual([readable]);
      const unresolved = await client.listDeadLetters({ status: DeadLetterStatus.UNRESOLVED });
      expect(unresolved.deadLetters.map((d) => [d.id, d.retryCount])).toEqual([[garbage, 1]]);
      const missing = await client.retryDeadLetter({ deadLetterId: randomUUID() }).catch((e: unknown) => e);
      expect(missing).toMatchObject({ status: Status.NOT_FOUND, reason: 'DEAD_LETTER_NOT_FOUND' });
    });
  });
}
