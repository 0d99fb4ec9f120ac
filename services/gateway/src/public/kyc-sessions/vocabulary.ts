import type { GenEnum } from '@bufbuild/protobuf/codegenv2';
import {
  KycRejectionTypeSchema,
  KycRequirementSchema,
  KycResultSchema,
  KycSessionStatusSchema,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { protoVocabulary, type ProtoVocabulary } from '@corridor/grpc';

/**
 * The public words of merchant KYC sessions (decision 0016), made from customer-kyb's proto enums,
 * upper case as customers' verification_status: KYC_SESSION_STATUS_PENDING is "PENDING". The one
 * place where the JSON contract and the proto meet.
 */

/** A word of customer-kyb's enum; a value the gateway does not know is a defect named after it. */
const customerKybVocabulary = <E extends number>(descriptor: GenEnum<E>): ProtoVocabulary<E> =>
  protoVocabulary(descriptor, 'upper', 'customer-kyb');

export const KYC_REQUIREMENTS = customerKybVocabulary(KycRequirementSchema);
export const KYC_SESSION_STATUSES = customerKybVocabulary(KycSessionStatusSchema);
export const KYC_RESULTS = customerKybVocabulary(KycResultSchema);
export const KYC_REJECTION_TYPES = customerKybVocabulary(KycRejectionTypeSchema);

/** What the person gave on the verification page; a string in the proto (KycCapture.kind). */
export const CAPTURE_KINDS = ['document', 'selfie'] as const;
