import { protoVocabulary } from '@corridor/grpc';
import {
  CollectionFailureCodeSchema,
  CollectionMethodSchema,
  RefundStatusSchema,
  VirtualAccountCloseReasonSchema,
  VirtualAccountStatusSchema,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { PayoutFailureCodeSchema, PayoutStatusSchema } from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import {
  AdjustmentDirectionSchema,
  AmountSideSchema,
  TransactionStatusSchema,
  TransactionTypeSchema,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';

/**
 * payments' enums in the API's words (the gateway's vocabulary.ts): the filters' query values are
 * the API's (type=PAYOUT, status=EXPIRED, status=active), so a dashboard URL reads like an API call.
 */
export const TRANSACTION_TYPES = protoVocabulary(TransactionTypeSchema, 'upper', 'payments');
export const TRANSACTION_STATUSES = protoVocabulary(TransactionStatusSchema, 'upper', 'payments');
export const VIRTUAL_ACCOUNT_STATUSES = protoVocabulary(VirtualAccountStatusSchema, 'lower', 'payments');
const REFUND_STATUSES = protoVocabulary(RefundStatusSchema, 'lower', 'payments');
const PAYOUT_STATUSES = protoVocabulary(PayoutStatusSchema, 'lower', 'payments');
const PAYOUT_FAILURES = protoVocabulary(PayoutFailureCodeSchema, 'lower', 'payments');
const COLLECTION_METHODS = protoVocabulary(CollectionMethodSchema, 'lower', 'payments');
const COLLECTION_FAILURES = protoVocabulary(CollectionFailureCodeSchema, 'lower', 'payments');
const CLOSE_REASONS = protoVocabulary(VirtualAccountCloseReasonSchema, 'lower', 'payments');
const AMOUNT_SIDES = protoVocabulary(AmountSideSchema, 'lower', 'payments');
const ADJUSTMENT_DIRECTIONS = protoVocabulary(AdjustmentDirectionSchema, 'lower', 'payments');

/** "BANK_TRANSFER" or "bank_transfer" as a member reads it: "Bank transfer". */
export const inWords = (word: string): string => {
  const spaced = word.toLowerCase().replace(/_/g, ' ');
  return `${spaced.charAt(0).toUpperCase()}${spaced.slice(1)}`;
};

/**
 * A value payments sent as words; one this dashboard does not know yet (a newer payments) shows as
 * its number rather than failing the whole page.
 */
function wordOf<E extends number>(vocabulary: { toWord(value: E, what: string): string }, value: E, what: string) {
  try {
    return inWords(vocabulary.toWord(value, what));
  } catch {
    return `Unknown ${what} (${value})`;
  }
}

type Enum = number;
export const transactionTypeText = (value: Enum) => wordOf(TRANSACTION_TYPES, value, 'type');
export const transactionStatusText = (value: Enum) => wordOf(TRANSACTION_STATUSES, value, 'status');
export const virtualAccountStatusText = (value: Enum) => wordOf(VIRTUAL_ACCOUNT_STATUSES, value, 'status');
export const refundStatusText = (value: Enum) => wordOf(REFUND_STATUSES, value, 'refund status');
export const payoutStatusText = (value: Enum) => wordOf(PAYOUT_STATUSES, value, 'rail status');
export const payoutFailureText = (value: Enum) => wordOf(PAYOUT_FAILURES, value, 'failure');
export const collectionMethodText = (value: Enum) => wordOf(COLLECTION_METHODS, value, 'method');
export const collectionFailureText = (value: Enum) => wordOf(COLLECTION_FAILURES, value, 'failure');
export const closeReasonText = (value: Enum) => wordOf(CLOSE_REASONS, value, 'close reason');
export const amountSideText = (value: Enum) => wordOf(AMOUNT_SIDES, value, 'amount side');
export const adjustmentDirectionText = (value: Enum) => wordOf(ADJUSTMENT_DIRECTIONS, value, 'direction');
