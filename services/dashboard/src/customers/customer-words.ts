import type { JsonValue } from '@bufbuild/protobuf';
import {
  CustomerType,
  CustomerTypeSchema,
  KybDocumentType,
  KybDocumentTypeSchema,
  KybScope,
  KybScopeSchema,
  ReviewStatusSchema,
  VerificationStatus,
  VerificationStatusSchema,
  type Customer,
  type FileRef,
  type Owner,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { customerDataJson, customerVocabulary, ownerDataJson } from '@corridor/customer-json';
import type { ProtoVocabulary } from '@corridor/grpc';

/**
 * The customer API's words (decision 0025), spelt as the gateway answers them: statuses, scopes and
 * KYB document types upper case, the others lower (@corridor/contracts/customer-words). A member
 * reads the same PENDING or business as a platform's developer does in the JSON.
 */
export const CUSTOMER_TYPES = customerVocabulary(CustomerTypeSchema);
export const VERIFICATION_STATUSES = customerVocabulary(VerificationStatusSchema);
export const KYB_SCOPES = customerVocabulary(KybScopeSchema);
export const REVIEW_STATUSES = customerVocabulary(ReviewStatusSchema);
export const KYB_DOCUMENT_TYPES = customerVocabulary(KybDocumentTypeSchema);

/**
 * A value as its word; a value this dashboard does not know yet is shown, not a failed page: the
 * page is read-only and the rest of the customer is still worth reading.
 */
export function wordOf<E extends number>(vocabulary: ProtoVocabulary<E>, value: E): string {
  try {
    return vocabulary.toWord(value, vocabulary.descriptor.name);
  } catch {
    return `unknown (${value})`;
  }
}

/** seed 2.1: a business stored without a scope reads as MINIMAL; an individual has none. */
export function kybScopeOf(customer: Customer): string | undefined {
  if (customer.type !== CustomerType.BUSINESS) return undefined;
  return customer.kybScope === KybScope.UNSPECIFIED ? 'MINIMAL' : wordOf(KYB_SCOPES, customer.kybScope);
}

const textOf = (value: JsonValue | undefined): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** The name a member knows a customer by: the business name, or the person's names. */
export function customerName(customer: Customer): string {
  const fields = customerDataJson(customer);
  const name =
    customer.type === CustomerType.BUSINESS
      ? textOf(fields.business_name)
      : [textOf(fields.first_name), textOf(fields.last_name)].filter(Boolean).join(' ');
  return name || 'Unnamed customer';
}

export function ownerName(owner: Owner): string {
  const fields = ownerDataJson(owner);
  return [textOf(fields.first_name), textOf(fields.last_name)].filter(Boolean).join(' ') || 'Unnamed owner';
}

export const emailOf = (customer: Customer): string | undefined => textOf(customerDataJson(customer).email);

/** `registration_number` → "Registration number": the API's field name, read aloud. */
export function fieldLabel(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A data field's public JSON value as text: null is "Not given", booleans Yes/No, numbers as customer-kyb sent them. */
export function fieldText(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return 'Not given';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/** An owner's roles of seed 2.2, in words: the title and the flags that are set. */
export function ownerRoles(owner: Owner): string[] {
  const fields = ownerDataJson(owner);
  const roles = [textOf(fields.title)];
  if (fields.is_beneficial_owner === true) roles.push('beneficial owner');
  if (fields.is_signer === true) roles.push('signer');
  if (fields.has_control === true) roles.push('has control');
  if (fields.is_pep === true) roles.push('politically exposed person');
  return roles.filter((role): role is string => role !== undefined);
}

/** seed 2.2: a passport has no back; the other ID types need one. */
const BACK_NEEDED = ['drivers_license', 'id_card', 'resident_permit'];

export const fileIn = (files: readonly FileRef[], slot: string): FileRef | undefined =>
  files.find((file) => file.slot === slot);

/** Whether an ID type needs a back file: true, false (passport) or undefined (no type yet). */
export function backNeeded(idType: JsonValue | undefined): boolean | undefined {
  if (typeof idType !== 'string') return undefined;
  if (idType === 'passport') return false;
  return BACK_NEEDED.includes(idType) ? true : undefined;
}

/** seed 2.3's formation types: a submit needs one of them. */
const FORMATION_TYPES: readonly KybDocumentType[] = [
  KybDocumentType.CERTIFICATE_OF_INCORPORATION,
  KybDocumentType.ARTICLES_OF_INCORPORATION,
  KybDocumentType.BENEFICIAL_OWNERSHIP_CERTIFICATE,
  KybDocumentType.INCORPORATION_DOCUMENTS,
  KybDocumentType.CAC_STATUS_REPORT,
];

/** A JSON number as an exact decimal (digits and scale), or undefined for an exponent form. */
function exactDecimal(value: JsonValue | undefined): { digits: bigint; scale: number } | undefined {
  if (typeof value !== 'number') return undefined;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(String(value));
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  return { digits: BigInt(`${match[1]}${fraction}`), scale: fraction.length };
}

/** Whether percentages sum to exactly 100, added as decimals (33.33 + 33.33 + 33.34 is 100, not 99.99…). */
function sumsTo100(values: readonly (JsonValue | undefined)[]): boolean | undefined {
  const decimals = values.map(exactDecimal);
  if (decimals.some((decimal) => decimal === undefined)) return undefined;
  const known = decimals as { digits: bigint; scale: number }[];
  const scale = Math.max(0, ...known.map((decimal) => decimal.scale));
  const sum = known.reduce((total, decimal) => total + decimal.digits * 10n ** BigInt(scale - decimal.scale), 0n);
  return sum === 100n * 10n ** BigInt(scale);
}

const REQUIRED = 'is required before submitting';
const SUBMITTABLE: readonly VerificationStatus[] = [VerificationStatus.PENDING, VerificationStatus.REJECTED];

/**
 * What submit would still refuse, as far as the customer shows it (seed 3.2 for a business, the
 * individual checks of decision 0008): required fields, owners and their ID files, a formation
 * document. customer-kyb's submit stays the authority (it also checks dates, which move with time);
 * this is a to-do list for a customer that can still be submitted, empty once it is PROCESSING or VERIFIED.
 */
export function missingRequirements(customer: Customer): string[] {
  if (!SUBMITTABLE.includes(customer.verificationStatus)) return [];
  const fields = customerDataJson(customer);
  const missing: string[] = [];
  const need = (names: readonly string[]) => {
    for (const name of names)
      if (fields[name] === null || fields[name] === undefined) missing.push(`${name} ${REQUIRED}`);
  };
  if (customer.type === CustomerType.INDIVIDUAL) {
    need(['first_name', 'last_name', 'country', 'date_of_birth', 'id_type', 'id_number']);
    if (!fileIn(customer.idFiles, 'id_file')) missing.push(`id_file (the ID front) ${REQUIRED}`);
    const back = backNeeded(fields.id_type);
    const hasBack = fileIn(customer.idFiles, 'id_file_back') !== undefined;
    if (back === true && !hasBack) missing.push(`id_file_back ${REQUIRED} for a ${String(fields.id_type)}`);
    if (back === false && hasBack) missing.push('id_file_back must not be attached for a passport (it has no back)');
    return missing;
  }
  need(['business_name', 'registration_number', 'incorporation_country', 'country']);
  const incorporation = textOf(fields.incorporation_country);
  const country = textOf(fields.country);
  if (incorporation && country && incorporation !== country) {
    missing.push(`country must equal incorporation_country (${incorporation})`);
  }
  // seed 3.2: the MINIMAL path skips the owner checks (2 to 6).
  if (kybScopeOf(customer) === 'FULL') {
    const owners = customer.owners.map((owner) => ({ owner, fields: ownerDataJson(owner) }));
    if (owners.length === 0) missing.push('at least one owner is required for FULL KYB');
    else if (sumsTo100(owners.map(({ fields: { ownership_percentage } }) => ownership_percentage)) === false) {
      missing.push('owners’ ownership_percentage values must sum to exactly 100');
    }
    const emails = owners.map(({ fields: { email } }) => textOf(email)?.toLowerCase()).filter(Boolean);
    if (new Set(emails).size !== emails.length) missing.push('owners’ emails must be unique');
    for (const { owner, fields: ownerFields } of owners) {
      const name = ownerName(owner);
      if (typeof ownerFields.id_document_type !== 'string') missing.push(`${name}: id_document_type ${REQUIRED}`);
      if (!fileIn(owner.idFiles, 'id_document_front')) missing.push(`${name}: id_document_front ${REQUIRED}`);
      const back = backNeeded(ownerFields.id_document_type);
      const hasBack = fileIn(owner.idFiles, 'id_document_back') !== undefined;
      if (back === true && !hasBack) missing.push(`${name}: id_document_back ${REQUIRED}`);
      if (back === false && hasBack) missing.push(`${name}: id_document_back must not be attached for a passport`);
    }
  }
  if (!customer.documents.some((document) => FORMATION_TYPES.includes(document.type))) {
    const types = FORMATION_TYPES.map((type) => wordOf(KYB_DOCUMENT_TYPES, type)).join(', ');
    missing.push(`a formation document (${types}) ${REQUIRED}`);
  }
  return missing;
}
