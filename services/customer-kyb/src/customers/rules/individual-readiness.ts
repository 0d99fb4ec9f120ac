import { calendarDateOf, type Today } from './calendar.js';
import { dateOfBirth } from './field-formats.js';
import type { IdDocumentType } from './owner-fields.js';
import { backIsRequired, withArticle } from './owners.js';
import { FieldProblems, firstProblemMessage, type FieldErrors } from '@corridor/validation';

/** An individual customer as submit sees it: stored values and which ID files are attached. */
export interface IndividualReadinessSubject {
  readonly first_name?: string | null;
  readonly last_name?: string | null;
  readonly country?: string | null;
  readonly date_of_birth?: string | null;
  readonly id_type?: IdDocumentType | null;
  readonly id_number?: string | null;
  readonly has_id_file: boolean;
  readonly has_id_file_back: boolean;
}

const REQUIRED = ['first_name', 'last_name', 'country', 'date_of_birth', 'id_type', 'id_number'] as const;

/**
 * Submit for an individual (decision 0008; seed 3.2 covers businesses): the identity fields, an
 * adult's date of birth, and the ID files the id_type needs: a front always, a back unless a passport.
 */
export function checkIndividualReadiness(
  subject: IndividualReadinessSubject,
  today: Today,
): { ok: true } | { ok: false; message: string; errors: FieldErrors } {
  const problems = new FieldProblems();
  for (const field of REQUIRED) {
    if (subject[field] == null) problems.add(field, 'is required before submitting for verification');
  }
  if (subject.date_of_birth != null) {
    const age = dateOfBirth(subject.date_of_birth, calendarDateOf(today));
    if (!age.ok) problems.add('date_of_birth', age.problem);
  }
  if (!subject.has_id_file) {
    problems.add('id_file', 'is required before submitting: attach the ID front with POST /customer/{id}/files');
  }
  if (subject.id_type != null && backIsRequired(subject.id_type) && !subject.has_id_file_back) {
    problems.add('id_file_back', `is required for ${withArticle(subject.id_type)}`);
  }
  if (subject.id_type === 'passport' && subject.has_id_file_back) {
    problems.add('id_file_back', 'must not be present for a passport (it has no back)');
  }
  if (problems.isEmpty) return { ok: true };
  const errors = problems.errors;
  return { ok: false, message: firstProblemMessage(errors), errors };
}
