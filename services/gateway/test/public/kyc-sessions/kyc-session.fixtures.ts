import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  KycCaptureSchema,
  KycRejectionType,
  KycRequirement,
  KycResult,
  KycSessionSchema,
  KycSessionStatus,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';

/** customer-kyb's KYC sessions as the gateway receives them (decision 0016). */

export const BUSINESS_ID = '4b8f3c2e-0000-4000-8000-00000000b013';
export const SESSION_ID = '5c9a4d3f-0000-4000-8000-00000000c013';
export const CUSTOMER_ID = '7c1e6a81-0000-4000-8000-00000000d013';
/** url-safe base64 of 32 random bytes (43 characters), as customer-kyb issues them. */
export const VERIFICATION_TOKEN = 'Vb7_xQ2mKp9zLr4tWn8cYe1uHs6dFg3jAk0oRi5N-Tw';
export const FILE_ID = '6d0b5e40-0000-4000-8000-00000000e013';
export const CREATED = new Date('2026-11-24T09:00:00.000Z');
export const UPDATED = new Date('2026-11-24T09:05:00.000Z');
export const EXPIRES = new Date('2026-11-25T09:00:00.000Z');
const at = timestampFromDate;

/** A session just created: PENDING, asking for a document and a selfie matched against it. */
export const kycSession = (overrides: MessageInitShape<typeof KycSessionSchema> = {}) =>
  create(KycSessionSchema, {
    id: SESSION_ID,
    businessId: BUSINESS_ID,
    customerReference: 'person-42',
    requirements: [KycRequirement.DOCUMENTS, KycRequirement.FACE_MATCH],
    customerId: CUSTOMER_ID,
    redirectUrl: 'https://platform.example/kyc/done?flow=7',
    status: KycSessionStatus.PENDING,
    verificationToken: VERIFICATION_TOKEN,
    expiresAt: at(EXPIRES),
    createdAt: at(CREATED),
    updatedAt: at(CREATED),
    ...overrides,
  });

export const documentCapture = () =>
  create(KycCaptureSchema, {
    kind: 'document',
    fileId: FILE_ID,
    contentType: 'image/png',
    sizeBytes: 2_048n,
    capturedAt: at(UPDATED),
  });

/** The person submitted their document: waiting for the verdict. */
export const processingSession = () =>
  kycSession({ status: KycSessionStatus.PROCESSING, captures: [documentCapture()], submittedAt: at(UPDATED) });

/** The verdict came: rejected for good. */
export const rejectedSession = () =>
  kycSession({
    status: KycSessionStatus.COMPLETED,
    result: KycResult.REJECTED,
    rejectionReason: 'We could not verify your identity with the documents provided.',
    rejectionType: KycRejectionType.FINAL,
    captures: [documentCapture()],
    submittedAt: at(UPDATED),
    completedAt: at(UPDATED),
    updatedAt: at(UPDATED),
  });

/** The verdict came: approved. */
export const approvedSession = () =>
  kycSession({
    status: KycSessionStatus.COMPLETED,
    result: KycResult.APPROVED,
    captures: [documentCapture()],
    submittedAt: at(UPDATED),
    completedAt: at(UPDATED),
    updatedAt: at(UPDATED),
  });

export const cancelledSession = () =>
  kycSession({ status: KycSessionStatus.CANCELLED, cancelledAt: at(UPDATED), updatedAt: at(UPDATED) });

/** kycSession() as the platform reads it, its verification page on `origin` (the gateway it called). */
export const kycSessionJson = (origin: string) => ({
  id: SESSION_ID,
  customer_reference: 'person-42',
  customer_id: CUSTOMER_ID,
  requirements: ['DOCUMENTS', 'FACE_MATCH'],
  status: 'PENDING',
  result: null,
  rejection_reason: null,
  rejection_type: null,
  verification_url: `${origin}/verify/${VERIFICATION_TOKEN}`,
  redirect_url: 'https://platform.example/kyc/done?flow=7',
  captures: [],
  expires_at: EXPIRES.toISOString(),
  created_at: CREATED.toISOString(),
  updated_at: CREATED.toISOString(),
  submitted_at: null,
  completed_at: null,
  expired_at: null,
  cancelled_at: null,
});

export const DOCUMENT_CAPTURE_JSON = {
  kind: 'document',
  content_type: 'image/png',
  size_bytes: 2048,
  captured_at: UPDATED.toISOString(),
};
