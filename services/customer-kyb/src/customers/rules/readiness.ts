import { calendarDateOf, type CalendarDate, type Today } from './calendar.js';
import { parseCountryCode } from './countries.js';
import { dateOfBirth, futureDate, type FieldFormat } from './field-formats.js';
import { effectiveKybScope, type KybScope } from './kyb-scope.js';
import { FORMATION_DOCUMENT_TYPES, isFormationDocumentType } from './kyb-documents.js';
import type { IdDocumentType } from './owner-fields.js';
import { checkIdSlots, checkOwnerEmailsUnique, checkOwnershipSumsTo100, OWNERS_PATH, type IdSlot } from './owners.js';
import { fieldPath } from './validation.js';
import { FieldProblems, firstProblemMessage, type FieldErrors } from '@corridor/validation';

/** An owner as submit sees it: stored values and which ID slots hold a file. */
export interface ReadinessOwner {
  readonly ownership_percentage: number | null;
  readonly email: string | null;
  readonly date_of_birth: string | null;
  readonly id_expiry_date: string | null;
  readonly nationality: string | null;
  readonly country: string | null;
  readonly id_document_country: string | null;
  readonly id_document_type: IdDocumentType | null;
  readonly id_slots: readonly IdSlot[];
}

/** A business customer as submit sees it (seed 3.2 runs for business customers). */
export interface ReadinessSubject {
  readonly kyb_scope: KybScope | null;
  readonly business_name: string | null;
  readonly registration_number: string | null;
  readonly incorporation_country: string | null;
  readonly country: string | null;
  readonly owners: readonly ReadinessOwner[];
  readonly documents: readonly { readonly type: string }[];
}

/** One readiness check of seed 3.2: its rule number, and its own problems when it fails. */
export interface ReadinessCheck {
  readonly name: string;
  readonly rule: number;
  /** Owner checks (rules 2–6) are skipped on the MINIMAL path (seed 3.2, last paragraph). */
  readonly ownersOnly: boolean;
  readonly run: (subject: ReadinessSubject, today: CalendarDate) => FieldErrors | undefined;
}

const REQUIRED_TO_SUBMIT = 'is required before submitting for verification';

function orUndefined(problems: FieldProblems): FieldErrors | undefined {
  return problems.isEmpty ? undefined : problems.errors;
}

/** seed 3.2 rule 1 */
const BusinessIdentityComplete: ReadinessCheck = {
  name: 'BusinessIdentityComplete',
  rule: 1,
  ownersOnly: false,
  run: (subject) => {
    const problems = new FieldProblems();
    if (!subject.business_name?.trim()) problems.add('business_name', REQUIRED_TO_SUBMIT);
    if (!subject.registration_number?.trim()) problems.add('registration_number', REQUIRED_TO_SUBMIT);
    const incorporation = subject.incorporation_country;
    const code = incorporation == null ? undefined : parseCountryCode(incorporation);
    if (code === undefined) problems.add('incorporation_country', REQUIRED_TO_SUBMIT);
    else if (!code.ok) problems.add('incorporation_country', code.problem);
    if (subject.country == null) problems.add('country', REQUIRED_TO_SUBMIT);
    else if (code?.ok && subject.country !== incorporation) {
      problems.add(
        'country',
        `must equal incorporation_country (${incorporation}) before submitting; when changing jurisdiction send both together`,
      );
    }
    return orUndefined(problems);
  },
};

/** seed 3.2 rule 2 */
const AtLeastOneOwner: ReadinessCheck = {
  name: 'AtLeastOneOwner',
  rule: 2,
  ownersOnly: true,
  run: (subject) =>
    subject.owners.length > 0 ? undefined : { [OWNERS_PATH]: ['must include at least one owner for FULL KYB'] },
};

/** seed 3.2 rule 3 */
const OwnershipMustSumTo100: ReadinessCheck = {
  name: 'OwnershipMustSumTo100',
  rule: 3,
  ownersOnly: true,
  run: (subject) => checkOwnershipSumsTo100(subject.owners),
};

