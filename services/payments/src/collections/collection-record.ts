import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  CollectionDetailsSchema,
  CollectionFailureCode,
  CollectionMethod,
  RefundSchema,
  RefundStatus,
  type CollectionDetails,
  type Refund,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { TransactionStatus } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { enumValueOf, enumWords, type EnumWord } from '@corridor/payments-json';
import { dateOf, int8, type Row } from '../ledger/index.js';

/** Collection and refund rows (as selected, or as to_jsonb gives them) as the contract's messages. */

/** As the collection table stores it: its transaction's status in lower case; a collection is never reversed. */
export const COLLECTION_STATUS_WORDS = enumWords(TransactionStatus).filter(
  (word): word is Exclude<EnumWord<typeof TransactionStatus>, 'reversed'> => word !== 'reversed',
);
export type CollectionStatusName = (typeof COLLECTION_STATUS_WORDS)[number];
export type CollectionMethodName =
  'bank_transfer' | 'money_request' | 'crypto_deposit' | 'interac_request' | 'interac_transfer';
export type CollectionFailureName = 'account_closed' | 'declined_by_payer' | 'rejected_by_bank';

const FAILURE: Record<CollectionFailureName, CollectionFailureCode> = {
  account_closed: CollectionFailureCode.ACCOUNT_CLOSED,
  declined_by_payer: CollectionFailureCode.DECLINED_BY_PAYER,
  rejected_by_bank: CollectionFailureCode.REJECTED_BY_BANK,
};

const METHOD: Record<CollectionMethodName, CollectionMethod> = {
  bank_transfer: CollectionMethod.BANK_TRANSFER,
  money_request: CollectionMethod.MONEY_REQUEST,
  crypto_deposit: CollectionMethod.CRYPTO_DEPOSIT,
  interac_request: CollectionMethod.INTERAC_REQUEST,
  interac_transfer: CollectionMethod.INTERAC_TRANSFER,
};

const optionalText = (value: unknown) => (value === null || value === undefined ? undefined : String(value));
const optionalTimestamp = (value: unknown) =>
  value === null || value === undefined ? undefined : timestampFromDate(dateOf(value));

export function collectionDetailsOf(row: Row): CollectionDetails {
  const failure = optionalText(row.failure_code) as CollectionFailureName | undefined;
  return create(CollectionDetailsSchema, {
    method: METHOD[String(row.method) as CollectionMethodName],
    customerId: String(row.customer_id),
    virtualAccountId: optionalText(row.virtual_account_id),
    senderName: optionalText(row.sender_name),
    description: optionalText(row.description),
    redirectUrl: optionalText(row.redirect_url),
    paymentToken: optionalText(row.payment_token),
    expiresAt: optionalTimestamp(row.expires_at),
    completedAt: optionalTimestamp(row.completed_at),
    failureCode: failure === undefined ? undefined : FAILURE[failure],
    railReference: String(row.rail_reference ?? ''),
    payerEmail: optionalText(row.payer_email),
    crypto:
      row.method === 'crypto_deposit'
        ? {
            addressId: String(row.crypto_address_id),
            asset: String(row.asset),
            network: String(row.network),
            address: String(row.address),
            assetAmount: String(row.asset_amount),
            txHash: String(row.tx_hash),
            confirmations: Number(row.confirmations),
            confirmationsRequired: Number(row.confirmations_required),
          }
        : undefined,
  });
}

export function refundOf(row: Row): Refund {
  return create(RefundSchema, {
    id: String(row.id),
    transactionId: String(row.collection_id),
    status: enumValueOf(RefundStatus, String(row.status)),
    amount: int8(row.amount),
    currency: String(row.currency),
    reason: optionalText(row.reason),
    reference: optionalText(row.reference),
    failureReason: optionalText(row.failure_reason),
    createdAt: timestampFromDate(dateOf(row.created_at)),
    updatedAt: timestampFromDate(dateOf(row.updated_at)),
    completedAt: optionalTimestamp(row.completed_at),
  });
}
