import type { DescEnum } from '@bufbuild/protobuf';
import {
  AccountPurposeSchema,
  AnnualRevenueBandSchema,
  BusinessTypeSchema,
  IdDocumentTypeSchema,
  IndividualFileCategorySchema,
  KybDocumentTypeSchema,
  KybScopeSchema,
  OwnerFileSlotSchema,
  ReviewStatusSchema,
  SourceOfFundsSchema,
  VerificationStatusSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { CUSTOMER_INPUT_WORDS } from '@corridor/contracts/customer-words';
import { enumWords } from '@corridor/grpc';

/**
 * The public words of the customer API, made from customer-kyb's proto enums (decision 0025):
 * KYB_DOCUMENT_TYPE_OTHER is "OTHER", BUSINESS_TYPE_NON_PROFIT is "non_profit". The one place where
 * the gateway's JSON words and the proto meet; customer-kyb's customer-input.ts spells them alike,
 * and each side's spec holds its words against the proto.
 */

/** An enum's public words, in the proto's order. */
export const wordsOf = (descriptor: DescEnum): string[] =>
  enumWords(descriptor, CUSTOMER_INPUT_WORDS).map(({ word }) => word);

export const KYB_SCOPES = wordsOf(KybScopeSchema);
export const VERIFICATION_STATUSES = wordsOf(VerificationStatusSchema);
/** Owners and documents (seed 3.3). */
export const REVIEW_STATUSES = wordsOf(ReviewStatusSchema);
export const ID_DOCUMENT_TYPES = wordsOf(IdDocumentTypeSchema);
export const OWNER_FILE_SLOTS = wordsOf(OwnerFileSlotSchema);
export const INDIVIDUAL_FILE_CATEGORIES = wordsOf(IndividualFileCategorySchema);
/** seed 2.3's formation types, then the other types of decision 0008. */
export const KYB_DOCUMENT_TYPES = wordsOf(KybDocumentTypeSchema);
export const BUSINESS_TYPES = wordsOf(BusinessTypeSchema);
export const SOURCES_OF_FUNDS = wordsOf(SourceOfFundsSchema);
export const ANNUAL_REVENUE_BANDS = wordsOf(AnnualRevenueBandSchema);
export const ACCOUNT_PURPOSES = wordsOf(AccountPurposeSchema);

/** A value customer-kyb answered as its public word; UNSPECIFIED or a number this gateway does not know is a defect. */
export function wordOf(descriptor: DescEnum, value: number, what: string): string {
  const match = enumWords(descriptor, CUSTOMER_INPUT_WORDS).find(({ number }) => number === value);
  if (!match) throw new RangeError(`customer-kyb sent ${what} ${value}, not a ${descriptor.typeName} word`);
  return match.word;
}

/** A word's proto value, or undefined when the enum has no such word. */
export function valueOfWord(descriptor: DescEnum, word: string): number | undefined {
  return enumWords(descriptor, CUSTOMER_INPUT_WORDS).find((candidate) => candidate.word === word)?.number;
}

/**
 * A query parameter holding one of an enum's words, as its proto value; another word is a problem
 * naming the parameter (422), in the words customer-kyb used when it checked them.
 */
export function readWordParameter(
  values: ReadonlyMap<string, string>,
  name: string,
  descriptor: DescEnum,
  problems: Map<string, string[]>,
): number | undefined {
  const word = values.get(name);
  if (word === undefined) return undefined;
  const value = valueOfWord(descriptor, word);
  if (value === undefined && !problems.has(name))
    problems.set(name, [`must be one of ${wordsOf(descriptor).join(', ')}`]);
  return value;
}
