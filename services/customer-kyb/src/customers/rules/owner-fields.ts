import { OwnerInputSchema, type OwnerInput } from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { REFUSED_OWNER_PROPERTIES } from '@corridor/contracts/customer-words';
import type { CalendarDate } from './calendar.js';
import { checkPostalCode, parseCountryCode } from './countries.js';
import { boolean, dateOfBirth, email, futureDate, oneOf, percentage, text } from './field-formats.js';
import type { Nullable, Patch } from './patch.js';
import {
  parseFields,
  refuseNullForRequired,
  requirePresent,
  SET_BY_CORRIDOR,
  withoutNulls,
  type FieldFormats,
} from './records.js';
import { sent } from './typed-body.js';
import { fieldPath, quoted } from './validation.js';
import { describeJson, FieldProblems, isUuid, type ValidationResult } from '@corridor/validation';

export const ID_DOCUMENT_TYPES = ['passport', 'drivers_license', 'id_card', 'resident_permit'] as const;
export type IdDocumentType = (typeof ID_DOCUMENT_TYPES)[number];

/** The owner input fields of seed 2.2, every one of them. */
export interface OwnerFieldValues {
  first_name: string;
  last_name: string;
  ownership_percentage: number;
  email: string;
  phone: string;
  date_of_birth: string;
  nationality: string;
  title: string;
  has_control: boolean;
  is_signer: boolean;
  is_beneficial_owner: boolean;
  street: string;
  city: string;
  state: string;
  zip_code: string;
  country: string;
  id_document_type: IdDocumentType;
  id_document_number: string;
  id_document_country: string;
  id_expiry_date: string;
  tin: string;
  is_pep: boolean;
  usa_tax_residency: boolean;
}
export type OwnerField = keyof OwnerFieldValues;

// seed 2.2 (field table) and seed 8 (limits).
export const OWNER_FORMATS: FieldFormats<OwnerFieldValues> = {
  first_name: text(1, 255),
  last_name: text(1, 255),
  ownership_percentage: percentage,
  email,
  phone: text(1, 255),
  date_of_birth: dateOfBirth,
  nationality: parseCountryCode,
  title: text(1, 255),
  has_control: boolean,
  is_signer: boolean,
  is_beneficial_owner: boolean,
  street: text(9, 255),
  city: text(1, 255),
  state: text(1, 255),
  zip_code: text(1, 255),
  country: parseCountryCode,
  id_document_type: oneOf(ID_DOCUMENT_TYPES),
  id_document_number: text(1, 255),
  id_document_country: parseCountryCode,
  id_expiry_date: futureDate,
  tin: text(5, 50),
  is_pep: boolean,
  usa_tax_residency: boolean,
};

/** Every owner input field of seed 2.2, in the seed's order. */
export const OWNER_FIELDS = Object.keys(OWNER_FORMATS) as readonly OwnerField[];

export const REQUIRED_OWNER_FIELDS = ['first_name', 'last_name', 'ownership_percentage'] as const;
type RequiredOwnerField = (typeof REQUIRED_OWNER_FIELDS)[number];

/** A valid new owner: the three required fields and whichever optional ones were sent. */
export type NewOwner = Pick<OwnerFieldValues, RequiredOwnerField> & Partial<Omit<OwnerFieldValues, RequiredOwnerField>>;

/** A change to an existing owner (entry with `id`), with seed 2.1 rule 2's presence semantics. */
export interface OwnerPatch {
  readonly id: string;
  readonly patch: Patch<OwnerFieldValues>;
}

/** Properties an owner entry may not carry, with why (records returned by the API have them). */
const REFUSED_OWNER_KEYS = REFUSED_OWNER_PROPERTIES;

/**
 * An owner's postal code against its country (seed 2.1's `zip_code`/`country` rule, applied to the
 * owner's own address). Runs on a whole owner: a new one, or an existing one after its patch.
 */
export function checkOwnerAddress(owner: Nullable<OwnerFieldValues>, path: string, problems: FieldProblems): void {
  if (owner.zip_code == null || owner.country == null) return;
  const zipProblem = checkPostalCode(owner.zip_code, owner.country);
  if (zipProblem) problems.add(fieldPath(path, 'zip_code'), zipProblem);
}

const sentOf = (entry: OwnerInput, name: string) => sent(OwnerInputSchema, entry, name);

/**
 * The email and percentage of each owner entry as sent, when valid (else null), so the set rules
 * (unique emails, sum to 100) are reported alongside an entry's other problems, not after them.
 */
export function ownerSetFacts(
  entries: readonly OwnerInput[],
  today: CalendarDate,
): { email: string | null; ownership_percentage: number | null }[] {
  return entries.map((entry) => {
    const address = email(sentOf(entry, 'email'), today);
    const share = percentage(sentOf(entry, 'ownership_percentage'), today);
    return { email: address.ok ? address.value : null, ownership_percentage: share.ok ? share.value : null };
  });
}

/** A new owner (seed 2.2): required fields, every format, its address. Problems go under `path`. */
export function parseNewOwner(
  entry: OwnerInput,
  path: string,
  today: CalendarDate,
  problems: FieldProblems,
): NewOwner | undefined {
  const found = new FieldProblems();
  const refused = { id: SET_BY_CORRIDOR, ...REFUSED_OWNER_KEYS };
  const patch = parseFields(OwnerInputSchema, entry, OWNER_FORMATS, { path, today, problems: found, refused });
  requirePresent(patch, [...REQUIRED_OWNER_FIELDS], path, found);
  const values = withoutNulls(patch.values);
  checkOwnerAddress(values, path, found);
  problems.addAll(found.errors);
  const { first_name, last_name, ownership_percentage } = values;
  if (!found.isEmpty || first_name === undefined || last_name === undefined || ownership_percentage === undefined) {
    return undefined;
  }
  return { ...values, first_name, last_name, ownership_percentage };
}

/**
 * A change to an existing owner on update (seed 2.1 rule 2: null writes null, omitted is
 * untouched; required fields cannot be null). The entry names the owner by `id`.
 */
export function parseOwnerPatch(
  entry: OwnerInput,
  path: string,
  today: CalendarDate,
  problems: FieldProblems,
): OwnerPatch | undefined {
  const found = new FieldProblems();
  const id = sentOf(entry, 'id');
  if (typeof id !== 'string' || !isUuid(id)) {
    const got = typeof id === 'string' ? quoted(id) : describeJson(id);
    found.add(fieldPath(path, 'id'), `must be the owner's id (a uuid), got ${got}`);
  }
  const patch = parseFields(OwnerInputSchema, entry, OWNER_FORMATS, {
    path,
    today,
    problems: found,
    handled: ['id'],
    refused: REFUSED_OWNER_KEYS,
  });
  refuseNullForRequired(patch, [...REQUIRED_OWNER_FIELDS], path, found);
  problems.addAll(found.errors);
  if (!found.isEmpty || typeof id !== 'string') return undefined;
  return { id: id.toLowerCase(), patch };
}

/** An existing owner after its patch, with the checks that need the whole owner. */
export function applyOwnerPatch<C extends Nullable<OwnerFieldValues>>(
  current: C,
  change: OwnerPatch,
  path: string,
): ValidationResult<C> {
  const problems = new FieldProblems();
  const merged = change.patch.applyTo(current);
  checkOwnerAddress(merged, path, problems);
  return problems.resultOf(() => merged);
}
