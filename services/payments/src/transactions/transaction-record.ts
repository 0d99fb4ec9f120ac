import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { RefundStatus } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import {
  AdjustmentDirection,
  AmountSide,
  TransactionSchema,
  TransactionStatus,
  TransactionType,
  type Transaction,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { enumValueOf, type EnumName } from '@corridor/payments-json';
import { dateOf, int8, type Row } from '../ledger/index.js';
import { collectionDetailsOf, refundOf } from '../collections/collection-record.js';
import { payoutDetailsOf } from '../payouts/payout-record.js';

/** As payment_transaction stores them: the enums' own names, without their prefix. */
export type TransactionTypeName = EnumName<typeof TransactionType>;
export type TransactionStatusName = EnumName<typeof TransactionStatus>;

/** As stored in payment_transaction.swap_details (amounts as strings: jsonb numbers are doubles in JS). */
export interface StoredSwapDetails {
  from_currency: string;
  from_amount: string;
  to_currency: string;
  to_amount: string;
  rate: string;
  fee: string;
  quote_id: string | null;
  amount_side: 'from' | 'to';
}

export interface StoredAdjustmentDetails {
  direction: 'credit' | 'debit';
  reason: string;
  actor: string;
}

export const transactionTypeOf = (name: string) => enumValueOf(TransactionType, name);
export const transactionStatusOf = (name: string) => enumValueOf(TransactionStatus, name);
export const transactionTypeName = (type: TransactionType) => TransactionType[type] as TransactionTypeName;
export const transactionStatusName = (status: TransactionStatus) => TransactionStatus[status] as TransactionStatusName;

const jsonOf = <T>(value: unknown): T | null =>
  value === null || value === undefined ? null : ((typeof value === 'string' ? JSON.parse(value) : value) as T);

/**
 * Selects a transaction row with its payout, collection or refund (each null unless of that type):
 * the one column list every read of transactions uses, so no details are ever missing.
 */
export const TRANSACTION_COLUMNS = `*,
  (select to_jsonb(p) from payout p where p.id = payment_transaction.id) as payout,
  (select to_jsonb(c) from collection c where c.id = payment_transaction.id) as collection,
  (select to_jsonb(r) from refund r where r.id = payment_transaction.id) as refund`;

/** A payment_transaction row (TRANSACTION_COLUMNS) as the contract's Transaction. */
export function transactionOf(row: Row): Transaction {
  const payout = jsonOf<Row>(row.payout);
  const collection = jsonOf<Row>(row.collection);
  const refund = jsonOf<Row>(row.refund);
  const swap = jsonOf<StoredSwapDetails>(row.swap_details);
  const adjustment = jsonOf<StoredAdjustmentDetails>(row.adjustment_details);
  return create(TransactionSchema, {
    id: String(row.id),
    businessId: String(row.business_id),
    type: transactionTypeOf(String(row.type)),
    status: transactionStatusOf(String(row.status)),
    currency: String(row.currency),
    amount: int8(row.amount),
    fee: int8(row.fee),
    net: int8(row.net),
    reference: row.reference === null ? undefined : String(row.reference),
    refundStatus:
      row.refund_status === null || row.refund_status === undefined
        ? undefined
        : enumValueOf(RefundStatus, String(row.refund_status)),
    swapDetails: swap
      ? {
          fromCurrency: swap.from_currency,
          fromAmount: BigInt(swap.from_amount),
          toCurrency: swap.to_currency,
          toAmount: BigInt(swap.to_amount),
          rate: swap.rate,
          fee: BigInt(swap.fee),
          quoteId: swap.quote_id ?? undefined,
          amountSide: swap.amount_side === 'to' ? AmountSide.TO : AmountSide.FROM,
        }
      : undefined,
    adjustmentDetails: adjustment
      ? {
          direction: adjustment.direction === 'debit' ? AdjustmentDirection.DEBIT : AdjustmentDirection.CREDIT,
          reason: adjustment.reason,
          actor: adjustment.actor,
        }
      : undefined,
    payoutDetails: payout ? payoutDetailsOf(payout) : undefined,
    collectionDetails: collection ? collectionDetailsOf(collection) : undefined,
    refundDetails: refund ? refundOf(refund) : undefined,
    description: String(row.description),
    createdAt: timestampFromDate(dateOf(row.created_at)),
    updatedAt: timestampFromDate(dateOf(row.updated_at)),
  });
}
