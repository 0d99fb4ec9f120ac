import type { GenEnum } from '@bufbuild/protobuf/codegenv2';
import { protoVocabulary as sharedProtoVocabulary } from '@corridor/grpc';
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

export type { ProtoVocabulary } from '@corridor/grpc';

/** payments' enums' words; a value the gateway does not know is a defect named after payments. */
export const protoVocabulary = <E extends number>(descriptor: GenEnum<E>, casing: 'upper' | 'lower') =>
  sharedProtoVocabulary(descriptor, casing, 'payments');

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
