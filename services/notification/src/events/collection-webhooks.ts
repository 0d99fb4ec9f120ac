import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  CollectionFailureCode,
  CollectionMethod,
  RefundStatus,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import {
  TransactionSchema,
  TransactionStatus,
  TransactionType,
  type Transaction,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import {
  collectionFailureWord,
  collectionMethodWord,
  cryptoDepositJson,
  enumValueOf,
  iso,
  isoOrNull,
  jsonInteger,
  refundStatusWord,
  type EnumName,
  type RefundStatusWord,
} from '@corridor/payments-json';

/**
 * Collection and refund webhooks (seed 6.3, decisions 0010 and 0014): a COLLECTION or REFUND
 * transaction reaching a status the platform is told about, sent to collection_url. The mock
 * trigger's examples are fixture transactions rendered here too, so a mock has a real body's shape.
 */

export const COLLECTION_EVENTS = {
  SUCCESSFUL: 'collection.successful',
  FAILED: 'collection.failed',
  EXPIRED: 'collection.expired',
} as const satisfies Partial<Record<EnumName<typeof TransactionStatus>, `collection.${string}`>>;

/** The collection's status as its webhook names it (the transaction's); PENDING (an unpaid money request) has none. */
export type CollectionOutcome = keyof typeof COLLECTION_EVENTS;
export type CollectionEventType = (typeof COLLECTION_EVENTS)[CollectionOutcome];

/** Seed 6.3's message of each outcome. */
const COLLECTION_MESSAGES: Record<CollectionOutcome, string> = {
  SUCCESSFUL: 'Transaction Successful',
  FAILED: 'Transaction Failed',
  EXPIRED: 'Transaction Expired',
};

function collectionOutcome(status: TransactionStatus): CollectionOutcome | undefined {
  const name = TransactionStatus[status];
  return name !== undefined && name in COLLECTION_EVENTS ? (name as CollectionOutcome) : undefined;
}

/** The `data` of a collection webhook; throws (RangeError) when the contract cannot show the transaction. */
function collectionData(transaction: Transaction, outcome: CollectionOutcome) {
  const details = transaction.collectionDetails;
  if (!details) throw new RangeError(`collection ${transaction.id} has no collection_details`);
  return {
    transaction_id: transaction.id,
    business_id: transaction.businessId,
    transaction_status: outcome,
    message: COLLECTION_MESSAGES[outcome],
    method: collectionMethodWord(details.method),
    customer_id: details.customerId,
    virtual_account_id: details.virtualAccountId ?? null,
    sender_name: details.senderName ?? null,
    description: details.description ?? null,
    reference: transaction.reference ?? null,
    amount: jsonInteger(transaction.amount),
    fee: jsonInteger(transaction.fee),
    net: jsonInteger(transaction.net),
    currency: transaction.currency,
    failure_reason: details.failureCode === undefined ? null : collectionFailureWord(details.failureCode),
    created_at: iso(transaction.createdAt, 'created_at'),
    completed_at: isoOrNull(details.completedAt),
    // An expired collection's last change is its expiry.
    expired_at: outcome === 'EXPIRED' ? iso(transaction.updatedAt, 'updated_at') : null,
    // Decision 0015: the Interac payer's or sender's email, and a crypto deposit as the API shows it.
    payer_email: details.payerEmail ?? null,
    crypto: details.crypto ? cryptoDepositJson(details.crypto) : null,
  };
}

export type CollectionWebhookData = ReturnType<typeof collectionData>;

/** The webhook of a COLLECTION transaction at its status, or undefined when that status has none. */
export function renderCollection(
  transaction: Transaction,
): { eventType: CollectionEventType; data: CollectionWebhookData } | undefined {
  const outcome = collectionOutcome(transaction.status);
  if (!outcome) return undefined;
  return { eventType: COLLECTION_EVENTS[outcome], data: collectionData(transaction, outcome) };
}

export type RefundEventType = 'refund_initiated' | 'refund';

interface RefundStage {
  eventType: RefundEventType;
  status: RefundStatusWord;
  refundStatus: RefundStatus;
}

/** The refund's status at each status of its REFUND transaction that has a webhook. */
const REFUND_STATUS_OF: Partial<Record<TransactionStatus, RefundStatus>> = {
  [TransactionStatus.PROCESSING]: RefundStatus.PROCESSING,
  [TransactionStatus.SUCCESSFUL]: RefundStatus.SUCCESSFUL,
  [TransactionStatus.FAILED]: RefundStatus.FAILED,
};

/** Seed 3.5: initiation is `refund_initiated` (processing), the final stage `refund`. */
function refundStage(status: TransactionStatus): RefundStage | undefined {
  const refundStatus = REFUND_STATUS_OF[status];
  if (refundStatus === undefined) return undefined;
  return {
    eventType: refundStatus === RefundStatus.PROCESSING ? 'refund_initiated' : 'refund',
    status: refundStatusWord(refundStatus),
    refundStatus,
  };
}

function refundData(transaction: Transaction, stage: RefundStage) {
  const refund = transaction.refundDetails;
  if (!refund) throw new RangeError(`refund ${transaction.id} has no refund_details`);
  // The webhook and GET /refund/{id} must not disagree about where the refund is.
  if (refund.status !== stage.refundStatus) {
    throw new RangeError(
      `refund ${refund.id} is ${RefundStatus[refund.status]} but its transaction is ${TransactionStatus[transaction.status]}`,
    );
  }
  if (refund.amount <= 0n) throw new RangeError(`refund ${refund.id} has amount ${refund.amount}, not positive`);
  return {
    refund_id: refund.id,
    transaction_id: refund.transactionId,
    business_id: transaction.businessId,
    reference: refund.reference ?? null,
    reason: refund.reason ?? null,
    type: stage.eventType,
    status: stage.status,
    amount: jsonInteger(refund.amount),
    currency: refund.currency,
    failure_reason: refund.failureReason ?? null,
    created_at: iso(refund.createdAt, 'created_at'),
    completed_at: isoOrNull(refund.completedAt),
  };
}

export type RefundWebhookData = ReturnType<typeof refundData>;

/** The webhook of a REFUND transaction at its status, or undefined when that status has none. */
export function renderRefund(
  transaction: Transaction,
): { eventType: RefundEventType; data: RefundWebhookData } | undefined {
  const stage = refundStage(transaction.status);
  if (!stage) return undefined;
  return { eventType: stage.eventType, data: refundData(transaction, stage) };
}

const EXAMPLE_BUSINESS = '00000000-0000-4000-8000-000000000000';
const EXAMPLE_COLLECTION = '7b1e4c52-3f60-4a8e-b9d4-2e6f0a1c9d33';
const exampleAt = (hours: number, seconds = 0) =>
  timestampFromDate(new Date(Date.UTC(2026, 10, 21, 9 + hours, 30, seconds)));

/**
 * The mock trigger's collections: £250.00 sent by bank transfer into a GBP virtual account (FAILED:
 * bounced, the account being closed), or a ₦15,000.00 money request nobody paid within 48 hours.
 */
export function exampleCollectionTransaction(outcome: CollectionOutcome): Transaction {
  if (outcome === 'EXPIRED') {
    return create(TransactionSchema, {
      id: '2d9f6a13-8c4b-4e07-a5d2-6b1e9c3f0a48',
      businessId: EXAMPLE_BUSINESS,
      type: TransactionType.COLLECTION,
      status: TransactionStatus.EXPIRED,
      currency: 'NGN',
      amount: 1_500_000n,
      fee: 0n,
      net: 1_500_000n,
      reference: 'invoice-2026-0117',
      description: 'Money request: Invoice 117',
      createdAt: exampleAt(0),
      updatedAt: exampleAt(48),
      collectionDetails: {
        method: CollectionMethod.MONEY_REQUEST,
        customerId: '5f0c2a7e-2d7b-4f3e-9a61-0c5d1b9b6a11',
        description: 'Invoice 117',
        redirectUrl: 'https://shop.example.com/paid',
        paymentToken: 'pay_example_token',
        expiresAt: exampleAt(48),
        railReference: 'sandbox-request-4b7e20',
      },
    });
  }
  const failed = outcome === 'FAILED';
  return create(TransactionSchema, {
    id: EXAMPLE_COLLECTION,
    businessId: EXAMPLE_BUSINESS,
    type: TransactionType.COLLECTION,
    status: failed ? TransactionStatus.FAILED : TransactionStatus.SUCCESSFUL,
    currency: 'GBP',
    amount: 25_000n,
    // A bounced transfer credits nothing, so nothing is charged.
    fee: failed ? 0n : 125n,
    net: failed ? 25_000n : 24_875n,
    reference: 'collection-2026-0042',
    description: 'Bank transfer from Jane Doe',
    createdAt: exampleAt(0),
    updatedAt: exampleAt(0),
    collectionDetails: {
      method: CollectionMethod.BANK_TRANSFER,
      customerId: '5f0c2a7e-2d7b-4f3e-9a61-0c5d1b9b6a11',
      virtualAccountId: '8e3b5d71-0c2a-4f69-b4e8-1d7a9c2f6b05',
      senderName: 'Jane Doe',
      completedAt: exampleAt(0),
      failureCode: failed ? CollectionFailureCode.ACCOUNT_CLOSED : undefined,
      railReference: 'sandbox-transfer-91c3de',
    },
  });
}

/** The mock trigger's refund: the whole £250.00 of the example bank transfer, at the given status. */
export function exampleRefundTransaction(status: RefundStatusWord): Transaction {
  // A REFUND transaction's status and its refund's go by one name.
  const transactionStatus = enumValueOf(TransactionStatus, status);
  const refundStatus = enumValueOf(RefundStatus, status);
  const id = 'c3a9d1f4-6b2e-4d7a-8f15-9e0b2c4d6a77';
  const ended = status !== 'processing';
  const updatedAt = exampleAt(1, ended ? 5 : 0);
  return create(TransactionSchema, {
    id,
    businessId: EXAMPLE_BUSINESS,
    type: TransactionType.REFUND,
    status: transactionStatus,
    currency: 'GBP',
    amount: -25_000n,
    fee: 0n,
    net: -25_000n,
    reference: 'refund-2026-0042',
    description: 'Refund of collection-2026-0042',
    createdAt: exampleAt(1),
    updatedAt,
    refundDetails: {
      id,
      transactionId: EXAMPLE_COLLECTION,
      status: refundStatus,
      amount: 25_000n,
      currency: 'GBP',
      reason: 'customer request',
      reference: 'refund-2026-0042',
      failureReason: status === 'failed' ? 'declined by the receiving bank' : undefined,
      createdAt: exampleAt(1),
      updatedAt,
      completedAt: ended ? updatedAt : undefined,
    },
  });
}

/** The example `data` of a collection event, from the same renderer as a real collection's. */
export function collectionExample(outcome: CollectionOutcome): CollectionWebhookData {
  const rendered = renderCollection(exampleCollectionTransaction(outcome));
  if (!rendered) throw new Error(`the ${outcome} example collection has no webhook`);
  return rendered.data;
}

/** The example `data` of a refund event, from the same renderer as a real refund's. */
export function refundExample(status: RefundStatusWord): RefundWebhookData {
  const rendered = renderRefund(exampleRefundTransaction(status));
  if (!rendered) throw new Error(`the ${status} example refund has no webhook`);
  return rendered.data;
}
