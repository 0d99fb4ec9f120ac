import type { GenEnum } from '@bufbuild/protobuf/codegenv2';
import { CurrencyOperationSchema, FeeOperationSchema } from '@corridor/contracts/corridor/payments/v1/money_pb';
import {
  AccountSchemeSchema,
  PayoutFailureCodeSchema,
  PayoutStatusSchema,
} from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import {
  CollectionFailureCodeSchema,
  CollectionMethodSchema,
  RefundStatusSchema,
  VirtualAccountCloseReasonSchema,
  VirtualAccountStatusSchema,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import {
  AdjustmentDirectionSchema,
  AmountSideSchema,
  TransactionStatusSchema,
  TransactionTypeSchema,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';

/**
 * The public words of a proto enum, made from its descriptor so the JSON contract and the proto
 * are one vocabulary (DESIGN.md "Contracts are typed"): TRANSACTION_TYPE_SWAP is "SWAP",
 * AMOUNT_SIDE_FROM is "from". The zero value (UNSPECIFIED) has no word: it never crosses the edge.
 */
export interface ProtoVocabulary<E extends number> {
  /** The proto enum the words are sent as. */
  readonly descriptor: GenEnum<E>;
  /** Every word, in the proto's order. */
  readonly words: readonly [string, ...string[]];
  toProto(word: string): E;
  /** A service's value as its word; UNSPECIFIED or a number this gateway does not know is a defect. */
  toWord(value: E, what: string): string;
}

export function protoVocabulary<E extends number>(
  descriptor: GenEnum<E>,
  casing: 'upper' | 'lower',
): ProtoVocabulary<E> {
  const spelled = (localName: string) => (casing === 'upper' ? localName : localName.toLowerCase());
  const named = descriptor.values.filter((value) => value.number !== 0);
  const byWord = new Map(named.map((value) => [spelled(value.localName), value.number as E]));
  const byNumber = new Map(named.map((value) => [value.number, spelled(value.localName)]));
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
      if (word === undefined) throw new RangeError(`payments sent ${what} ${value}, not a ${descriptor.typeName} word`);
      return word;
    },
  };
}

export const TRANSACTION_TYPES = protoVocabulary(TransactionTypeSchema, 'upper');
export const TRANSACTION_STATUSES = protoVocabulary(TransactionStatusSchema, 'upper');
export const REFUND_STATUSES = protoVocabulary(RefundStatusSchema, 'lower');
export const AMOUNT_SIDES = protoVocabulary(AmountSideSchema, 'lower');
export const ADJUSTMENT_DIRECTIONS = protoVocabulary(AdjustmentDirectionSchema, 'lower');
export const FEE_OPERATIONS = protoVocabulary(FeeOperationSchema, 'lower');
export const CURRENCY_OPERATIONS = protoVocabulary(CurrencyOperationSchema, 'lower');
export const PAYOUT_STATUSES = protoVocabulary(PayoutStatusSchema, 'lower');
export const PAYOUT_FAILURE_CODES = protoVocabulary(PayoutFailureCodeSchema, 'lower');
export const ACCOUNT_SCHEMES = protoVocabulary(AccountSchemeSchema, 'lower');
export const VIRTUAL_ACCOUNT_STATUSES = protoVocabulary(VirtualAccountStatusSchema, 'lower');
export const VIRTUAL_ACCOUNT_CLOSE_REASONS = protoVocabulary(VirtualAccountCloseReasonSchema, 'lower');
export const COLLECTION_METHODS = protoVocabulary(CollectionMethodSchema, 'lower');
export const COLLECTION_FAILURE_CODES = protoVocabulary(CollectionFailureCodeSchema, 'lower');
