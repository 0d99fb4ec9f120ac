import type { DescEnum, DescField } from '@bufbuild/protobuf';
import { OwnerInputSchema } from './gen/corridor/customer/v1/customer_input_pb.js';
import {
  KybDocumentTypeSchema,
  KybScopeSchema,
  OwnerDataSchema,
  ReviewStatusSchema,
  VerificationStatusSchema,
} from './gen/corridor/customer/v1/customer_pb.js';

/**
 * What the customer API's JSON says that customer.proto and customer_input.proto cannot (decision
 * 0025), in one place for the gateway, which reads and answers the JSON, and customer-kyb, which
 * answers the typed data: how each enum's words are cased, which field carries a
 * decimal, and which fields an upgrade takes.
 */

/** Statuses, scopes and KYB document types are upper case in the public API; other words lower. */
const UPPER_CASE_ENUMS: readonly string[] = [
  KybScopeSchema.typeName,
  VerificationStatusSchema.typeName,
  ReviewStatusSchema.typeName,
  KybDocumentTypeSchema.typeName,
];

const DECIMAL_PARENTS: readonly string[] = [OwnerInputSchema.typeName, OwnerDataSchema.typeName];

/** @corridor/grpc's InputWords for the customer messages. */
export const CUSTOMER_INPUT_WORDS = {
  casingOf: (descriptor: DescEnum): 'upper' | 'lower' =>
    UPPER_CASE_ENUMS.includes(descriptor.typeName) ? 'upper' : 'lower',
  // seed 2.2's percentage: a JSON number, carried as its exact decimal text, in and out.
  isDecimal: (field: DescField): boolean =>
    DECIMAL_PARENTS.includes(field.parent.typeName) && field.name === 'ownership_percentage',
};

/** seed 4.2: the customer fields an upgrade-kyb-scope request may override or add, besides `owners`. */
export const UPGRADE_KYB_SCOPE_FIELDS = [
  'registration_number',
  'incorporation_country',
  'country',
  'trading_name',
  'business_type',
  'incorporation_date',
  'industry_type',
  'business_description',
  'website',
  'source_of_funds',
  'estimated_annual_revenue',
  'expected_monthly_payments',
  'account_purpose',
  'operating_street',
  'operating_city',
  'operating_state',
  'operating_zip_code',
  'operating_country',
] as const;

/** The problem of a property the API answers and sets itself. */
export const SET_BY_CORRIDOR = 'is set by Corridor and cannot be sent';
const OWNER_FILES_ELSEWHERE =
  'is not part of this request: upload owner ID files per slot with POST /customer/{id}/owner/{owner}/files';

/** Properties a customer is answered with but a body may not carry, with why (issue 4 item 2). */
export const REFUSED_CUSTOMER_PROPERTIES: Readonly<Record<string, string>> = {
  id: SET_BY_CORRIDOR,
  verification_status: SET_BY_CORRIDOR,
  created_at: SET_BY_CORRIDOR,
  updated_at: SET_BY_CORRIDOR,
  documents: 'cannot be sent here: register KYB documents with POST /customer/{id}/document',
};

/** The same for an entry of `owners`. */
export const REFUSED_OWNER_PROPERTIES: Readonly<Record<string, string>> = {
  status: SET_BY_CORRIDOR,
  admin_comments: SET_BY_CORRIDOR,
  id_document_front: OWNER_FILES_ELSEWHERE,
  id_document_back: OWNER_FILES_ELSEWHERE,
};
