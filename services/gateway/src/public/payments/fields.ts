import { z } from '@corridor/config';
import { describeJson } from '@corridor/validation';
import { parseDateTime } from '../webhooks/delivery-query.js';
import type { ProtoVocabulary } from './vocabulary.js';
import { HTTPS_URL_PATTERN } from '../../openapi/text-boundary.js';

/**
 * The typed fields of the payments routes' bodies and queries, each with the problem it names
 * (422 VALIDATION_FAILED, `errors` by field). Only types and shapes: whether a currency exists,
 * a pair is supported or a balance suffices is payments' to say.
 */

/** What was sent, for a message: short, and never the whole of a long value. */
export function shown(input: unknown): string {
  if (typeof input === 'number') return Number.isFinite(input) ? String(input) : 'a number too large for JSON';
  if (typeof input === 'string')
    return input.length > 40 ? `${JSON.stringify(input.slice(0, 40))}…` : JSON.stringify(input);
  return describeJson(input);
}

/** The message of a missing field or one of the wrong JSON type. */
export const typeProblem =
  (expected: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined
      ? 'is required'
      : `must be ${expected}, got ${typeof issue.input === 'number' ? shown(issue.input) : describeJson(issue.input)}`;

/**
 * An amount in minor units: a JSON integer from `least` to 2^53 - 1, the largest a double holds
 * exactly (a larger one has already been rounded by JSON.parse, so it cannot be taken as sent).
 */
function minorUnits(least: 0 | 1) {
  const below = (issue: { input?: unknown }) =>
    `must be ${least === 1 ? 'greater than 0' : 'at least 0'}, got ${shown(issue.input)}`;
  const type = typeProblem('a whole number of minor units (a JSON integer)');
  return z
    .int({
      error: (issue) =>
        issue.code === 'too_big'
          ? `must be at most ${Number.MAX_SAFE_INTEGER} (2^53 - 1), got ${shown(issue.input)}`
          : issue.code === 'too_small'
            ? below(issue)
            : type(issue),
    })
    .min(least, { error: below });
}

/** A payment amount: 1 minor unit or more. */
export const positiveMinorUnits = () => minorUnits(1);

/** A fee part or cap: 0 minor units or more. */
export const nonNegativeMinorUnits = () => minorUnits(0);

/** Basis points of a whole (10000 = 100 %). */
export const basisPoints = () => {
  const range = (issue: { input?: unknown }) => `must be from 0 to 10000 basis points, got ${shown(issue.input)}`;
  const type = typeProblem('a whole number of basis points (a JSON integer)');
  return z
    .int({ error: (issue) => (issue.code === 'invalid_type' ? type(issue) : range(issue)) })
    .min(0, { error: range })
    .max(10_000, { error: range });
};

/** An ISO 4217 code (or a crypto asset's ticker); payments says whether it is one it holds. */
export const currencyCode = () =>
  z
    .string({ error: typeProblem('a currency code such as NGN') })
    .regex(/^[A-Z0-9]{2,12}$/, { error: (issue) => `must be a currency code such as NGN, got ${shown(issue.input)}` })
    .meta({ description: 'ISO 4217 code in capitals, e.g. NGN (crypto assets: their ticker)', examples: ['NGN'] });

/** An ISO 3166 alpha-2 country code in capitals. */
export const countryCode = () =>
  z
    .string({ error: typeProblem('a country code such as NG') })
    .regex(/^[A-Z]{2}$/, { error: (issue) => `must be an ISO 3166 country code such as NG, got ${shown(issue.input)}` })
    .meta({ description: 'ISO 3166 alpha-2 code in capitals, e.g. NG', examples: ['NG'] });

/**
 * A bank's code in its scheme: CBN code (3 digits), sort code (6), routing number (9) or BIC (8 or
 * 11). Only the shape here; payments says whether it names a bank (UNKNOWN_BANK).
 */
export const bankCode = () =>
  z
    .string({ error: typeProblem('a bank code such as 058') })
    .regex(/^[A-Za-z0-9]{3,11}$/, {
      error: (issue) =>
        `must be 3 to 11 letters or digits (a CBN code, sort code, routing number or BIC), got ${shown(issue.input)}`,
    })
    .meta({
      description: 'the bank’s code from GET /api/external/bank: CBN code, sort code, routing number or BIC',
      examples: ['058'],
    });

/**
 * An account number: NUBAN, UK account number, IBAN or US account number, written without spaces.
 * Only the shape here; payments checks the check digits (INVALID_ACCOUNT_NUMBER).
 */
export const accountNumber = () =>
  z
    .string({ error: typeProblem('an account number such as 0123456789') })
    .regex(/^[A-Za-z0-9]{4,34}$/, {
      error: (issue) => `must be 4 to 34 letters or digits, without spaces or dashes, got ${shown(issue.input)}`,
    })
    .meta({
      description: 'NUBAN, UK account number, IBAN or US account number, without spaces',
      examples: ['0123456785'],
    });

/** A JSON true or false (never the strings "true" or "false"). */
export const flag = (description: string) => z.boolean({ error: typeProblem('true or false') }).meta({ description });

/** An id Corridor issued: 8-4-4-4-12 hexadecimal digits. */
export const uuidField = (description: string) =>
  z
    .guid({
      error: (issue) => (issue.input === undefined ? 'is required' : `must be a uuid, got ${shown(issue.input)}`),
    })
    .meta({ description });

/** One of a proto enum's public words. */
export const wordOf = (vocabulary: ProtoVocabulary<number>, description: string) =>
  z
    .enum(vocabulary.words, {
      error: (issue) =>
        issue.input === undefined
          ? 'is required'
          : `must be one of ${vocabulary.words.join(', ')}, got ${shown(issue.input)}`,
    })
    .meta({ description });

// NUL and other control characters are refused at the edge (DESIGN.md "Errors tell the truth").
// Unicode's Cc spelt as ranges, not \p{Cc}: the document's pattern must read alike in any regex dialect.
// eslint-disable-next-line no-control-regex -- the point: the characters no text may hold
const PRINTABLE = /^[^\u0000-\u001F\u007F-\u009F]*$/;

/** Free text the platform chooses (a reference, a reason): printable, at most `max` characters. */
export const text = (max: number, description: string) =>
  z
    .string({ error: typeProblem('a string') })
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .regex(PRINTABLE, 'must not contain control characters')
    .meta({ description });

/**
 * Free text whose length the owning service checks: here only printable (no service refuses control
 * characters); `documented` states the service's own rules (minLength, maxLength) in the document.
 */
export const printableText = (description: string, documented: Record<string, unknown> = {}) =>
  z
    .string({ error: typeProblem('a string') })
    .regex(PRINTABLE, 'must not contain control characters')
    .meta({ ...documented, description });

/** A decimal rate as a string (never a float): units of the quote currency per unit of the base. */
export const decimalRate = () =>
  z
    .string({ error: typeProblem('a decimal string such as "1500.25"') })
    .regex(/^(0|[1-9]\d{0,17})(\.\d{1,12})?$/, {
      error: (issue) =>
        `must be a decimal string with at most 12 fraction digits, such as "1500.25", got ${shown(issue.input)}`,
    })
    .refine((rate) => /[1-9]/.test(rate), 'must be greater than 0')
    .meta({ description: 'decimal string, at most 12 fraction digits', examples: ['1500.25'] });

/* Query parameters arrive as text: each is read from its string, and documented as what it means. */

/** A query integer from `min` to `max`, written in decimal digits only (no sign, exponent or point). */
export const queryInteger = (min: number, max: number, unit: string) => {
  const range = `must be a whole number of ${unit} from ${min} to ${max}`;
  return z
    .string({ error: typeProblem('text') })
    .regex(/^\d{1,16}$/, { error: (issue) => `${range}, got ${shown(issue.input)}` })
    .transform(Number)
    .pipe(
      z
        .int({ error: (issue) => `${range}, got ${shown(issue.input)}` })
        .min(min, { error: (issue) => `${range}, got ${shown(issue.input)}` })
        .max(max, { error: (issue) => `${range}, got ${shown(issue.input)}` }),
    );
};

/** An RFC 3339 date-time with a time zone, as the instant it names. */
export const queryDateTime = (description: string) =>
  z
    .string({ error: typeProblem('text') })
    .refine((value) => parseDateTime(value) !== undefined, {
      error: (issue) =>
        `must be an ISO 8601 date-time with a time zone, e.g. 2026-11-21T09:00:00Z, got ${shown(issue.input)}` +
        // URLSearchParams reads an unencoded "+" as a space.
        (typeof issue.input === 'string' && /\s\d{2}:?\d{2}$/.test(issue.input)
          ? ' (send the + of a time zone offset as %2B)'
          : ''),
    })
    .meta({ format: 'date-time', description });

/** seed 8: redirect_url is HTTPS only, at most 2048 characters. */
export const REDIRECT_URL_MAX = 2048;

/**
 * seed 8's redirect_url: an absolute https URL of at most 2048 characters; spaces and control
 * characters must be percent-encoded, as in any URL. Each rule broken is its own problem.
 */
export const redirectUrl = (description: string) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? 'is required'
          : `must be a string, got ${typeof issue.input === 'number' ? shown(issue.input) : describeJson(issue.input)}`,
    })
    .max(REDIRECT_URL_MAX, `must be at most ${REDIRECT_URL_MAX} characters`)
    // eslint-disable-next-line no-control-regex -- the point: the characters no URL may hold unencoded
    .regex(/^[^\u0000-\u001F\u007F-\u009F\s]*$/, 'must not contain spaces or control characters (percent-encode them)')
    .superRefine((value, context) => {
      if (!URL.canParse(value)) {
        context.addIssue({ code: 'custom', message: `must be an absolute URL such as https://…, got ${shown(value)}` });
      } else if (new URL(value).protocol !== 'https:') {
        context.addIssue({ code: 'custom', message: `must use https, got ${new URL(value).protocol.slice(0, -1)}` });
      }
    })
    // The document's pattern is every rule at once: https, a host, no space or control character. No
    // format: uri, which zodOpenApi reads as zod's own URL regex and drops the pattern for.
    .meta({ pattern: HTTPS_URL_PATTERN, description });
