import type { DescEnum, DescField } from '@bufbuild/protobuf';
import { wordsByNumber } from './proto-vocabulary.js';

/**
 * How the customer API's JSON spells its input messages (decision 0025): presence is kept exactly,
 * a property sent as null named in the message's `null_fields` (seed 2.1 rule 2); an enum is one of
 * its words; a decimal a JSON number carried as its text. The gateway reads bodies with zod schemas
 * made from the descriptors and these words (decision 0064); @corridor/customer-json answers with them.
 */

/** The field naming the properties sent as null. */
export const NULL_FIELDS = 'null_fields';

/** How the enums and decimals of a family of input messages are written in JSON. */
export interface InputWords {
  /** An enum's public words are its value names without the enum's prefix, in this case. */
  casingOf(descriptor: DescEnum): 'upper' | 'lower';
  /** A proto string holding a JSON number as its decimal text (exact, never a double). */
  isDecimal(field: DescField): boolean;
}

type EnumWords = readonly { readonly word: string; readonly number: number }[];

/**
 * Spelt once per enum and casing: every enum of a customer read (its type, scope, status, each
 * owner's and document's) is looked up here, on both sides of the hop, on every request.
 */
const spelt = new WeakMap<DescEnum, Partial<Record<'upper' | 'lower', EnumWords>>>();

/** Every public word of an enum but UNSPECIFIED, with its number, in the proto's order. */
export function enumWords(descriptor: DescEnum, words: InputWords): EnumWords {
  const casing = words.casingOf(descriptor);
  const byCasing = spelt.get(descriptor) ?? {};
  spelt.set(descriptor, byCasing);
  return (byCasing[casing] ??= [...wordsByNumber(descriptor, casing)].map(([number, word]) => ({ word, number })));
}
