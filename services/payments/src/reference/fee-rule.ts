/** One row of the fee schedule: flat + a percentage of the amount, within optional caps. */
export interface FeeRule {
  businessId: string | null;
  operation: FeeOperationName;
  currency: string;
  flat: bigint;
  percentageBps: number;
  minimum: bigint | null;
  maximum: bigint | null;
  updatedAt: Date;
}

export type FeeOperationName = 'swap' | 'collection' | 'payout' | 'refund';

export interface FeeCharge {
  flat: bigint;
  percentageAmount: bigint;
  /** flat + percentageAmount, raised to the minimum and lowered to the maximum. */
  total: bigint;
}

/**
 * The fee of `amount` minor units under `rule` (decision 0011): the percentage part is rounded
 * half up to a whole minor unit, then the caps apply to the sum.
 */
export function feeFor(
  rule: Pick<FeeRule, 'flat' | 'percentageBps' | 'minimum' | 'maximum'>,
  amount: bigint,
): FeeCharge {
  const percentageAmount = (amount * BigInt(rule.percentageBps) * 2n + 10_000n) / 20_000n;
  let total = rule.flat + percentageAmount;
  if (rule.minimum !== null && total < rule.minimum) total = rule.minimum;
  if (rule.maximum !== null && total > rule.maximum) total = rule.maximum;
  return { flat: rule.flat, percentageAmount, total };
}
