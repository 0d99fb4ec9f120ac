import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { decodeEvent, topicName } from '@corridor/bus';
import {
  AddVerificationCaptureRequestSchema,
  AdminRecordKycResultRequestSchema,
  CreateKycSessionRequestSchema,
  CreateVerificationUploadRequestSchema,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import {
  type KycRejectionType,
  KycRequirement,
  type KycResult,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { openMigratedDatabase, type MikroORM } from '@corridor/db';
import {
  createClient,
  DomainError,
  registration,
  startGrpcServer,
  type ClientOf,
  type RunningGrpcServer,
} from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import { createTestBucket, createTestDatabase, query, type TestBucket, type TestDatabase } from '@corridor/testing';
import type { CustomerContext } from '../context.js';
import { createCustomer } from '../customers/create-customer.js';
import { customerKybDatabase } from '../database.js';
import { ObjectStorage } from '../files/object-storage.js';
import { createKycSession, type KycSessionSettings } from './kyc-sessions.js';
import { recordKycResult } from './session-outcomes.js';
import { addVerificationCapture, createVerificationUpload } from './verification.js';

/**
 * What the KYC session specs share, so each reads as its rules: a migrated database, a fresh bucket on
 * S3Proxy, identity as a real gRPC server on loopback (customer-kyb only asks it a business's name),
 * a clock the spec moves, and what a session left in the outbox.
 */

export const BUSINESS_NAME = 'Adaeze Textiles Ltd';
export const SETTINGS: KycSessionSettings = { ttlMs: 24 * 3_600_000, sandboxVerdictMs: 5_000 };
export const FILE_MAX_BYTES = 10 * 1024 * 1024;
/** The 8-byte PNG signature and a little more: storage checks sizes and types, not pictures. */
export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

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

type SessionInit = MessageInitShape<typeof CreateKycSessionRequestSchema>;
interface VerdictInit {
  result?: KycResult;
  rejectionReason?: string;
  rejectionType?: KycRejectionType;
}

export function kycSessionSpecKit(name: string) {
  let db: TestDatabase | undefined;
  let orm: MikroORM | undefined;
  let bucket: TestBucket | undefined;
  let storage: ObjectStorage | undefined;
  let identityServer: RunningGrpcServer | undefined;
  let identity: ClientOf<typeof IdentityService> | undefined;
  let now = new Date('2026-11-24T10:00:00.000Z');

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('kycSessionSpecKit.start() has not run');
    return value;
  };
  const em = () => started(orm).em.fork();

  function contextIn(environment: CustomerContext['environment']): CustomerContext {
    return {
      environment,
      topic: topicName('test.', 'customer'),
      now: () => now,
      identity: started(identity),
      storage: started(storage),
      files: { maxBytes: FILE_MAX_BYTES, uploadUrlTtlSeconds: 900 },
    };
  }

  async function start(): Promise<void> {
    db = await createTestDatabase(name);
    orm = await openMigratedDatabase(customerKybDatabase(db.url));
    bucket = await createTestBucket(name);
    storage = new ObjectStorage({ ...bucket, bucket: bucket.name });
    const getBusiness = async (request: { id: string }) => ({ business: { id: request.id, name: BUSINESS_NAME } });
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
    await orm?.close();
    await db?.drop();
  }

  const clock = {
    now: () => now,
    advance: (ms: number) => (now = new Date(now.getTime() + ms)),
  };

  /** POST /kyc-session for `businessId`: documents only, unless said. */
  const openSession = (businessId: string, init: Partial<SessionInit> = {}, context = contextIn('sandbox')) =>
    createKycSession(
      em(),
      context,
      SETTINGS,
      businessId,
      create(CreateKycSessionRequestSchema, {
        customerReference: `person-${Math.random().toString(36).slice(2, 10)}`,
        requirements: [KycRequirement.DOCUMENTS],
        ...init,
      }),
    );

  /** POST /admin/kyc-sessions/{id}/result. */
  const recordVerdict = (sessionId: string, verdict: VerdictInit, context = contextIn('sandbox')) =>
    recordKycResult(em(), context, create(AdminRecordKycResultRequestSchema, { sessionId, ...verdict }));

  /** A new individual customer of `businessId` (POST /customer), for sessions naming a customer_id. */
  async function customerOf(businessId: string): Promise<string> {
    const actor = { businessId, name: 'credential:kyc-spec', requestId: undefined };
    const body = { type: 'individual', first_name: 'Ada', last_name: 'Obi', country: 'NG' };
    return (await createCustomer(em(), contextIn('sandbox'), actor, body)).id;
  }

  /** The page's upload request for one file; PUT the bytes to its upload_url next. */
  const requestUpload = (token: string, kind: string, contentType = 'image/png', contentLength = PNG.length) =>
    createVerificationUpload(
      em(),
      contextIn('sandbox'),
      create(CreateVerificationUploadRequestSchema, { token, kind, contentType, contentLength: BigInt(contentLength) }),
    );

  /** What the browser does with an issued upload: PUT the bytes with exactly its headers. */
  async function putBytes(upload: { uploadUrl: string; headers: Record<string, string> }, body: Buffer = PNG) {
    const response = await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body, duplex: 'half' });
    await response.arrayBuffer();
    return response.status;
  }

  const addCapture = (token: string, fileId: string) =>
    addVerificationCapture(em(), contextIn('sandbox'), create(AddVerificationCaptureRequestSchema, { token, fileId }));

  /** The whole per-file flow of the page: upload issued, bytes PUT, capture added. */
  async function giveFile(token: string, kind: 'document' | 'selfie') {
    const upload = await requestUpload(token, kind);
    const status = await putBytes(upload);
    if (status !== 200) throw new Error(`S3Proxy answered ${status} to the upload of a ${kind}`);
    return addCapture(token, upload.fileId);
  }

  /** The events recorded in the outbox for a session (its key), oldest first, with their topic. */
  async function outboxEvents(sessionId: string) {
    const rows = await query<{ topic: string; payload: Buffer }>(
      started(db).url,
      'select topic, payload from outbox where message_key = $1 order by id',
      [sessionId],
    );
    return rows.map(({ topic, payload }) => ({ topic, event: decodeEvent(payload) }));
  }

  /** The session each outbox event of a session carries, with the event's payload case. */
  const outboxSessions = async (sessionId: string) =>
    (await outboxEvents(sessionId)).map(({ event: { payload } }) => ({
      case: payload.case,
      session:
        payload.case === 'kycSessionCompleted' || payload.case === 'kycSessionExpired'
          ? payload.value.session
          : undefined,
    }));

  /** The outbox as its payload cases, for "which events, how many". */
  const eventCases = async (sessionId: string) =>
    (await outboxEvents(sessionId)).map(({ event }) => event.payload.case);

  return {
    start,
    stop,
    clock,
    em,
    contextIn,
    openSession,
    recordVerdict,
    customerOf,
    requestUpload,
    putBytes,
    addCapture,
    giveFile,
    outboxEvents,
    outboxSessions,
    eventCases,
    databaseUrl: () => started(db).url,
  };
}
