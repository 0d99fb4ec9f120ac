import { CustomerInputSchema } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { typedBody } from '../typed-bodies.fixtures.js';
import { create, type MessageInitShape } from '@bufbuild/protobuf';
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
import { createCustomer } from '../../src/customers/create-customer.js';
import { customerKybSpecKit, putObject } from '../customer-kyb-spec-kit.js';
import { createKycSession, type KycSessionSettings } from '../../src/kyc-sessions/kyc-sessions.js';
import { recordKycResult } from '../../src/kyc-sessions/session-outcomes.js';
import { addVerificationCapture, createVerificationUpload } from '../../src/kyc-sessions/verification.js';

/**
 * What the KYC session specs share on top of customer-kyb's spec kit (a migrated database, S3Proxy,
 * identity on loopback, a clock the spec moves, the outbox): the session calls a page and a
 * platform make, each as one line.
 */

export { BUSINESS_NAME, dateOf, FILE_MAX_BYTES, refusalOf } from '../customer-kyb-spec-kit.js';
export const SETTINGS: KycSessionSettings = { ttlMs: 24 * 3_600_000, sandboxVerdictMs: 5_000 };
/** The 8-byte PNG signature and a little more: storage checks sizes and types, not pictures. */
export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

type SessionInit = MessageInitShape<typeof CreateKycSessionRequestSchema>;
interface VerdictInit {
  result?: KycResult;
  rejectionReason?: string;
  rejectionType?: KycRejectionType;
}

export function kycSessionSpecKit(name: string) {
  const kit = customerKybSpecKit(name);
  const { em, contextIn, outboxEvents } = kit;

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
    return (await createCustomer(em(), contextIn('sandbox'), actor, typedBody(CustomerInputSchema, body))).id;
  }

  /** The page's upload request for one file; PUT the bytes to its upload_url next. */
  const requestUpload = (token: string, kind: string, contentType = 'image/png', contentLength = PNG.length) =>
    createVerificationUpload(
      em(),
      contextIn('sandbox'),
      create(CreateVerificationUploadRequestSchema, { token, kind, contentType, contentLength: BigInt(contentLength) }),
    );

  /** What the browser does with an issued upload: PUT the bytes with exactly its headers. */
  const putBytes = (upload: { uploadUrl: string; headers: Record<string, string> }, body: Buffer = PNG) =>
    putObject(upload, body);

  const addCapture = (token: string, fileId: string) =>
    addVerificationCapture(em(), contextIn('sandbox'), create(AddVerificationCaptureRequestSchema, { token, fileId }));

  /** The whole per-file flow of the page: upload issued, bytes PUT, capture added. */
  async function giveFile(token: string, kind: 'document' | 'selfie') {
    const upload = await requestUpload(token, kind);
    const status = await putBytes(upload);
    if (status !== 200) throw new Error(`S3Proxy answered ${status} to the upload of a ${kind}`);
    return addCapture(token, upload.fileId);
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

  return {
    ...kit,
    openSession,
    recordVerdict,
    customerOf,
    requestUpload,
    putBytes,
    addCapture,
    giveFile,
    outboxSessions,
  };
}
