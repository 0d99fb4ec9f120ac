import type { DescEnum } from '@bufbuild/protobuf';
import type { GenEnum } from '@bufbuild/protobuf/codegenv2';

/**
 * The public words of a proto enum, made from its descriptor so a JSON contract and the proto are
 * one vocabulary (DESIGN.md "Contracts are typed"): TRANSACTION_TYPE_SWAP is "SWAP",
 * AMOUNT_SIDE_FROM is "from". The zero value (UNSPECIFIED) has no word: it never crosses the edge.
 */
export interface ProtoVocabulary<E extends number> {
  /** The proto enum the words are sent as. */
  readonly descriptor: GenEnum<E>;
  /** Every word, in the proto's order. */
  readonly words: readonly [string, ...string[]];
  toProto(word: string): E;
  /** A service's value as its word; UNSPECIFIED or a number this side does not know is a defect. */
  toWord(value: E, what: string): string;
}

/**
 * How the words are spelt: each value's name less the enum's prefix in capitals or in lower case,
 * or (for words such as event names, whose dots a value name cannot hold) the words themselves,
 * each naming the value its dots and underscores both read "_" in: customer.status_changed is
 * CUSTOMER_STATUS_CHANGED. Explicit words must name every value once, or this throws.
 */
export type Spelling = 'upper' | 'lower' | readonly string[];

/** An enum's prefix, as buf's ENUM_VALUE_PREFIX rule spells it: KybScope → KYB_SCOPE_. */
function prefixOf(descriptor: DescEnum): string {
  return `${descriptor.name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}_`;
}

/**
 * Each value's word but UNSPECIFIED's, by number, in the proto's order: the one spelling of enum
 * words. A value's name less the prefix, not protobuf-es's localName, which keeps the prefix where
 * the rest is no identifier (ANNUAL_REVENUE_BAND_0_99999 is "0_99999").
 */
export function wordsByNumber(descriptor: DescEnum, spelling: Spelling): Map<number, string> {
  const prefix = prefixOf(descriptor);
  const bare = (name: string) => (name.startsWith(prefix) ? name.slice(prefix.length) : name);
  const named = descriptor.values
    .filter((value) => value.number !== 0)
    .map((value) => ({ number: value.number, name: bare(value.name) }));
  if (spelling === 'upper' || spelling === 'lower') {
    return new Map(named.map((value) => [value.number, spelling === 'upper' ? value.name : value.name.toLowerCase()]));
  }
  const byName = new Map(named.map((value) => [value.name, value.number]));
  const byNumber = new Map<number, string>();
  for (const word of spelling) {
    const number = byName.get(word.replace(/\./g, '_').toUpperCase());
    if (number === undefined) throw new Error(`${word} names no value of ${descriptor.typeName}`);
    if (byNumber.has(number)) throw new Error(`${word} and ${byNumber.get(number)} name one ${descriptor.typeName}`);
    byNumber.set(number, word);
  }
  const unnamed = named.filter((value) => !byNumber.has(value.number)).map((value) => value.name);
  if (unnamed.length > 0) throw new Error(`${descriptor.typeName} has values without a word: ${unnamed.join(', ')}`);
  // In the proto's order, whatever the order given.
  return new Map(named.map((value) => [value.number, byNumber.get(value.number) ?? '']));
}

/** `sender` names, in a defect's message, the service whose value this side did not know. */
export function protoVocabulary<E extends number>(
  descriptor: GenEnum<E>,
  spelling: Spelling,
  sender: string,
): ProtoVocabulary<E> {
  const byNumber = wordsByNumber(descriptor, spelling);
  const byWord = new Map([...byNumber].map(([number, word]) => [word, number as E]));
  const [first, ...rest] = [...byWord.keys()];
  if (first === undefined) throw new Error(`${descriptor.typeName} has no value but UNSPECIFIED`);
  return {
    descriptor,
    words: [first, ...rest],
    toProto(word) {
      const value = byWord.get(word);
      if (value === undefined) throw new RangeError(`${word} is not a ${descriptor.typeName}`);
      return value;
    },
    toWord(value, what) {
      const word = byNumber.get(value);
      if (word === undefined)
        throw new RangeError(`${sender} sent ${what} ${value}, not a ${descriptor.typeName} word`);
      return word;
    },
  };
}
