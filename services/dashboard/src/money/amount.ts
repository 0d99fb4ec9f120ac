/**
 * Money as members read and type it. Payments sends integer minor units (int64, so bigint) beside an
 * ISO 4217 code and each currency's exponent (ListCurrencies); every step here is digit-string and
 * bigint arithmetic, never Number, so 100000000001 minor NGN is exactly "1,000,000,000.01".
 */

import type { CallSettings } from '@corridor/grpc';
import type { PageClients } from '../clients.js';

/** Each currency's exponent by code (payments' ListCurrencies): what amounts are read and formatted with. */
export type Exponents = ReadonlyMap<string, number>;

/** The exponent of each currency payments knows, asked per page: amounts are in their minor units. */
export async function currencyExponents(
  referenceData: PageClients['referenceData'],
  call: CallSettings,
): Promise<Exponents> {
  const { currencies } = await referenceData.listCurrencies({}, call);
  return new Map(currencies.map((currency) => [currency.code, currency.exponent]));
}

/** ISO 4217 exponents run 0..4; crypto-style currencies up to 8 and beyond. Past 18 is a defect. */
const MAX_EXPONENT = 18;

function checkExponent(exponent: number): void {
  if (!Number.isInteger(exponent) || exponent < 0 || exponent > MAX_EXPONENT) {
    throw new RangeError(`a currency exponent must be a whole number from 0 to ${MAX_EXPONENT}, not ${exponent}`);
  }
}

const INTEGER = /^-?\d+$/;
/** payments' amounts are int64. */
const INT64_MAX = 9_223_372_036_854_775_807n;

/** "-1,500.00" from -150000n at exponent 2: thousands grouped with commas, the sign in front. */
export function formatMinorUnits(minor: bigint | string, exponent: number): string {
  checkExponent(exponent);
  if (typeof minor === 'string' && !INTEGER.test(minor)) throw new RangeError(`${minor} is not a whole number`);
  const value = BigInt(minor);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = digits.slice(digits.length - exponent);
  return `${negative ? '-' : ''}${whole}${exponent > 0 ? `.${fraction}` : ''}`;
}

/** The amount as a form field holds it: no grouping, every fraction digit ("1500.00"). */
export function minorUnitsAsInput(minor: bigint, exponent: number): string {
  return formatMinorUnits(minor, exponent).replace(/,/g, '');
}

export type ParsedAmount = { ok: true; minor: bigint } | { ok: false; problem: string };

/** Digits, optionally grouped by commas in threes, and an optional fraction after a point. */
const TYPED_AMOUNT = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/;

/**
 * Why the text is not an amount at all (a sign, letters, an exponent), before the currency and so
 * its exponent is known; undefined when it reads as one.
 */
export function amountSyntaxProblem(text: string, currency?: string): string | undefined {
  const typed = text.trim();
  if (TYPED_AMOUNT.test(typed)) return undefined;
  const like = currency ? `in ${currency} like` : 'like';
  return `${typed === '' ? 'The amount is empty' : `“${typed}” is not an amount`}: write it ${like} 1,500.00 (no sign, no currency)`;
}

/**
 * What a member typed ("1,500.5", "1500.50", "1500") in minor units, or why it is not an amount of
 * this currency: more fraction digits than its exponent, a sign, letters, more than `max` (payments'
 * int64 unless the form's API bound is lower). Zero is refused too: every amount a form asks for
 * moves money.
 */
export function parseAmount(text: string, exponent: number, currency: string, max = INT64_MAX): ParsedAmount {
  checkExponent(exponent);
  const typed = text.trim();
  const problem = amountSyntaxProblem(typed, currency);
  const match = TYPED_AMOUNT.exec(typed);
  if (problem || !match) return { ok: false, problem: problem ?? `“${typed}” is not an amount` };
  const whole = (match[1] ?? '').replace(/,/g, '');
  const fraction = match[2] ?? '';
  if (fraction.length > exponent) {
    return {
      ok: false,
      problem:
        exponent === 0
          ? `${currency} has no minor unit: write a whole number`
          : `${currency} has ${exponent} decimal places: “${typed}” has ${fraction.length}`,
    };
  }
  const minor = BigInt(`${whole}${fraction.padEnd(exponent, '0')}`);
  if (minor === 0n) return { ok: false, problem: 'The amount must be more than zero' };
  if (minor > max) {
    return { ok: false, problem: `The amount must be at most ${formatMinorUnits(max, exponent)} ${currency}` };
  }
  return { ok: true, minor };
}

/**
 * "1,500.00 NGN". A currency payments did not list (it never should) shows its minor units as they
 * are, labelled so, rather than guessing an exponent.
 */
export function moneyText(minor: bigint, currency: string, exponents: Exponents): string {
  const exponent = exponents.get(currency);
  if (exponent === undefined) return `${minor.toString()} minor units of ${currency}`;
  return `${formatMinorUnits(minor, exponent)} ${currency}`;
}
