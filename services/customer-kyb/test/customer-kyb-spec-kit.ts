import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { BusinessClock } from '@corridor/sandbox-clock';
import { decodeEvent, topicName } from '@corridor/contracts/events';
import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import {
  createClient,
  DomainError,
  registration,
  startGrpcServer,
  type ClientOf,
  type RunningGrpcServer,
} from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import { createTestBucket, integrationDatabase, query, type TestBucket } from '@corridor/testing';
import type { CustomerContext } from '../src/context.js';
import { ObjectStorage } from '../src/files/object-storage.js';
import { customerKybDatabase } from '../src/database.js';

/**
 * What customer-kyb's integration specs share, so each reads as its rules: its migrated database
 * (@corridor/testing's integrationDatabase, decision 0063), a
 * fresh bucket on S3Proxy, identity as a real gRPC server on loopback (customer-kyb only asks it a
 * business's name and MINIMAL allow-list flag), a clock the spec moves, and the outbox by key.
 */

export const BUSINESS_NAME = 'Adaeze Textiles Ltd';
export const FILE_MAX_BYTES = 10 * 1024 * 1024;

export const dateOf = (timestamp: Timestamp | undefined) => (timestamp ? timestampDate(timestamp) : undefined);

/** How a use case refused: its gRPC status, reason and field errors (undefined when it succeeded). */
export async function refusalOf(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    if (error instanceof DomainError) {
      return { status: error.status, reason: error.reason, fieldErrors: error.fieldErrors };
    }
    throw error;
  }
  return undefined;
}

/** How a use case refused, with its message too: for the rules whose message is the point. */
export async function refusalWithMessage(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    if (error instanceof DomainError) {
      return { status: error.status, reason: error.reason, message: error.message, fieldErrors: error.fieldErrors };
    }
    throw error;
  }
  return undefined;
}

/** What a browser does with an issued upload: PUT the bytes with exactly its headers; storage's status. */
export async function putObject(upload: { uploadUrl: string; headers: Record<string, string> }, body: Buffer) {
  const response = await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body, duplex: 'half' });
  await response.arrayBuffer();
  return response.status;
}

export function customerKybSpecKit(name: string, startAt = new Date('2026-11-24T10:00:00.000Z')) {
  const database = integrationDatabase('customer-kyb', customerKybDatabase);
  let bucket: TestBucket | undefined;
  let storage: ObjectStorage | undefined;
  let identityServer: RunningGrpcServer | undefined;
  let identity: ClientOf<typeof IdentityService> | undefined;
  let now = startAt;
  /** Businesses an administrator allow-listed for MINIMAL KYB (seed 5), as identity would answer. */
  const minimalAllowed = new Set<string>();

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the spec kit has not started: call start() in beforeAll');
    return value;
  };
  const em = database.em;

  function contextIn(environment: CustomerContext['environment']): CustomerContext {
    return {
      environment,
      topic: topicName('test.', 'customer'),
      now: () => now,
      clock: new BusinessClock(() => now, environment),
      identity: started(identity),
      storage: started(storage),
      files: { maxBytes: FILE_MAX_BYTES, uploadUrlTtlSeconds: 900 },
    };
  }

  async function start(): Promise<void> {
    bucket = await createTestBucket(name);
    storage = new ObjectStorage({ ...bucket, bucket: bucket.name });
    const getBusiness = async (request: { id: string }) => ({
      business: { id: request.id, name: BUSINESS_NAME, kybMinimalAllowed: minimalAllowed.has(request.id) },
    });
    // Only GetBusiness is served: any other identity call answers UNIMPLEMENTED.
    identityServer = await startGrpcServer({
      address: '127.0.0.1:0',
      services: [registration(IdentityService, { getBusiness } as never)],
      logger: createLogger('test', { level: 'silent' }),
    });
    identity = createClient(IdentityService, { address: `127.0.0.1:${identityServer.port}` });
  }

  async function stop(): Promise<void> {
    identity?.close();
    await identityServer?.shutdown(1_000);
    storage?.close();
    await bucket?.drop();
  }

  const clock = {
    now: () => now,
    advance: (ms: number) => (now = new Date(now.getTime() + ms)),
  };

  /** The events recorded in the outbox under `key` (a customer or session id), oldest first, with their topic. */
  async function outboxEvents(key: string) {
    const rows = await query<{ topic: string; payload: Buffer }>(
      database.url,
      'select topic, payload from outbox where message_key = $1 order by id',
      [key],
    );
    return rows.map(({ topic, payload }) => ({ topic, event: decodeEvent(payload) }));
  }

  /** The outbox under `key` as its payload cases, for "which events, how many". */
  const eventCases = async (key: string) => (await outboxEvents(key)).map(({ event }) => event.payload.case);

  return {
    start,
    stop,
    clock,
    em,
    contextIn,
    outboxEvents,
    eventCases,
    /** seed 5: the administrator's allow-list, as identity answers it to customer-kyb. */
    allowMinimal: (businessId: string, allowed = true) =>
      allowed ? minimalAllowed.add(businessId) : minimalAllowed.delete(businessId),
    databaseUrl: () => database.url,
  };
}
