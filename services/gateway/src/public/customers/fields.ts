import { iso31661 } from 'iso-3166';
import type { JsonSchema } from '../../http/json-schema.js';
import {
  ACCOUNT_PURPOSES,
  ANNUAL_REVENUE_BANDS,
  BUSINESS_TYPES,
  ID_DOCUMENT_TYPES,
  INDIVIDUAL_FILE_CATEGORIES,
  KYB_DOCUMENT_TYPES,
  KYB_SCOPES,
  OWNER_FILE_SLOTS,
  REVIEW_STATUSES,
  SOURCES_OF_FUNDS,
  VERIFICATION_STATUSES,
} from './vocabulary.js';
import { CUSTOMER_TYPES, type CustomerType } from '../../floor/customer-types.js';

/**
 * The public vocabulary of customers and owners, as customer-kyb owns it
 * (services/customer-kyb/src/customers/rules/customer-fields.ts, owner-fields.ts), each field a field
 * of the same name in customer_input.proto (fields.spec.ts holds them together). The gateway needs
 * the names to document them, to read a body's JSON types and words into the typed message, and to
 * answer every field of a customer's type, null when unset (decision 0025); the rules on values are
 * customer-kyb's.
 */

export { CUSTOMER_TYPES, type CustomerType };
export {
  ACCOUNT_PURPOSES,
  ANNUAL_REVENUE_BANDS,
  BUSINESS_TYPES,
  ID_DOCUMENT_TYPES,
  INDIVIDUAL_FILE_CATEGORIES,
  KYB_DOCUMENT_TYPES,
  KYB_SCOPES,
  OWNER_FILE_SLOTS,
  REVIEW_STATUSES,
  SOURCES_OF_FUNDS,
  VERIFICATION_STATUSES,
};
/** A string in the proto: a content type is no proto identifier. customer-kyb checks the value. */
export const FILE_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;

