import { CONTROL_PROBLEM, hasControlCharacter } from '@corridor/validation';
import { compareDates, formatDate, hasReachedAge, parseCalendarDate, type CalendarDate } from './calendar.js';
import { parsed, problem, type Parsed, quoted } from './validation.js';
import { describeJson } from '@corridor/validation';

/** How one field's JSON value becomes a typed value; `today` is injected for date rules. */
export type FieldFormat<T> = (value: unknown, today: CalendarDate) => Parsed<T>;

/** Length in characters (Unicode code points), not UTF-16 units: "é" and "😀" count one each. */
export function characterCount(text: string): number {
  return [...text].length;
}

/**
 * A string of `min` to `max` characters. A blank string is never a value: to clear an optional
 * field on update a platform sends null (seed 2.1 rule 2). Strings are kept as sent, not trimmed.
 */
export function text(min = 1, max = 255): FieldFormat<string> {
  return (value) => {
    if (typeof value !== 'string') return problem(`must be a string, got ${describeJson(value)}`);
    if (value.trim() === '') return problem('must not be blank');
    // The gateway refuses these first; a NUL reaching PostgreSQL would be a driver error, not a 422.
    if (hasControlCharacter(value)) return problem(CONTROL_PROBLEM);
    const length = characterCount(value);
    if (length < min || length > max) {
      return problem(
        min > 1
          ? `must be ${min} to ${max} characters (got ${length})`
          : `must be at most ${max} characters (got ${length})`,
      );
    }
    return parsed(value);
  };
}

/** One of an enum's values, exactly as written (case-sensitive). */
export function oneOf<const V extends string>(values: readonly V[]): FieldFormat<V> {
  const list = values.join(', ');
  return (value) => {
    if (typeof value === 'string' && (values as readonly string[]).includes(value)) return parsed(value as V);
    return problem(`must be one of ${list}; got ${typeof value === 'string' ? quoted(value) : describeJson(value)}`);
  };
}

export const boolean: FieldFormat<boolean> = (value) =>
  typeof value === 'boolean' ? parsed(value) : problem(`must be true or false, got ${describeJson(value)}`);

/** A whole JSON number, at least `min` (`12.0` is whole; `"12"` is a string). */
export function integer(min: number): FieldFormat<number> {
  return (value) => {
    if (typeof value !== 'number')
      return problem(`must be a whole number of at least ${min}, got ${describeJson(value)}`);
    if (!Number.isSafeInteger(value)) return problem(`must be a whole number (got ${value})`);
    return value < min ? problem(`must be at least ${min} (got ${value})`) : parsed(value);
  };
}

/**
 * seed 2.2 says only "0 to 100"; six decimal places bound it (decision 0019), enough for any split a
 * cap table writes (1/3 as 33.333333) while sums stay exact integers far below 2^53.
 */
export const PERCENTAGE_DECIMALS = 6;
export const PERCENTAGE_SCALE = 10 ** PERCENTAGE_DECIMALS;

/**
 * A percentage as an integer count of millionths, read from its decimal text (the shortest one that
 * reads back as the same double: what the platform sent, and what JSON.stringify stores), so sums are
 * exact: 33.333 + 33.333 + 33.334 is exactly 100_000_000, with no float added. undefined for a
 * negative, a non-finite, or more than PERCENTAGE_DECIMALS decimals (refused, never rounded).
 */
export function toMillionths(value: number): number | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(String(value));
  const [, whole = '', fraction = ''] = match ?? [];
  if (!match || fraction.length > PERCENTAGE_DECIMALS) return undefined;
  return Number(whole) * PERCENTAGE_SCALE + Number(fraction.padEnd(PERCENTAGE_DECIMALS, '0'));
}

/** seed 2.2: `ownership_percentage` is a number from 0 to 100, here with at most six decimal places. */
export const percentage: FieldFormat<number> = (value) => {
  if (typeof value !== 'number' || !Number.isFinite(value))
    return problem(`must be a number from 0 to 100, got ${describeJson(value)}`);
  if (value < 0 || value > 100) return problem(`must be from 0 to 100 (got ${value})`);
  if (toMillionths(value) === undefined) {
    return problem(`must have at most ${PERCENTAGE_DECIMALS} decimal places (got ${value})`);
  }
  return parsed(value);
};

/**
 * An email address: the HTML Standard's "valid email address" (what browsers check), with a domain
 * of at least two labels, at most 254 characters (RFC 5321's path limit).
 */
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export const email: FieldFormat<string> = (value) => {
  if (typeof value !== 'string') return problem(`must be an email address, got ${describeJson(value)}`);
  if (value.length > 254) return problem(`must be at most 254 characters (got ${value.length})`);
  return EMAIL.test(value)
    ? parsed(value)
    : problem(`must be an email address like name@example.com; got ${quoted(value)}`);
};

/** An absolute http or https URI with a host, at most 2048 characters, no whitespace. */
export const httpUri: FieldFormat<string> = (value) => {
  if (typeof value !== 'string') return problem(`must be an http or https URI, got ${describeJson(value)}`);
  if (value.length > 2048) return problem(`must be at most 2048 characters (got ${value.length})`);
  let url: URL | undefined;
  try {
    url = /\s/.test(value) ? undefined : new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    return problem(`must be an http or https URI like https://example.com; got ${quoted(value)}`);
  }
  return parsed(value);
};

function date(value: unknown): Parsed<CalendarDate> {
  if (typeof value !== 'string') return problem(`must be a date as YYYY-MM-DD, got ${describeJson(value)}`);
  const day = parseCalendarDate(value);
  return day ? parsed(day) : problem(`must be a real calendar date as YYYY-MM-DD; got ${quoted(value)}`);
}

/** A date strictly before today (seed 2.1: `incorporation_date` must be in the past). */
export const pastDate: FieldFormat<string> = (value, today) => {
  const day = date(value);
  if (!day.ok) return day;
  return compareDates(day.value, today) < 0
    ? parsed(formatDate(day.value))
    : problem(`must be in the past (before ${formatDate(today)})`);
};

/** A date strictly after today (seed 2.2: `id_expiry_date`; a document expiring today is expired). */
export const futureDate: FieldFormat<string> = (value, today) => {
  const day = date(value);
  if (!day.ok) return day;
  return compareDates(day.value, today) > 0
    ? parsed(formatDate(day.value))
    : problem(`must be after today (${formatDate(today)}): the ID document has expired`);
};

export const MINIMUM_AGE = 18;

/** A date of birth at least 18 years ago (seed 2.2, seed 8): the 18th birthday is today or earlier. */
export const dateOfBirth: FieldFormat<string> = (value, today) => {
  const day = date(value);
  if (!day.ok) return day;
  return hasReachedAge(day.value, today, MINIMUM_AGE)
    ? parsed(formatDate(day.value))
    : problem(`must be at least ${MINIMUM_AGE} years before today (${formatDate(today)})`);
};
