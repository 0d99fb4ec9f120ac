import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';

/** The value conversions every public JSON of payments shares: enum words, integers, instants. */

/** A generated proto enum: its value names (less the proto's prefix) and numbers, both ways. */
type ProtoEnum = Record<string, string | number>;

/** A proto enum's value names but UNSPECIFIED: PayoutStatus → 'PENDING' | … | 'REVERSED'. */
export type EnumName<E extends ProtoEnum> = Exclude<Extract<keyof E, string>, 'UNSPECIFIED' | `${number}`>;
/** The same in lower case, as the public JSON and payments' tables spell most of them. */
export type EnumWord<E extends ProtoEnum> = Lowercase<EnumName<E>>;

/**
 * Every value name of a proto enum but UNSPECIFIED, in the proto's order: the one list of a status's
 * words, so a value added to the proto is a word everywhere (issue 32).
 */
export function enumNames<E extends ProtoEnum>(values: E): readonly EnumName<E>[] {
  return Object.keys(values).filter((name) => typeof values[name] === 'number' && values[name] !== 0) as EnumName<E>[];
}

export const enumWords = <E extends ProtoEnum>(values: E): readonly EnumWord<E>[] =>
  enumNames(values).map((name) => name.toLowerCase() as EnumWord<E>);

/** The value of a stored name or word (either case); one the enum lacks is a defect upstream. */
export function enumValueOf<E extends ProtoEnum>(values: E, name: string): E[EnumName<E>] {
  const value = values[name.toUpperCase()];
  if (typeof value !== 'number' || value === 0) throw new RangeError(`${name} is no value of this enum`);
  return value as E[EnumName<E>];
}

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