/** One data field: its schema as a platform sends it (limits included) and what it means. */
export interface FieldSpec {
  type: 'string' | 'integer' | 'number' | 'boolean';
  description: string;
  enum?: readonly string[];
  format?: 'date' | 'email' | 'uri';
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

const text = (description: string, maxLength = 255, minLength = 1): FieldSpec => ({
  type: 'string',
  description,
  minLength,
  maxLength,
});
/** The assigned ISO 3166-1 codes, from the package customer-kyb validates with, so the two agree. */
const ASSIGNED_COUNTRIES = iso31661.map((entry) => entry.alpha2).sort();
const country = (description: string): FieldSpec => ({
  type: 'string',
  enum: ASSIGNED_COUNTRIES,
  description: `ISO 3166-1 alpha-2 code in upper case (e.g. NG); ${description}`,
});
const oneOf = (values: readonly string[], description: string): FieldSpec => ({
  type: 'string',
  enum: values,
  description,
});
const date = (description: string): FieldSpec => ({ type: 'string', format: 'date', description });
const flag = (description: string): FieldSpec => ({ type: 'boolean', description });

/** Both types: the registered address (business) or the residence (individual), and contact. */
const SHARED: Record<string, FieldSpec> = {
  country: country(
    'the registered-address country (business: must equal incorporation_country; send both together to change jurisdiction) or the country of residence (individual). Required for both types.',
  ),
  street: text('street address'),
  city: text('city'),
  state: text('state or region'),
  zip_code: text('postal code, validated against country'),
  email: { type: 'string', format: 'email', maxLength: 254, description: 'contact email address' },
  phone: text('contact phone number'),
};

/** Individual KYC fields (seed 2.1 rule 4 leaves them open; customer-kyb README). */
const INDIVIDUAL: Record<string, FieldSpec> = {
  first_name: text('first name; required on create'),
  last_name: text('last name; required on create'),
  date_of_birth: date('date of birth (YYYY-MM-DD), at least 18 years ago'),
  id_type: oneOf(ID_DOCUMENT_TYPES, 'the kind of ID document; individual customers only (422 on a business)'),
  id_number: text('the ID document number; individual customers only (422 on a business)'),
};

/** Business KYB fields (seed 2.1). */
const BUSINESS: Record<string, FieldSpec> = {
  business_name: text('legal business name; required on create'),
  registration_number: text(
    'the canonical business identifier; required on create. (registration_number, incorporation_country) is unique among your business customers',
  ),
  incorporation_country: country('the legal jurisdiction; required on create'),
  trading_name: text('trading name'),
  business_type: oneOf(BUSINESS_TYPES, 'legal form'),
  incorporation_date: date('date of incorporation (YYYY-MM-DD), in the past'),
  industry_type: text('industry'),
  business_description: text('what the business does', 2000),
  website: { type: 'string', format: 'uri', maxLength: 2048, description: 'absolute http or https URI' },
  source_of_funds: oneOf(SOURCES_OF_FUNDS, 'where the money comes from'),
  estimated_annual_revenue: oneOf(ANNUAL_REVENUE_BANDS, 'annual revenue band in USD'),
  expected_monthly_payments: {
    type: 'integer',
    minimum: 0,
    // What a JSON number carries exactly: a larger one is refused (it would not read back as sent).
    maximum: Number.MAX_SAFE_INTEGER,
    description: 'expected number of payments per month',
  },
  account_purpose: oneOf(ACCOUNT_PURPOSES, 'what the account is for'),
  operating_country: country(
    'country of the operating address; required whenever any other operating_* field is sent; may differ from country',
  ),
  operating_street: text('operating address: street'),
  operating_city: text('operating address: city'),
  operating_state: text('operating address: state or region'),
  operating_zip_code: text('operating address: postal code, validated against operating_country'),
};

/** Each type's data fields, in the order a customer is answered. */
export const CUSTOMER_FIELDS: Readonly<Record<CustomerType, Readonly<Record<string, FieldSpec>>>> = {
  business: { ...BUSINESS, ...SHARED },
  individual: { ...INDIVIDUAL, ...SHARED },
};

/** What create requires per type; these are never null on a stored customer either. */
export const REQUIRED_CUSTOMER_FIELDS: Readonly<Record<CustomerType, readonly string[]>> = {
  business: ['business_name', 'registration_number', 'incorporation_country', 'country'],
  individual: ['country', 'first_name', 'last_name'],
};

/** Every owner input field of seed 2.2, limits from seed 8. */
export const OWNER_FIELDS: Readonly<Record<string, FieldSpec>> = {
  first_name: text('first name', 255),
  last_name: text('last name', 255),
  ownership_percentage: {
    type: 'number',
    minimum: 0,
    maximum: 100,
    description:
      'share of ownership, 0 to 100 with at most six decimal places (33.333333); the owners of a customer sum to exactly 100, added in exact decimals',
  },
  email: {
    type: 'string',
    format: 'email',
    maxLength: 254,
    description: 'unique among the owners of the customer (case-insensitive)',
  },
  phone: text('phone number'),
  date_of_birth: date('date of birth (YYYY-MM-DD), at least 18 years ago'),
  nationality: country('nationality'),
  title: text('role title, e.g. Director'),
  has_control: flag('has control over the business'),
  is_signer: flag('is an authorised signatory'),
  is_beneficial_owner: flag('is a beneficial owner'),
  street: text('street address, 9 to 255 characters', 255, 9),
  city: text('city'),
  state: text('state or region'),
  zip_code: text("postal code, validated against the owner's country"),
  country: country('country of residence'),
  id_document_type: oneOf(
    ID_DOCUMENT_TYPES,
    'the ID document; drivers_license, id_card and resident_permit need a back file, a passport must not have one',
  ),
  id_document_number: text('ID document number'),
  id_document_country: country('country that issued the ID document'),
  id_expiry_date: date('ID document expiry (YYYY-MM-DD), strictly after today'),
  tin: text('tax identification number, 5 to 50 characters', 50, 5),
  is_pep: flag('is a politically exposed person'),
  usa_tax_residency: flag('is a US tax resident'),
};

export const REQUIRED_OWNER_FIELDS = ['first_name', 'last_name', 'ownership_percentage'] as const;

/** A field as a platform sends it: every limit, nullable unless `required`. */
export function requestFieldSchema(spec: FieldSpec, nullable: boolean): JsonSchema {
  const { type, enum: values, ...rest } = spec;
  if (!nullable) return { type, ...(values ? { enum: [...values] } : {}), ...rest };
  return { type: [type, 'null'], ...(values ? { enum: [...values, null] } : {}), ...rest };
}

/**
 * A field as answered: type, enum and date format only, nullable unless `required`. Limits are the
 * writer's rules; repeating them here would make the response schema a second copy to keep in step.
 */
export function responseFieldSchema(spec: FieldSpec, nullable: boolean): JsonSchema {
  const format = spec.format === 'date' ? { format: 'date' } : {};
  const base = { description: spec.description, ...format };
  if (!nullable) return { type: spec.type, ...(spec.enum ? { enum: [...spec.enum] } : {}), ...base };
  return { type: [spec.type, 'null'], ...(spec.enum ? { enum: [...spec.enum, null] } : {}), ...base };
}
