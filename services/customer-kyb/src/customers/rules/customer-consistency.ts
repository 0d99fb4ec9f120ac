import { checkPostalCode, isAlpha2 } from './countries.js';
import { OPERATING_FIELDS, type CustomerFieldValues, type CustomerType } from './customer-fields.js';
import type { Nullable } from './patch.js';
import type { FieldProblems } from '@corridor/validation';

const JURISDICTION_HINT = 'when changing jurisdiction send country and incorporation_country together';

/**
 * The rules between fields of one customer, run on a whole customer: the body on create, the
 * current customer with the patch applied on update and upgrade. `changed` (update only) says which
 * fields the request sent, so a problem names the field the platform actually touched.
 */
export function checkCustomerConsistency(
  type: CustomerType,
  customer: Nullable<CustomerFieldValues>,
  problems: FieldProblems,
  changed: (field: keyof CustomerFieldValues) => boolean = () => true,
): void {
  if (type === 'business') {
    checkJurisdiction(customer, problems, changed);
    checkOperatingCountryPresent(customer, problems);
  }
  checkPostalCodeAgainst(customer, 'zip_code', 'country', problems);
  if (type === 'business') checkPostalCodeAgainst(customer, 'operating_zip_code', 'operating_country', problems);
}

/** seed 2.1 (`country` notes), seed 4.2, seed 7: a business's `country` equals `incorporation_country`. */
function checkJurisdiction(
  customer: Nullable<CustomerFieldValues>,
  problems: FieldProblems,
  changed: (field: keyof CustomerFieldValues) => boolean,
): void {
  const { country, incorporation_country: incorporation } = customer;
  if (country == null || incorporation == null || country === incorporation) return;
  if (!isAlpha2(country) || !isAlpha2(incorporation)) return; // already reported as a bad code
  if (!changed('country') && changed('incorporation_country')) {
    problems.add('incorporation_country', `must equal country (${country}) for a business; ${JURISDICTION_HINT}`);
  } else {
    problems.add('country', `must equal incorporation_country (${incorporation}) for a business; ${JURISDICTION_HINT}`);
  }
}

/** seed 2.1 and 4.2: `operating_country` is required whenever any other `operating_*` field is supplied. */
function checkOperatingCountryPresent(customer: Nullable<CustomerFieldValues>, problems: FieldProblems): void {
  if (customer.operating_country != null || problems.has('operating_country')) return;
  const others = OPERATING_FIELDS.filter((field) => field !== 'operating_country' && customer[field] != null);
  if (others.length > 0) {
    problems.add('operating_country', `is required when any other operating_* field is sent (${others.join(', ')})`);
  }
}

/** seed 2.1: `zip_code` is validated against `country`, `operating_zip_code` against `operating_country`. */
function checkPostalCodeAgainst(
  customer: Nullable<CustomerFieldValues>,
  zipField: 'zip_code' | 'operating_zip_code',
  countryField: 'country' | 'operating_country',
  problems: FieldProblems,
): void {
  const zip = customer[zipField];
  const country = customer[countryField];
  if (zip == null || country == null || !isAlpha2(country) || problems.has(zipField)) return;
  const zipProblem = checkPostalCode(zip, country);
  if (zipProblem) problems.add(zipField, zipProblem);
}
