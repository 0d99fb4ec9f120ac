/**
 * Amounts as members type them (major units, "1000.5", "1,000.50") to the minor units payments takes,
 * and back, with string and bigint arithmetic only: a float cannot hold 0.1, and money must not
 * round on its way through a form.
 */

/** The API's bound on an amount (a JSON number stays exact below 2^53). */
export const MAX_MINOR_UNITS = 2n ** 53n - 1n;

/** Digits, optionally grouped by commas in threes, and an optional fraction after a point. */
const MAJOR_AMOUNT = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/;

export type ParsedAmount = { ok: true; minor: bigint } | { ok: false; problem: string };

/** Whether the text reads as an amount at all, before the currency (and so its exponent) is known. */
export function amountSyntaxProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return 'Enter the amount, e.g. 1000.50';
  if (!MAJOR_AMOUNT.test(trimmed))
    return 'Enter the amount as a number in major units, e.g. 1000.50 (no sign, no currency)';
  return undefined;
}

/** "1000.5" with exponent 2 → 100050n; more decimals than the currency has is a problem, not a rounding. */
export function parseMajorAmount(text: string, exponent: number, currency: string): ParsedAmount {
  const syntax = amountSyntaxProblem(text);
  if (syntax) return { ok: false, problem: syntax };
  const [, whole = '', fraction = ''] = MAJOR_AMOUNT.exec(text.trim()) ?? [];
  if (fraction.length > exponent) {
    return {
      ok: false,
      problem:
        exponent === 0
          ? `${currency} has no minor unit: enter a whole amount`
          : `${currency} has ${exponent} decimal places; ${text.trim()} has ${fraction.length}`,
    };
  }
  const minor = BigInt(`${whole.replaceAll(',', '')}${fraction.padEnd(exponent, '0')}`);
  if (minor <= 0n) return { ok: false, problem: 'The amount must be more than 0' };
  if (minor > MAX_MINOR_UNITS) {
    return { ok: false, problem: `The amount must be at most ${formatMinorAmount(MAX_MINOR_UNITS, exponent)}` };
  }
  return { ok: true, minor };
}

/** 100050n with exponent 2 → "1,000.50"; negative amounts keep their sign. */
export function formatMinorAmount(minor: bigint, exponent: number): string {
  const sign = minor < 0n ? '-' : '';
  const digits = (minor < 0n ? -minor : minor).toString().padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = exponent > 0 ? `.${digits.slice(digits.length - exponent)}` : '';
  return `${sign}${whole}${fraction}`;
}
