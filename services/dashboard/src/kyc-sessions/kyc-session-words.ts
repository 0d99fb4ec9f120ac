import type { GenEnum } from '@bufbuild/protobuf/codegenv2';
import {
  KycRejectionTypeSchema,
  KycRequirementSchema,
  KycResultSchema,
  KycSessionStatus,
  KycSessionStatusSchema,
  type KycSession,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { protoVocabulary } from '@corridor/grpc';

/**
 * The words of merchant KYC sessions (decision 0016), upper case as the gateway answers them:
 * KYC_SESSION_STATUS_PENDING is PENDING, KYC_REQUIREMENT_FACE_MATCH is FACE_MATCH.
 */
const upper = <E extends number>(descriptor: GenEnum<E>) => protoVocabulary(descriptor, 'upper', 'customer-kyb');

export const KYC_SESSION_STATUSES = upper(KycSessionStatusSchema);
export const KYC_REQUIREMENTS = upper(KycRequirementSchema);
export const KYC_RESULTS = upper(KycResultSchema);
export const KYC_REJECTION_TYPES = upper(KycRejectionTypeSchema);

/**
 * The person's verification page, as the API's verification_url: on the API's origin, and only
 * while the person can still use it (PENDING), as the gateway's kycSessionJson decides.
 */
export function verificationUrlOf(session: KycSession, apiBaseUrl: string): string | undefined {
  if (session.status !== KycSessionStatus.PENDING || session.verificationToken === '') return undefined;
  return `${apiBaseUrl.replace(/\/+$/, '')}/verify/${encodeURIComponent(session.verificationToken)}`;
}
