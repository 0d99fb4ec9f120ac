import { z } from '@corridor/config';
import { shown, typeProblem } from '../../floor/fields.js';

/**
 * The money fields of the payments routes' bodies: only types and shapes; whether a currency
 * exists, a pair is supported or a balance suffices is payments' to say.
 */

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
