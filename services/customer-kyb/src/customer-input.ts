import type { DescMessage } from '@bufbuild/protobuf';
import type { GenEnum } from '@bufbuild/protobuf/codegenv2';
import { CUSTOMER_INPUT_WORDS } from '@corridor/contracts/customer-words';
import { enumWords, jsonOfInput } from '@corridor/grpc';

/**
 * The typed bodies of customer_input.proto as the JSON objects customer-kyb's rules parse
 * (decision 0025): the gateway converted types and words, the rules here judge the values.
 */

/** A request's typed body as the JSON object sent; none at all reads as {}. */
export function bodyOf(descriptor: DescMessage, input: object | undefined): Record<string, unknown> {
  return input ? jsonOfInput(descriptor, input as Readonly<Record<string, unknown>>, CUSTOMER_INPUT_WORDS) : {};
}

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