/** seed 3.2 rule 4 */
const OwnerEmailsUnique: ReadinessCheck = {
  name: 'OwnerEmailsUnique',
  rule: 4,
  ownersOnly: true,
  run: (subject) => checkOwnerEmailsUnique(subject.owners),
};

/** seed 3.2 rule 5 (slots of seed 2.2) */
const OwnerIdSlotsConsistent: ReadinessCheck = {
  name: 'OwnerIdSlotsConsistent',
  rule: 5,
  ownersOnly: true,
  run: (subject) => {
    const problems = new FieldProblems();
    subject.owners.forEach((owner, index) => {
      problems.addAll(checkIdSlots(owner.id_document_type, owner.id_slots, fieldPath(OWNERS_PATH, index)) ?? {});
    });
    return orUndefined(problems);
  },
};

type OwnerInvariantField = 'date_of_birth' | 'id_expiry_date' | 'nationality' | 'country' | 'id_document_country';

const OWNER_INVARIANTS: readonly [OwnerInvariantField, FieldFormat<string>][] = [
  ['date_of_birth', dateOfBirth],
  ['id_expiry_date', futureDate],
  ['nationality', parseCountryCode],
  ['country', parseCountryCode],
  ['id_document_country', parseCountryCode],
];

/** seed 3.2 rule 6: checked again at submit, because time passes (an adult yesterday, expired today). */
const OwnerIdentityInvariants: ReadinessCheck = {
  name: 'OwnerIdentityInvariants',
  rule: 6,
  ownersOnly: true,
  run: (subject, today) => {
    const problems = new FieldProblems();
    subject.owners.forEach((owner, index) => {
      for (const [field, format] of OWNER_INVARIANTS) {
        const value = owner[field];
        if (value == null) continue; // optional in seed 2.2: checked where set
        const result = format(value, today);
        if (!result.ok) problems.add(fieldPath(OWNERS_PATH, index, field), result.problem);
      }
    });
    return orUndefined(problems);
  },
};

/** seed 3.2 rule 7 (types of seed 2.3) */
const FormationDocumentPresent: ReadinessCheck = {
  name: 'FormationDocumentPresent',
  rule: 7,
  ownersOnly: false,
  run: (subject) =>
    subject.documents.some((document) => isFormationDocumentType(document.type))
      ? undefined
      : { documents: [`must include at least one formation document (${FORMATION_DOCUMENT_TYPES.join(', ')})`] },
};

/** seed 3.2, in the seed's order. */
export const READINESS_CHECKS: readonly ReadinessCheck[] = [
  BusinessIdentityComplete,
  AtLeastOneOwner,
  OwnershipMustSumTo100,
  OwnerEmailsUnique,
  OwnerIdSlotsConsistent,
  OwnerIdentityInvariants,
  FormationDocumentPresent,
];

export type ReadinessOutcome =
  | { readonly ok: true; readonly kybScope: KybScope }
  | {
      readonly ok: false;
      readonly check: string;
      readonly rule: number;
      /** The 422 `message`: the failed check's first problem, naming the field. */
      readonly message: string;
      readonly errors: FieldErrors;
    };

/**
 * Runs the readiness checks of seed 3.2 in order and reports the first that fails (each a 422 with
 * its own message). A MINIMAL business (or one with no scope: seed 2.1) skips the owner checks 2–6
 * and still needs its identity fields and a formation document.
 */
export function checkReadiness(subject: ReadinessSubject, today: Today): ReadinessOutcome {
  const kybScope = effectiveKybScope(subject.kyb_scope);
  const day = calendarDateOf(today);
  for (const check of READINESS_CHECKS) {
    if (check.ownersOnly && kybScope === 'MINIMAL') continue;
    const errors = check.run(subject, day);
    if (errors) return { ok: false, check: check.name, rule: check.rule, message: firstProblemMessage(errors), errors };
  }
  return { ok: true, kybScope };
}
