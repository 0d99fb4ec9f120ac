import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  PayoutDetailsSchema,
  PayoutFailureCode,
  PayoutStatus,
  type PayoutDetails,
} from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import { enumValueOf, type PayoutStatusWord } from '@corridor/payments-json';
import type { Row } from '../ledger/index.js';

const FAILURE: Record<string, PayoutFailureCode> = {
  invalid_account: PayoutFailureCode.INVALID_ACCOUNT,
  account_closed: PayoutFailureCode.ACCOUNT_CLOSED,
  bank_unavailable: PayoutFailureCode.BANK_UNAVAILABLE,
  rejected_by_bank: PayoutFailureCode.REJECTED_BY_BANK,
  returned_by_bank: PayoutFailureCode.RETURNED_BY_BANK,
};

/** The transaction status that goes with a payout status. */
export const transactionStatusOfPayout = (status: PayoutStatusWord) =>
  status.toUpperCase() as Uppercase<PayoutStatusWord>;

const dateOrUndefined = (value: unknown) =>
  value === null || value === undefined ? undefined : timestampFromDate(new Date(String(value)));

/** A payout row (as to_jsonb gives it) as the transaction's payout_details. */
export function payoutDetailsOf(payout: Row): PayoutDetails {
  const failure =
    payout.failure_code === null || payout.failure_code === undefined
      ? undefined
      : FAILURE[String(payout.failure_code)];
  return create(PayoutDetailsSchema, {
    status: enumValueOf(PayoutStatus, String(payout.status)),
    destination: {
      bankCode: String(payout.bank_code),
      bankName: String(payout.bank_name),
      accountNumber: String(payout.account_number),
      accountName: String(payout.account_name),
      currency: String(payout.currency),
    },
    narration: String(payout.narration),
    beneficiaryId:
      payout.beneficiary_id === null || payout.beneficiary_id === undefined ? undefined : String(payout.beneficiary_id),
    failureCode: failure,
    railReference: String(payout.rail_reference ?? ''),
    completedAt: dateOrUndefined(payout.completed_at),
    reversedAt: dateOrUndefined(payout.reversed_at),
  });
}
