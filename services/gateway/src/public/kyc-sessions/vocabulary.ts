import type { GenEnum } from '@bufbuild/protobuf/codegenv2';
import {
  KycRejectionTypeSchema,
  KycRequirementSchema,
  KycResultSchema,
  KycSessionStatusSchema,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { protoVocabulary, type ProtoVocabulary } from '../payments/vocabulary.js';

/**
 * The public words of merchant KYC sessions (decision 0016), made from customer-kyb's proto enums,
 * upper case as customers' verification_status: KYC_SESSION_STATUS_PENDING is "PENDING". The one
 * place where the JSON contract and the proto meet.
 */

/** payments' vocabulary, with a defect named after the service that sent it. */
function customerKybVocabulary<E extends number>(descriptor: GenEnum<E>): ProtoVocabulary<E> {
  const vocabulary = protoVocabulary(descriptor, 'upper');
  return {
    ...vocabulary,
    toWord(value, what) {
      try {
        return vocabulary.toWord(value, what);
      } catch {
        throw new RangeError(`customer-kyb sent ${what} ${value}, not a ${descriptor.typeName} word`);
      }
    },
  };
}

export const KYC_REQUIREMENTS = customerKybVocabulary(KycRequirementSchema);
export const KYC_SESSION_STATUSES = customerKybVocabulary(KycSessionStatusSchema);
export const KYC_RESULTS = customerKybVocabulary(KycResultSchema);
export const KYC_REJECTION_TYPES = customerKybVocabulary(KycRejectionTypeSchema);

/** What the person gave on the verification page; a string in the proto (KycCapture.kind). */
export const CAPTURE_KINDS = ['document', 'selfie'] as const;
