import { parseRate } from '../reference/decimal-rate.js';
import { swapAmounts } from './swap-amounts.js';

const rate = (text: string) => parseRate(text) ?? 0n;

describe('swap amounts and the FX rounding rule (decision 0011)', () => {
  it('amount_side from: the to-amount rounds down and the unused remainder goes to rounding', () => {
    // 10.00 NGN at 0.000645 USD/NGN = 0.645 cents → 0.00 USD: buys nothing
    expect(
      swapAmounts({ side: 'from', amount: 1_000n, rate: rate('0.000645'), fromExponent: 2, toExponent: 2 }),
    ).toBeUndefined();
    // 1,000.00 NGN → 64.5 cents → 64 cents; 64 cents need 992.25 NGN → 99,225 kobo; 775 kobo to rounding
    expect(
      swapAmounts({ side: 'from', amount: 100_000n, rate: rate('0.000645'), fromExponent: 2, toExponent: 2 }),
    ).toEqual({
      fromAmount: 100_000n,
      toAmount: 64n,
      exchanged: 99_225n,
      rounding: 775n,
    });
  });

  it('amount_side to: the from-amount is the fewest units that buy it, and nothing is left to round', () => {
    expect(swapAmounts({ side: 'to', amount: 12_700n, rate: rate('1.27'), fromExponent: 2, toExponent: 2 })).toEqual({
      fromAmount: 10_000n,
      toAmount: 12_700n,
      exchanged: 10_000n,
      rounding: 0n,
    });
  });

  it('never creates or loses a minor unit: exchanged + rounding = from, and exchanged buys at least to', () => {
    for (const text of ['1550.25', '0.000645161', '1.27', '0.787401574803', '3.333333333333']) {
      for (const amount of [1n, 3n, 99n, 10_000n, 987_654_321n]) {
        for (const side of ['from', 'to'] as const) {
          const amounts = swapAmounts({ side, amount, rate: rate(text), fromExponent: 2, toExponent: 2 });
          if (!amounts) continue;
          expect(amounts.exchanged + amounts.rounding).toBe(amounts.fromAmount);
          expect(amounts.rounding).toBeGreaterThanOrEqual(0n);
          expect(amounts.toAmount).toBeGreaterThan(0n);
        }
      }
    }
  });
});
