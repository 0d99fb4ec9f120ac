import {
  CollectionFailureCode,
  CollectionMethod,
  RefundStatus,
  VirtualAccountCloseReason,
  VirtualAccountStatus,
  type CollectionDetails,
  type CryptoAddress,
  type CryptoDeposit,
  type CryptoNetwork,
  type IdentificationType,
  type Refund,
  type VirtualAccount,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { enumWords, iso, isoOrNull, jsonInteger, word, type EnumWord } from './json-values.js';

/**
 * The public JSON of virtual accounts, collections (crypto and Interac too, decision 0015) and refunds
 * (issue 11), rendered from the typed contract in one place for the gateway and the collection
 * webhooks. Absent optionals are null.
 */

export type RefundStatusWord = EnumWord<typeof RefundStatus>;
export const REFUND_STATUS_WORDS = enumWords(RefundStatus);
export const refundStatusWord = (status: RefundStatus) => word(RefundStatus, status, 'status') as RefundStatusWord;

export type CollectionMethodWord =
  'bank_transfer' | 'money_request' | 'crypto_deposit' | 'interac_request' | 'interac_transfer';
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

/** A stablecoin network a business can collect on, credited 1:1 in settlement_currency's minor units. */
export function cryptoNetworkJson(network: CryptoNetwork) {
  return {
    asset: network.asset,
    network: network.network,
    standard: network.standard,
    decimals: network.decimals,
    confirmations_required: network.confirmationsRequired,
    settlement_currency: network.settlementCurrency,
  };
}

export type CryptoNetworkJson = ReturnType<typeof cryptoNetworkJson>;

/** A customer's deposit address for one asset on one network. */
export function cryptoAddressJson(address: CryptoAddress) {
  return {
    id: address.id,
    customer_id: address.customerId,
    asset: address.asset,
    network: address.network,
    address: address.address,
    created_at: iso(address.createdAt, 'created_at'),
  };
}

export type CryptoAddressJson = ReturnType<typeof cryptoAddressJson>;

/** What arrived on chain. asset_amount stays a decimal string: 18-decimal assets pass 2^53 base units. */
export function cryptoDepositJson(deposit: CryptoDeposit) {
  return {
    address_id: deposit.addressId,
    asset: deposit.asset,
    network: deposit.network,
    address: deposit.address,
    asset_amount: deposit.assetAmount,
    tx_hash: deposit.txHash,
    confirmations: deposit.confirmations,
    confirmations_required: deposit.confirmationsRequired,
  };
}

export type CryptoDepositJson = ReturnType<typeof cryptoDepositJson>;

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
    payer_email: details.payerEmail ?? null,
    crypto: details.crypto ? cryptoDepositJson(details.crypto) : null,
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
