import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { PayoutFailureCode, PayoutStatus } from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import {
  TransactionSchema,
  TransactionStatus,
  TransactionType,
  type Transaction,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { payoutJson, type PayoutJson, type PayoutStatusWord } from '@corridor/payments-json';

/**
 * Payout webhooks (decision 0013): every state change of a payout goes to payout_url as
 * `payout.<status>` with the payout exactly as GET /payout/{id} shows it, rendered by the one
 * renderer the API uses, so a webhook and a read can never disagree.
 */

export const PAYOUT_EVENTS = {
  pending: 'payout.pending',
  processing: 'payout.processing',
  successful: 'payout.successful',
  failed: 'payout.failed',
  reversed: 'payout.reversed',
} as const satisfies Record<PayoutStatusWord, `payout.${PayoutStatusWord}`>;

export type PayoutEventType = (typeof PAYOUT_EVENTS)[PayoutStatusWord];

/** The webhook of a PAYOUT transaction; throws (RangeError) when the contract cannot show it. */
export function renderPayout(transaction: Transaction): { eventType: PayoutEventType; data: PayoutJson } {
  const data = payoutJson(transaction);
  return { eventType: PAYOUT_EVENTS[data.status], data };
}

const EXAMPLE_BUSINESS = '00000000-0000-4000-8000-000000000000';
const exampleAt = (seconds: number) => timestampFromDate(new Date(Date.UTC(2026, 10, 21, 9, 30, seconds)));

interface ExampleStage {
  payout: PayoutStatus;
  transaction: TransactionStatus;
  /** Seconds after creation of the change, of completion (success or failure) and of the bank's return. */
  updated: number;
  completed?: number;
  reversed?: number;
  failure?: PayoutFailureCode;
}

/** Where the example payout is at each status, as payments' worker leaves it (decision 0013). */
const EXAMPLE_STAGES: Record<PayoutStatusWord, ExampleStage> = {
  pending: { payout: PayoutStatus.PENDING, transaction: TransactionStatus.PENDING, updated: 0 },
  processing: { payout: PayoutStatus.PROCESSING, transaction: TransactionStatus.PROCESSING, updated: 1 },
  successful: { payout: PayoutStatus.SUCCESSFUL, transaction: TransactionStatus.SUCCESSFUL, updated: 3, completed: 3 },
  failed: {
    payout: PayoutStatus.FAILED,
    transaction: TransactionStatus.FAILED,
    updated: 3,
    completed: 3,
    failure: PayoutFailureCode.INVALID_ACCOUNT,
  },
  reversed: {
    payout: PayoutStatus.REVERSED,
    transaction: TransactionStatus.REVERSED,
    updated: 5,
    completed: 3,
    reversed: 5,
    failure: PayoutFailureCode.RETURNED_BY_BANK,
  },
};

/** A ₦2,500.00 payout to a GTBank account at the given status: the mock trigger's fixture. */
export function examplePayoutTransaction(status: PayoutStatusWord): Transaction {
  const stage = EXAMPLE_STAGES[status];
  const optionalAt = (seconds: number | undefined) => (seconds === undefined ? undefined : exampleAt(seconds));
  return create(TransactionSchema, {
    id: '3f6d2b8e-7a41-4c59-9e0d-5b8c1a2f4e60',
    businessId: EXAMPLE_BUSINESS,
    type: TransactionType.PAYOUT,
    status: stage.transaction,
    currency: 'NGN',
    amount: -250_000n,
    fee: 2_250n,
    net: -252_250n,
    reference: 'payout-2026-0042',
    description: 'Payout to Adaeze Okafor, Guaranty Trust Bank',
    createdAt: exampleAt(0),
    updatedAt: exampleAt(stage.updated),
    payoutDetails: {
      status: stage.payout,
      destination: {
        bankCode: '058',
        bankName: 'Guaranty Trust Bank',
        accountNumber: '0123456785',
        accountName: 'Adaeze Okafor',
        currency: 'NGN',
      },
      narration: 'Invoice 42',
      beneficiaryId: '9a1c4e27-5d3b-4f80-8b6e-2c7d0f9a3b15',
      failureCode: stage.failure,
      railReference: stage.payout === PayoutStatus.PENDING ? '' : 'sandbox-rail-7c2e91',
      completedAt: optionalAt(stage.completed),
      reversedAt: optionalAt(stage.reversed),
    },
  });
}

/** The example `data` of `payout.<status>`, from the same renderer as a real payout's. */
export const payoutExample = (status: PayoutStatusWord): PayoutJson => payoutJson(examplePayoutTransaction(status));
