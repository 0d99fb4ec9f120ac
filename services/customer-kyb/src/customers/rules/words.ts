import type { DescEnum } from '@bufbuild/protobuf';
import { CUSTOMER_INPUT_WORDS } from '@corridor/contracts/customer-words';
import { enumWords } from '@corridor/grpc';

/** An enum's public words, in the proto's order: the proto is the one list (decision 0025). */
export function wordsOf(descriptor: DescEnum): readonly string[] {
  return enumWords(descriptor, CUSTOMER_INPUT_WORDS).map(({ word }) => word);
}
