import { z } from '@corridor/config';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@corridor/pagination';
import { describeJson } from '@corridor/validation';
import { MAX_CURSOR_LENGTH } from './pages/page-query.js';
import { parseDateTime } from './times.js';
import type { ProtoVocabulary } from '@corridor/grpc';
import { HTTPS_URL_PATTERN } from './text-boundary.js';

/**
 * The typed fields of the routes' bodies and queries, each with the problem it names (422
 * VALIDATION_FAILED, `errors` by field). Only types and shapes: what a value means is the owning
 * service's to say.
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

/** The cursor of a cursor-paginated list: opaque, as the previous page gave it. */
export const pageCursor = () =>
  z
    .string({ error: 'must be text' })
    .min(1, 'must not be empty')
    .max(MAX_CURSOR_LENGTH, `must be at most ${MAX_CURSOR_LENGTH} characters`)
    .meta({ description: 'opaque: meta.next_cursor or meta.prev_cursor of a previous page' })
    .optional();

export const perPage = (items: string) =>
  queryInteger(1, MAX_PAGE_SIZE, items)
    .default(DEFAULT_PAGE_SIZE)
    .meta({ description: `${items} per page` });

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
