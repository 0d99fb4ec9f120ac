import { randomUUID } from 'node:crypto';
import { DeadLetterService } from '@corridor/contracts/corridor/bus/v1/dead_letter_service_pb';
import { createClient, startGrpcServer, type ClientOf, type ServiceRegistration } from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import { query } from './postgres.js';

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
