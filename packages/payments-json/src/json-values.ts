import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';

/** The value conversions every public JSON of payments shares: enum words, integers, instants. */

/** A proto enum value as its public word: PayoutStatus.SUCCESSFUL → "successful". Unset or unknown is a defect upstream. */
export function word(names: Record<number, string>, value: number, field: string): string {
  const name = names[value];
  if (!name || value === 0) throw new RangeError(`${field} ${value} has no public word`);
  return name.toLowerCase();
}

/** int64 as a JSON number; a value past 2^53 - 1 cannot be sent exactly, which is a defect upstream. */
export function jsonInteger(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`${value} is beyond the exact range of a JSON number`);
  }
  return Number(value);
}

export const isoOrNull = (timestamp: Timestamp | undefined) =>
  timestamp ? timestampDate(timestamp).toISOString() : null;

export function iso(timestamp: Timestamp | undefined, field: string): string {
  if (!timestamp) throw new RangeError(`${field} is missing`);
  return timestampDate(timestamp).toISOString();
}
