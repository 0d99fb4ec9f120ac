import { feeFor } from './fee-rule.js';

const rule = (flat: bigint, percentageBps: number, minimum: bigint | null = null, maximum: bigint | null = null) => ({
  flat,
  percentageBps,
  minimum,
  maximum,
});

describe('the fee of an operation (decision 0011)', () => {
  it('adds the flat part and the percentage of the amount', () => {
    expect(feeFor(rule(100n, 150), 10_000n)).toEqual({ flat: 100n, percentageAmount: 150n, total: 250n });
  });

  it('rounds the percentage half up to a whole minor unit', () => {
    expect(feeFor(rule(0n, 25), 200n).percentageAmount).toBe(1n); // 0.5 → 1
    expect(feeFor(rule(0n, 25), 199n).percentageAmount).toBe(0n); // 0.4975 → 0
    expect(feeFor(rule(0n, 25), 600n).percentageAmount).toBe(2n); // 1.5 → 2
  });

  it('raises the sum to the minimum and lowers it to the maximum', () => {
    expect(feeFor(rule(0n, 100, 50n), 1_000n).total).toBe(50n);
    expect(feeFor(rule(0n, 100, null, 500n), 1_000_000n).total).toBe(500n);
    expect(feeFor(rule(0n, 100, 50n, 500n), 20_000n).total).toBe(200n);
  });

  it('is exact for amounts far beyond 2^53', () => {
    expect(feeFor(rule(0n, 1), 9_223_372_036_854_775_000n).total).toBe(922_337_203_685_478n);
  });
});
