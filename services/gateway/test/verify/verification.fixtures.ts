import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { FileUploadSchema } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import {
  KycCaptureSchema,
  KycRequirement,
  KycSessionStatus,
  KycSessionViewSchema,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';

/** A verification page's canned session: Acme asks for a face match (a document and a selfie). */

export const VERIFICATION_TOKEN = 'Qm9vdHN0cmFwLXRva2VuLWZvci10aGUtcGVyc29uX0E';
export const SESSION_ID = '6f1c2a0e-5b7d-4c1e-9a3f-2d8e4b6a1c90';
export const FILE_ID = '0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b';
const CAPTURED_AT = new Date('2026-11-24T10:15:00Z');
const EXPIRES_AT = new Date('2026-11-25T09:00:00Z');

export const kycCapture = (kind: 'document' | 'selfie') =>
  create(KycCaptureSchema, {
    kind,
    fileId: FILE_ID,
    contentType: 'image/png',
    sizeBytes: 2048n,
    capturedAt: timestampFromDate(CAPTURED_AT),
  });

export const kycSessionView = (overrides: MessageInitShape<typeof KycSessionViewSchema> = {}) =>
  create(KycSessionViewSchema, {
    sessionId: SESSION_ID,
    businessName: 'Acme Stores Ltd',
    requirements: [KycRequirement.FACE_MATCH],
    status: KycSessionStatus.PENDING,
    captures: [],
    expiresAt: timestampFromDate(EXPIRES_AT),
    redirectUrl: 'https://shop.example/kyc/done?user=42',
    ...overrides,
  });

export const verificationUpload = () =>
  create(FileUploadSchema, {
    fileId: FILE_ID,
    uploadUrl: `http://127.0.0.1:9000/corridor-files/kyc/${FILE_ID}?X-Amz-Signature=abc`,
    method: 'PUT',
    headers: { 'content-type': 'image/png', 'content-length': '2048' },
    expiresAt: timestampFromDate(EXPIRES_AT),
    maxSizeBytes: 10_485_760n,
  });
