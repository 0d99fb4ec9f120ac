import type { GenEnum } from '@bufbuild/protobuf/codegenv2';
import { CUSTOMER_INPUT_WORDS } from '@corridor/contracts/customer-words';
import { enumWords } from '@corridor/grpc';

/** customer.proto's enums and the public words customer-kyb stores (decision 0025). */

/** A stored word as its proto enum value, for the typed answers; a word the enum lacks is a defect. */
export function enumOf<E extends number>(descriptor: GenEnum<E>, word: string): E {
  const match = enumWords(descriptor, CUSTOMER_INPUT_WORDS).find((candidate) => candidate.word === word);
  if (!match) throw new RangeError(`${word} is not a ${descriptor.typeName} word`);
  return match.number as E;
}

/**
 * A filter's proto value as the word the rules compare: unset is "any"; UNSPECIFIED or a number this
 * service does not know keeps its number in words, so the list's own check refuses it (422).
 */
export function wordOrUndefined(descriptor: GenEnum<number>, value: number | undefined): string | undefined {
  if (value === undefined) return undefined;
  return enumWords(descriptor, CUSTOMER_INPUT_WORDS).find(({ number }) => number === value)?.word ?? String(value);
}
