import type { DescMessage } from '@bufbuild/protobuf';
import { NOT_RECOGNISED } from '@corridor/validation';
import type { CalendarDate } from './calendar.js';
import type { FieldFormat } from './field-formats.js';
import { Patch, type Nullable } from './patch.js';
import { sentProperties, type TypedBody } from './typed-body.js';
import { fieldPath } from './validation.js';
import { type FieldProblems } from '@corridor/validation';

/** Every field of a record with its format: the record's whole vocabulary. */
export type FieldFormats<T> = { readonly [K in keyof T]-?: FieldFormat<NonNullable<T[K]>> };

export { NOT_RECOGNISED };
export { SET_BY_CORRIDOR } from '@corridor/contracts/customer-words';

export interface ParseFieldsOptions<T> {
  /** Path of the record itself: '' for the body, `owners.1` for an owner. */
  readonly path: string;
  readonly today: CalendarDate;
  readonly problems: FieldProblems;
  /** Keys the caller parses itself (`type`, `owners`): skipped here. */
  readonly handled?: readonly string[];
  /** Keys that are known but refused, with the reason (read-only fields, files, …). */
  readonly refused?: Readonly<Record<string, string>>;
  /** Why a known field does not apply here (seed 2.1 rule 1), or undefined when it does. */
  readonly notApplicable?: (key: keyof T & string) => string | undefined;
}

function isFieldOf<T>(formats: FieldFormats<T>, key: string): key is keyof T & string {
  return Object.hasOwn(formats, key);
}

/**
 * Parses every property of a typed body against the record's formats. Refused, inapplicable and
 * invalid properties (and a name in `null_fields` that is no field) each become a problem at their
 * path; the valid ones are returned as a Patch, null included, so callers decide what null and
 * absence mean.
 */
export function parseFields<T extends object>(
  schema: DescMessage,
  body: TypedBody,
  formats: FieldFormats<T>,
  options: ParseFieldsOptions<T>,
): Patch<T> {
  const patch = new Patch<T>();
  for (const [key, value] of sentProperties(schema, body)) {
    if (options.handled?.includes(key)) continue;
    const path = fieldPath(options.path, key);
    const refusal = options.refused && Object.hasOwn(options.refused, key) ? options.refused[key] : undefined;
    if (refusal !== undefined) {
      options.problems.add(path, refusal);
      continue;
    }
    if (!isFieldOf(formats, key)) {
      options.problems.add(path, NOT_RECOGNISED);
      continue;
    }
    const inapplicable = options.notApplicable?.(key);
    if (inapplicable !== undefined) {
      options.problems.add(path, inapplicable);
      continue;
    }
    if (value === null) {
      patch.set(key, null);
      continue;
    }
    const result = formats[key](value, options.today);
    if (result.ok) patch.set(key, result.value);
    else options.problems.add(path, result.problem);
  }
  return patch;
}

/** On create a null is the same as an omitted property: the field is not set. */
export function withoutNulls<T extends object>(values: Nullable<T>): Partial<T> {
  const set: Partial<T> = {};
  for (const key of Object.keys(values) as (keyof T)[]) {
    const value = values[key];
    if (value !== null && value !== undefined) set[key] = value;
  }
  return set;
}

/** Create: each required field must be present and not null. */
export function requirePresent<T extends object>(
  patch: Patch<T>,
  required: readonly (keyof T & string)[],
  path: string,
  problems: FieldProblems,
  why = 'is required',
): void {
  for (const key of required) {
    const at = fieldPath(path, key);
    if (patch.get(key) == null && !problems.has(at)) problems.add(at, why);
  }
}

/** Update: a required field may be omitted (left unchanged) but never set to null. */
export function refuseNullForRequired<T extends object>(
  patch: Patch<T>,
  required: readonly (keyof T & string)[],
  path: string,
  problems: FieldProblems,
): void {
  for (const key of required) {
    if (patch.has(key) && patch.get(key) === null) {
      problems.add(fieldPath(path, key), 'is required and cannot be null; omit it to leave it unchanged');
    }
  }
}
