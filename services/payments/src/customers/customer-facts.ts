import {
  CustomerTypeSchema,
  KybScopeSchema,
  VerificationStatusSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { customerVocabulary } from '@corridor/customer-json';

/** What an event (or customer-kyb's answer, decision 0033) says of a customer, as of `at`. */
export interface CustomerFacts {
  customerId: string;
  businessId: string;
  customerType: string;
  /** FULL or MINIMAL for a business; empty for an individual. */
  kybScope: string;
  verificationStatus: string;
  /** Empty keeps the name the projection holds. */
  displayName: string;
  /** customer-kyb's time of the change: an event's occurred_at, a read's updated_at. */
  at: Date;
}

/** customer-kyb's enums as the words customer_projection holds: the customer API's (business, FULL, VERIFIED). */
export const CUSTOMER_TYPES = customerVocabulary(CustomerTypeSchema);
export const KYB_SCOPES = customerVocabulary(KybScopeSchema);
export const VERIFICATION_STATUSES = customerVocabulary(VerificationStatusSchema);
