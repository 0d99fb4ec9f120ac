import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  KycRejectionType,
  KycRequirement,
  KycResult,
  KycSessionSchema,
  KycSessionStatus,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { CUSTOMER_ID } from '../customers/customer.fixtures.js';
import { BUSINESS_ID } from '../testing/fake-identity.js';

/** customer-kyb's KYC sessions as the dashboard receives them (as the gateway's kyc-session.fixtures.ts). */

export const SESSION_ID = '5c9a4d3f-0000-4000-8000-00000000c013';
export const OTHER_SESSION_ID = '5c9a4d3f-0000-4000-8000-00000000c0ff';
export const VERIFICATION_TOKEN = 'Vb7_xQ2mKp9zLr4tWn8cYe1uHs6dFg3jAk0oRi5N-Tw';
const CREATED = new Date('2026-11-24T09:00:00.000Z');
const UPDATED = new Date('2026-11-24T09:05:00.000Z');
const EXPIRES = new Date('2026-11-25T09:00:00.000Z');
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

/** The verdict came: rejected for good. */
export const rejectedSession = () =>
  kycSession({
    status: KycSessionStatus.COMPLETED,
    result: KycResult.REJECTED,
    rejectionReason: 'We could not verify your identity with the documents provided.',
    rejectionType: KycRejectionType.FINAL,
    captures: [{ kind: 'document', fileId: 'f9', contentType: 'image/png', sizeBytes: 2048n, capturedAt: at(UPDATED) }],
    submittedAt: at(UPDATED),
    completedAt: at(UPDATED),
    updatedAt: at(UPDATED),
  });
