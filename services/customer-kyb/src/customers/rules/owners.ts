import { PERCENTAGE_DECIMALS, PERCENTAGE_SCALE, toMillionths } from './field-formats.js';
import type { IdDocumentType } from './owner-fields.js';
import { fieldPath } from './validation.js';
import { FieldProblems, type FieldErrors } from '@corridor/validation';

export const OWNERS_PATH = 'owners';

/** seed 4.2 and seed 8: an upgrade request carries 1 to 5 owners. */
export const UPGRADE_OWNERS_MIN = 1;
export const UPGRADE_OWNERS_MAX = 5;

const EXACTLY_100 = 100 * PERCENTAGE_SCALE;

/** "90", "99.999999", "100.5" from millionths, for messages. */
function formatMillionths(millionths: number): string {
  const whole = Math.trunc(millionths / PERCENTAGE_SCALE);
  const fraction = String(millionths % PERCENTAGE_SCALE)
    .padStart(PERCENTAGE_DECIMALS, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}

/**
 * seed 2.2, seed 3.2 rule 3, seed 4.2: the owners' `ownership_percentage` values sum to exactly 100.
 * Summed as integer millionths, so 33.333 + 33.333 + 33.334 is exactly 100 and no tolerance is needed.
 * A missing or unrepresentable percentage is reported at its own path.
 */
export function checkOwnershipSumsTo100(
  owners: readonly { readonly ownership_percentage?: number | null }[],
  path = OWNERS_PATH,
): FieldErrors | undefined {
  const problems = new FieldProblems();
  let total = 0;
  owners.forEach((owner, index) => {
    const value = owner.ownership_percentage;
    const millionths = value == null ? undefined : toMillionths(value);
    if (millionths === undefined) {
      problems.add(
        fieldPath(path, index, 'ownership_percentage'),
        `must be a number from 0 to 100 with at most ${PERCENTAGE_DECIMALS} decimal places`,
      );
    } else total += millionths;
  });
  if (problems.isEmpty && total !== EXACTLY_100) {
    problems.add(path, `ownership_percentage values must sum to exactly 100 (they sum to ${formatMillionths(total)})`);
  }
  return problems.isEmpty ? undefined : problems.errors;
}

/**
 * seed 2.2 and seed 3.2 rule 4: owner emails are unique within the customer, ignoring case. Each
 * repeat is reported at its own path (the first use of an address is not a problem).
 */
export function checkOwnerEmailsUnique(
  owners: readonly { readonly email?: string | null }[],
  path = OWNERS_PATH,
): FieldErrors | undefined {
  const problems = new FieldProblems();
  const seen = new Set<string>();
  owners.forEach((owner, index) => {
    if (owner.email == null) return;
    const address = owner.email.toLowerCase();
    if (seen.has(address)) {
      problems.add(fieldPath(path, index, 'email'), 'must be unique within the customer (case-insensitive)');
    }
    seen.add(address);
  });
  return problems.isEmpty ? undefined : problems.errors;
}

/** seed 4.2 and seed 8: 1 to 5 owners per upgrade request. */
export function checkUpgradeOwnerCount(count: number): string | undefined {
  if (count < UPGRADE_OWNERS_MIN) return 'must list at least one owner (an upgrade to FULL KYB needs owners)';
  if (count > UPGRADE_OWNERS_MAX) return `must list at most ${UPGRADE_OWNERS_MAX} owners (got ${count})`;
  return undefined;
}

export const ID_SLOTS = ['id_document_front', 'id_document_back'] as const;
export type IdSlot = (typeof ID_SLOTS)[number];

/** seed 2.2: two-sided documents need a back; a passport must not have one. */
const TWO_SIDED: Readonly<Record<IdDocumentType, boolean>> = {
  passport: false,
  drivers_license: true,
  id_card: true,
  resident_permit: true,
};

/** "a passport", "an id_card". */
export function withArticle(type: IdDocumentType): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

export function backIsRequired(type: IdDocumentType): boolean {
  return TWO_SIDED[type];
}

/**
 * Whether a file may go into a slot for an owner's document type (seed 2.2: a passport has no
 * back), so an upload is refused at once rather than at submit.
 */
export function checkIdSlotUpload(type: IdDocumentType | null | undefined, slot: IdSlot): string | undefined {
  if (slot === 'id_document_back' && type === 'passport') return 'must not be uploaded for a passport (it has no back)';
  return undefined;
}

/**
 * seed 2.2 and seed 3.2 rule 5: ID slot consistency for one owner. Every owner needs a front;
 * drivers_license, id_card and resident_permit need a back; a passport must not have a back.
 * Without an `id_document_type` the slots cannot be judged, so the type is required here.
 */
export function checkIdSlots(
  type: IdDocumentType | null | undefined,
  slots: readonly IdSlot[],
  path: string,
): FieldErrors | undefined {
  const problems = new FieldProblems();
  if (type == null) {
    problems.add(
      fieldPath(path, 'id_document_type'),
      'is required to check the owner ID files (front, and back unless a passport)',
    );
  }
  if (!slots.includes('id_document_front')) {
    problems.add(fieldPath(path, 'id_document_front'), 'is required: every owner needs the front of an ID document');
  }
  if (type != null && backIsRequired(type) && !slots.includes('id_document_back')) {
    problems.add(fieldPath(path, 'id_document_back'), `is required for ${withArticle(type)}`);
  }
  if (type === 'passport' && slots.includes('id_document_back')) {
    problems.add(fieldPath(path, 'id_document_back'), 'must not be present for a passport (it has no back)');
  }
  return problems.isEmpty ? undefined : problems.errors;
}
