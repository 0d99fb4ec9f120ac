/**
 * Exchange rates as exact decimals (decision 0011): a rate is a string of at most 12 integer and 12
 * fraction digits, held as a bigint count of 10^-12 units, so no rate or amount ever passes
 * through a float.
 */

export const RATE_SCALE = 12;
const ONE = 10n ** BigInt(RATE_SCALE);
const RATE_PATTERN = /^(\d{1,12})(?:\.(\d{1,12}))?$/;

/** A positive rate in 10^-12 units. */
export type Rate = bigint;

/** The rate of a decimal string, or undefined when it is not one (or is zero). */
export function parseRate(text: string): Rate | undefined {
  const match = RATE_PATTERN.exec(text);
  if (!match) return undefined;
  const [, whole = '0', fraction = ''] = match;
  const rate = BigInt(whole) * ONE + BigInt(fraction.padEnd(RATE_SCALE, '0'));
  return rate > 0n ? rate : undefined;
}

/** The shortest decimal string of a rate: "1550.25", "0.000645161290". */
export function formatRate(rate: Rate): string {
  const whole = rate / ONE;
  const fraction = (rate % ONE).toString().padStart(RATE_SCALE, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

/** 1 / rate, rounded down to 12 decimals: the derived reverse of a pair set one way only. */
export function invertRate(rate: Rate): Rate {
  return (ONE * ONE) / rate;
}

/** The business's rate: the mid-rate less `spreadBps` basis points, rounded down (never in its favour). */
export function applySpread(mid: Rate, spreadBps: number): Rate {
  return (mid * BigInt(10_000 - spreadBps)) / 10_000n;
}

const divideCeil = (numerator: bigint, denominator: bigint) => (numerator + denominator - 1n) / denominator;

/**
 * Minor units of the to-currency that `fromAmount` minor units buy at `rate`, rounded down to a
 * whole minor unit (the FX rounding rule). Exponents are the currencies' minor-unit digits.
 */
export function convertDown(fromAmount: bigint, rate: Rate, fromExponent: number, toExponent: number): bigint {
  const numerator = fromAmount * rate * 10n ** BigInt(toExponent);
  const denominator = ONE * 10n ** BigInt(fromExponent);
  return numerator / denominator;
}

/** The fewest from-currency minor units that buy `toAmount` at `rate` (the inverse of convertDown). */
export function fromAmountFor(toAmount: bigint, rate: Rate, fromExponent: number, toExponent: number): bigint {
  const numerator = toAmount * ONE * 10n ** BigInt(fromExponent);
  const denominator = rate * 10n ** BigInt(toExponent);
  return divideCeil(numerator, denominator);
}
