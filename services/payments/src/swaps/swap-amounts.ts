import { convertDown, fromAmountFor, type Rate } from '../reference/decimal-rate.js';

export interface SwapAmounts {
  /** What leaves the from-wallet before the fee. */
  fromAmount: bigint;
  /** What arrives in the to-wallet. */
  toAmount: bigint;
  /** The part of fromAmount the FX liquidity account takes: the fewest units that buy toAmount. */
  exchanged: bigint;
  /** fromAmount - exchanged: less than one to-minor-unit's worth, posted to the rounding account. */
  rounding: bigint;
}

export interface SwapPricing {
  side: 'from' | 'to';
  amount: bigint;
  rate: Rate;
  fromExponent: number;
  toExponent: number;
}

/**
 * The FX rounding rule (decision 0011): the to-amount is always a whole minor unit rounded down;
 * with amount_side "to" the from-amount is the fewest units that buy it. Whatever of the from-amount
 * buys less than one to-minor-unit goes to the rounding account, so no fraction is lost or made.
 * Undefined when the amount buys nothing.
 */
export function swapAmounts({ side, amount, rate, fromExponent, toExponent }: SwapPricing): SwapAmounts | undefined {
  const fromAmount = side === 'from' ? amount : fromAmountFor(amount, rate, fromExponent, toExponent);
  const toAmount = side === 'from' ? convertDown(amount, rate, fromExponent, toExponent) : amount;
  if (toAmount <= 0n || fromAmount <= 0n) return undefined;
  const exchanged = fromAmountFor(toAmount, rate, fromExponent, toExponent);
  return { fromAmount, toAmount, exchanged, rounding: fromAmount - exchanged };
}
