import {
  CollectionFailureCode,
  CollectionMethod,
  RefundStatus,
  VirtualAccountCloseReason,
  VirtualAccountStatus,
  type CollectionDetails,
  type IdentificationType,
  type Refund,
  type VirtualAccount,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { iso, isoOrNull, jsonInteger, word } from './json-values.js';

/**
 * The public JSON of virtual accounts, collections and refunds (issue 11), rendered from the typed
 * contract in one place for the gateway and the collection webhooks. Absent optionals are null.
 */

export type RefundStatusWord = 'processing' | 'successful' | 'failed';
export const REFUND_STATUS_WORDS: readonly RefundStatusWord[] = ['processing', 'successful', 'failed'];
export const refundStatusWord = (status: RefundStatus) => word(RefundStatus, status, 'status') as RefundStatusWord;

export type CollectionMethodWord = 'bank_transfer' | 'money_request';
export const collectionMethodWord = (method: CollectionMethod) =>
  word(CollectionMethod, method, 'method') as CollectionMethodWord;
export const collectionFailureWord = (code: CollectionFailureCode) =>
  word(CollectionFailureCode, code, 'failure_reason');

export function virtualAccountJson(account: VirtualAccount) {
  return {
    id: account.id,
    customer_id: account.customerId,
    currency: account.currency,
    status: word(VirtualAccountStatus, account.status, 'status'),
    account_name: account.accountName,
    account_number: account.accountNumber,
    bank_name: account.bankName,
    bank_code: account.bankCode,
    created_at: iso(account.createdAt, 'created_at'),
    closed_at: isoOrNull(account.closedAt),
    close_reason:
      account.closeReason === undefined ? null : word(VirtualAccountCloseReason, account.closeReason, 'close_reason'),
  };
}

export type VirtualAccountJson = ReturnType<typeof virtualAccountJson>;

export function identificationTypeJson(type: IdentificationType) {
  return {
    code: type.code,
    name: type.name,
    country: type.country,
    customer_types: [...type.customerTypes],
  };
}

/**
 * What a COLLECTION transaction adds. The payment token is the payer's secret, so it is never a
 * field: the caller passes the full payment link built from it (or null), as only it knows its host.
 */
export function collectionDetailsJson(details: CollectionDetails, paymentLink: string | null) {
  return {
    method: collectionMethodWord(details.method),
    customer_id: details.customerId,
    virtual_account_id: details.virtualAccountId ?? null,
    sender_name: details.senderName ?? null,
    description: details.description ?? null,
    redirect_url: details.redirectUrl ?? null,
    payment_link: paymentLink,
    expires_at: isoOrNull(details.expiresAt),
    completed_at: isoOrNull(details.completedAt),
    failure_reason: details.failureCode === undefined ? null : collectionFailureWord(details.failureCode),
    rail_reference: details.railReference,
  };
}

export type CollectionDetailsJson = ReturnType<typeof collectionDetailsJson>;

/** A refund of a collection; its id is also the id of its REFUND transaction. amount is positive. */
export function refundJson(refund: Refund) {
  return {
    id: refund.id,
    transaction_id: refund.transactionId,
    status: refundStatusWord(refund.status),
    amount: jsonInteger(refund.amount),
    currency: refund.currency,
    reason: refund.reason ?? null,
    reference: refund.reference ?? null,
    failure_reason: refund.failureReason ?? null,
    created_at: iso(refund.createdAt, 'created_at'),
    updated_at: iso(refund.updatedAt, 'updated_at'),
    completed_at: isoOrNull(refund.completedAt),
  };
}

export type RefundJson = ReturnType<typeof refundJson>;
