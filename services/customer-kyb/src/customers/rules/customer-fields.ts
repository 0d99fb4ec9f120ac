import {
  AccountPurposeSchema,
  AnnualRevenueBandSchema,
  BusinessTypeSchema,
  SourceOfFundsSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { REFUSED_CUSTOMER_PROPERTIES } from '@corridor/contracts/customer-words';
import { parseCountryCode } from './countries.js';
import { dateOfBirth, email, httpUri, integer, oneOf, pastDate, text } from './field-formats.js';
import { ID_DOCUMENT_TYPES, type IdDocumentType } from './owner-fields.js';
import type { FieldFormats } from './records.js';
import { wordsOf } from './words.js';

export const CUSTOMER_TYPES = ['individual', 'business'] as const;
export type CustomerType = (typeof CUSTOMER_TYPES)[number];

// seed 2.1: the enums, exactly as customer.proto spells them.
export const BUSINESS_TYPES = wordsOf(BusinessTypeSchema);
export const SOURCES_OF_FUNDS = wordsOf(SourceOfFundsSchema);
export const ANNUAL_REVENUE_BANDS = wordsOf(AnnualRevenueBandSchema);
export const ACCOUNT_PURPOSES = wordsOf(AccountPurposeSchema);

/** Every settable customer field but `type`, `kyb_scope` and `owners` (parsed on their own). */
export interface CustomerFieldValues {
  // both types: the registered address (business) or residential address (individual), contact
  country: string;
  street: string;
  city: string;
  state: string;
  zip_code: string;
  email: string;
  phone: string;
  // individual (KYC): not shown by seed 2.1 rule 4 beyond id_type/id_number; see the README
  first_name: string;
  last_name: string;
  date_of_birth: string;
  id_type: IdDocumentType;
  id_number: string;
  // business (KYB), seed 2.1
  business_name: string;
  registration_number: string;
  incorporation_country: string;
  trading_name: string;
  business_type: string;
  incorporation_date: string;
  industry_type: string;
  business_description: string;
  website: string;
  source_of_funds: string;
  estimated_annual_revenue: string;
  expected_monthly_payments: number;
  account_purpose: string;
  operating_country: string;
  operating_street: string;
  operating_city: string;
  operating_state: string;
  operating_zip_code: string;
}
export type CustomerField = keyof CustomerFieldValues;

export const CUSTOMER_FORMATS: FieldFormats<CustomerFieldValues> = {
  country: parseCountryCode,
  street: text(1, 255),
  city: text(1, 255),
  state: text(1, 255),
  zip_code: text(1, 255), // and against `country`: customer-consistency.ts
  email,
  phone: text(1, 255),
  first_name: text(1, 255),
  last_name: text(1, 255),
  date_of_birth: dateOfBirth,
  id_type: oneOf(ID_DOCUMENT_TYPES),
  id_number: text(1, 255),
  business_name: text(1, 255),
  registration_number: text(1, 255),
  incorporation_country: parseCountryCode,
  trading_name: text(1, 255),
  business_type: oneOf(BUSINESS_TYPES),
  incorporation_date: pastDate,
  industry_type: text(1, 255),
  business_description: text(1, 2000), // seed 2.1, seed 8
  website: httpUri,
  source_of_funds: oneOf(SOURCES_OF_FUNDS),
  estimated_annual_revenue: oneOf(ANNUAL_REVENUE_BANDS),
  expected_monthly_payments: integer(0),
  account_purpose: oneOf(ACCOUNT_PURPOSES),
  operating_country: parseCountryCode,
  operating_street: text(1, 255),
  operating_city: text(1, 255),
  operating_state: text(1, 255),
  operating_zip_code: text(1, 255), // and against `operating_country`: customer-consistency.ts
};

/** Every data field a customer of `type` has (seed 2.1 and the README's decisions), in one order. */
export function customerFieldsOf(type: CustomerType): readonly CustomerField[] {
  return (Object.keys(CUSTOMER_FORMATS) as CustomerField[]).filter((field) => fieldAppliesTo(field, type));
}

const BOTH_TYPES: readonly CustomerField[] = ['country', 'street', 'city', 'state', 'zip_code', 'email', 'phone'];
export const INDIVIDUAL_ONLY: readonly CustomerField[] = [
  'first_name',
  'last_name',
  'date_of_birth',
  'id_type',
  'id_number',
];

export const OPERATING_FIELDS = [
  'operating_country',
  'operating_street',
  'operating_city',
  'operating_state',
  'operating_zip_code',
] as const satisfies readonly CustomerField[];

/** Which customer type each field belongs to (seed 2.1's Notes column). */
export function fieldAppliesTo(field: CustomerField, type: CustomerType): boolean {
  if (BOTH_TYPES.includes(field)) return true;
  return INDIVIDUAL_ONLY.includes(field) ? type === 'individual' : type === 'business';
}

/**
 * seed 2.1 rule 1 (and seed 7: id_type/id_number on a business): the problem for a field that does
 * not apply to the customer's type; any such field fails the whole request.
 */
export function notApplicableProblem(field: string, type: CustomerType): string {
  if (type === 'business' && (field === 'id_type' || field === 'id_number')) {
    return 'applies only to individual customers; a business is identified by registration_number and incorporation_country';
  }
  if (type === 'business') return 'applies only to individual customers, not to a business';
  if (field.startsWith('operating_'))
    return 'applies only to business customers (operating address), not to an individual';
  return 'applies only to business customers (KYB), not to an individual';
}

/** seed 2.1 and 4.4: what create requires per type (individual names: see the README). */
export const REQUIRED_FIELDS: Readonly<Record<CustomerType, readonly CustomerField[]>> = {
  individual: ['country', 'first_name', 'last_name'],
  business: ['business_name', 'registration_number', 'incorporation_country', 'country'],
};

/** Properties of the customer record that the API returns but a platform never sends. */
export const READ_ONLY_CUSTOMER_KEYS = REFUSED_CUSTOMER_PROPERTIES;
