import { z } from '@corridor/config';
import { shown, typeProblem } from '../floor/fields.js';

/**
 * The typed fields of the admin bodies (decision 0021): only what building the service's request
 * takes. Ranges, lengths, formats and existence are the owning service's to check; a field's
 * `.meta` documents that service's rule without the gateway enforcing it again.
 */

const UINT32_MAX = 4_294_967_295;

/** A proto uint32: a JSON integer from 0 to 2^32 - 1; anything else cannot be sent at all. */
export const uint32 = (expected: string) => {
  const type = typeProblem(`${expected} (a JSON integer)`);
  return z
    .int({
      error: (issue) =>
        issue.code === 'invalid_type' ? type(issue) : `must be a whole number, got ${shown(issue.input)}`,
    })
    .min(0, { error: (issue) => `must not be negative, got ${shown(issue.input)}` })
    .max(UINT32_MAX, { error: (issue) => `must be at most ${UINT32_MAX}, got ${shown(issue.input)}` });
};

/**
 * An int64 of minor units as JSON carries one exactly: a whole number within ±(2^53 - 1); the sign
 * a field allows is the service's rule.
 */
export const minorUnits = () => {
  const type = typeProblem('a whole number of minor units (a JSON integer)');
  return z.int({
    error: (issue) =>
      issue.code === 'too_big'
        ? `must be at most ${Number.MAX_SAFE_INTEGER} (2^53 - 1), got ${shown(issue.input)}`
        : issue.code === 'too_small'
          ? `must be at least ${Number.MIN_SAFE_INTEGER}, got ${shown(issue.input)}`
          : type(issue),
  });
};

/** A string the service checks (a currency, a rate, a uuid); here only that it is one. */
export const serviceChecked = (expected: string) => z.string({ error: typeProblem(expected) });

/**
 * A string whose empty value is the proto's "absent" (a business id that, empty, means every
 * business or the default rule): given, it must not be empty, or it would be read as left out.
 */
export const presentString = (expected: string) => serviceChecked(expected).min(1, 'must not be empty');
