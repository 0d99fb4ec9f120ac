import {
  AccountScheme,
  PayoutFailureCode,
  PayoutStatus,
  type Bank,
  type Beneficiary,
  type PayoutDestination,
} from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import type { Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { enumWords, iso, isoOrNull, jsonInteger, word, type EnumWord } from './json-values.js';

export {
  enumNames,
  enumValueOf,
  enumWords,
  iso,
  isoOrNull,
  jsonInteger,
  type EnumName,
  type EnumWord,
} from './json-values.js';
export * from './collections.js';

/**
 * The public JSON of payout resources (decision 0013), rendered from the typed contract in one
 * place: the gateway answers it and notification sends it in payout webhooks, so the two can never
 * disagree. Money is integer minor units; enums are lowercase words from the proto's names.
 */

export type PayoutStatusWord = EnumWord<typeof PayoutStatus>;
export const PAYOUT_STATUS_WORDS = enumWords(PayoutStatus);
export const payoutStatusWord = (status: PayoutStatus) => word(PayoutStatus, status, 'status') as PayoutStatusWord;
export const payoutFailureWord = (code: PayoutFailureCode) => word(PayoutFailureCode, code, 'failure_reason');
export const accountSchemeWord = (scheme: AccountScheme) => word(AccountScheme, scheme, 'scheme');

export function destinationJson(destination: PayoutDestination | undefined) {
  if (!destination) throw new RangeError('the destination is missing');
  return {
    bank_code: destination.bankCode,
    bank_name: destination.bankName,
    account_number: destination.accountNumber,
    account_name: destination.accountName,
    currency: destination.currency,
  };
}

/** A payout: the PAYOUT transaction's view (its id is the transaction id). Amounts are positive. */
export function payoutJson(transaction: Transaction) {
  const details = transaction.payoutDetails;
  if (!details) throw new Error(`transaction ${transaction.id} is not a payout`);
  return {
    id: transaction.id,
    status: payoutStatusWord(details.status),
    amount: jsonInteger(-transaction.amount),
    fee: jsonInteger(transaction.fee),
    currency: transaction.currency,
    reference: transaction.reference ?? null,
    narration: details.narration,
    destination: destinationJson(details.destination),
    beneficiary_id: details.beneficiaryId ?? null,
    failure_reason: details.failureCode === undefined ? null : payoutFailureWord(details.failureCode),
    created_at: iso(transaction.createdAt, 'created_at'),
    updated_at: iso(transaction.updatedAt, 'updated_at'),
    completed_at: isoOrNull(details.completedAt),
    reversed_at: isoOrNull(details.reversedAt),
  };
}

export type PayoutJson = ReturnType<typeof payoutJson>;

export function bankJson(bank: Bank) {
  return {
    code: bank.code,
    name: bank.name,
    country: bank.country,
    currency: bank.currency,
    scheme: accountSchemeWord(bank.scheme),
  };
}

export function beneficiaryJson(beneficiary: Beneficiary) {
  return {
    id: beneficiary.id,
    ...destinationJson(beneficiary.destination),
    created_at: iso(beneficiary.createdAt, 'created_at'),
    last_used_at: isoOrNull(beneficiary.lastUsedAt),
  };
}
