/**
 * int64 minor units ↔ JSON integers (DESIGN.md "Money on the wire"). JSON numbers are doubles, so
 * only safe integers (|n| ≤ 2^53 - 1) travel: the edge refuses larger input with 422, and a larger
 * value from a service is a defect (500), never a rounded amount.
 */

/** A request's amount, already checked to be a safe integer, as the int64 the service reads. */
export function int64Of(value: number): bigint {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${value} is not a safe integer`);
  return BigInt(value);
}

/** A service's int64 (or uint64) as a JSON number; `what` names the field when it does not fit. */
export function jsonIntegerOf(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`${what} ${value} is outside the safe integer range of JSON`);
  }
  return Number(value);
}

/** An optional int64 (a fee cap) as a JSON integer, or null when the service left it unset. */
export const nullableJsonIntegerOf = (value: bigint | undefined, what: string): number | null =>
  value === undefined ? null : jsonIntegerOf(value, what);
