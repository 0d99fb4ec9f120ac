import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { type Event } from '@corridor/contracts/events';
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
import type { RefundStatusWord } from '@corridor/payments-json';
import { COLLECTION_EVENTS } from './collection-webhooks.js';
import { renderEvent } from './render-event.js';
import {
  destinationOf,
  mockWebhookData,
  webhookBody,
  WEBHOOK_EVENTS,
  type WebhookEventType,
} from './webhook-events.js';
import {
  business,
  created,
  createdEvent,
  customer,
  later,
  updatedEvent,
} from '../../test/events/transaction-events.fixtures.js';

/** €80.00 sent by Max Mustermann into the customer's EUR virtual account (created at its outcome). */
function euroTransfer(status: TransactionStatus.SUCCESSFUL | TransactionStatus.FAILED): Transaction {
  const bounced = status === TransactionStatus.FAILED;
  return create(TransactionSchema, {
    id: 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b',
    businessId: business,
    type: TransactionType.COLLECTION,
    status,
    currency: 'EUR',
    amount: 8_000n,
    fee: bounced ? 0n : 40n,
    net: bounced ? 8_000n : 7_960n,
    reference: 'INV-5521',
    description: 'Bank transfer from Max Mustermann',
    createdAt: timestampFromDate(created),
    updatedAt: timestampFromDate(created),
    collectionDetails: {
      method: CollectionMethod.BANK_TRANSFER,
      customerId: customer,
      virtualAccountId: 'a7b6c5d4-e3f2-4a1b-9c8d-7e6f5a4b3c2d',
      senderName: 'Max Mustermann',
      completedAt: timestampFromDate(created),
      failureCode: bounced ? CollectionFailureCode.ACCOUNT_CLOSED : undefined,
      railReference: 'rail-eur-77',
    },
  });
}

/** A ₦50,000.00 money request: PENDING when made, then paid, declined or expired `seconds` later. */
function moneyRequest(status: TransactionStatus, seconds = 0): Transaction {
  const ended = status === TransactionStatus.SUCCESSFUL || status === TransactionStatus.FAILED;
  return create(TransactionSchema, {
    id: 'f0e1d2c3-b4a5-4968-8776-5a4b3c2d1e0f',
    businessId: business,
    type: TransactionType.COLLECTION,
    status,
    currency: 'NGN',
    amount: 5_000_000n,
    fee: 7_500n,
    net: 4_992_500n,
    reference: 'order-881',
    description: 'Money request: Order 881',
    createdAt: timestampFromDate(created),
    updatedAt: later(seconds),
    collectionDetails: {
      method: CollectionMethod.MONEY_REQUEST,
      customerId: customer,
      description: 'Order 881',
      redirectUrl: 'https://shop.example/done',
      paymentToken: 'secret-token',
      expiresAt: later(172_800),
      completedAt: ended ? later(seconds) : undefined,
      failureCode: status === TransactionStatus.FAILED ? CollectionFailureCode.DECLINED_BY_PAYER : undefined,
      railReference: 'rail-req-12',
    },
  });
}

const REFUND_STATUS: Record<RefundStatusWord, [TransactionStatus, RefundStatus]> = {
  processing: [TransactionStatus.PROCESSING, RefundStatus.PROCESSING],
  successful: [TransactionStatus.SUCCESSFUL, RefundStatus.SUCCESSFUL],
  failed: [TransactionStatus.FAILED, RefundStatus.FAILED],
};

/** The full refund of the euro transfer, at a status. */
function euroRefund(status: RefundStatusWord): Transaction {
  const [transactionStatus, refundStatus] = REFUND_STATUS[status];
  const id = 'b9a8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c6d';
  return create(TransactionSchema, {
    id,
    businessId: business,
    type: TransactionType.REFUND,
    status: transactionStatus,
    currency: 'EUR',
    amount: -8_000n,
    net: -8_000n,
    reference: 'refund-ord-5',
    createdAt: later(60),
    updatedAt: later(status === 'processing' ? 60 : 65),
    refundDetails: {
      id,
      transactionId: 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b',
      status: refundStatus,
      amount: 8_000n,
      currency: 'EUR',
      reason: 'damaged goods',
      reference: 'refund-ord-5',
      failureReason: status === 'failed' ? 'beneficiary account closed' : undefined,
      createdAt: later(60),
      updatedAt: later(status === 'processing' ? 60 : 65),
      completedAt: status === 'processing' ? undefined : later(65),
    },
  });
}

describe('collection webhooks (seed 6.3, decision 0014)', () => {
  it('a bank transfer received is collection.successful with the collection, its fee and net', () => {
    const rendered = renderEvent(createdEvent(euroTransfer(TransactionStatus.SUCCESSFUL)));
    expect(rendered).toEqual({
      eventType: 'collection.successful',
      data: {
        transaction_id: 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b',
        business_id: business,
        transaction_status: 'SUCCESSFUL',
        message: 'Transaction Successful',
        method: 'bank_transfer',
        customer_id: customer,
        virtual_account_id: 'a7b6c5d4-e3f2-4a1b-9c8d-7e6f5a4b3c2d',
        sender_name: 'Max Mustermann',
        description: null,
        reference: 'INV-5521',
        amount: 8_000,
        fee: 40,
        net: 7_960,
        currency: 'EUR',
        failure_reason: null,
        created_at: '2026-11-24T08:00:00.000Z',
        completed_at: '2026-11-24T08:00:00.000Z',
        expired_at: null,
        payer_email: null,
        crypto: null,
      },
    });
    if (!rendered) throw new Error('no webhook rendered');
    expect(JSON.parse(webhookBody(rendered.eventType, rendered.data))).toEqual({
      event: 'collection.successful',
      data: rendered.data,
    });
  });

  it('a transfer bounced off a closed account is collection.failed with account_closed', () => {
    expect(renderEvent(createdEvent(euroTransfer(TransactionStatus.FAILED)))).toMatchObject({
      eventType: 'collection.failed',
      data: { transaction_status: 'FAILED', message: 'Transaction Failed', failure_reason: 'account_closed' },
    });
  });

  it('a money request makes no webhook when created pending, then one when paid or declined', () => {
    expect(renderEvent(createdEvent(moneyRequest(TransactionStatus.PENDING)))).toBeUndefined();
    const paid = renderEvent(updatedEvent(moneyRequest(TransactionStatus.SUCCESSFUL, 30), TransactionStatus.PENDING));
    expect(paid).toMatchObject({
      eventType: 'collection.successful',
      data: {
        method: 'money_request',
        description: 'Order 881',
        reference: 'order-881',
        virtual_account_id: null,
        sender_name: null,
        amount: 5_000_000,
        completed_at: '2026-11-24T08:00:30.000Z',
        expired_at: null,
      },
    });
    expect(paid?.data).not.toHaveProperty('payment_token');
    expect(
      renderEvent(updatedEvent(moneyRequest(TransactionStatus.FAILED, 30), TransactionStatus.PENDING)),
    ).toMatchObject({
      eventType: 'collection.failed',
      data: { transaction_status: 'FAILED', failure_reason: 'declined_by_payer' },
    });
  });

  it('seed 3.5: a money request not paid in time is collection.expired, expired_at its expiry', () => {
    const rendered = renderEvent(
      updatedEvent(moneyRequest(TransactionStatus.EXPIRED, 172_800), TransactionStatus.PENDING),
    );
    expect(rendered).toMatchObject({
      eventType: 'collection.expired',
      data: {
        transaction_status: 'EXPIRED',
        message: 'Transaction Expired',
        completed_at: null,
        failure_reason: null,
        expired_at: '2026-11-26T08:00:00.000Z',
      },
    });
  });

  it('an update that keeps the status (a refund changing the collection’s refund_status) makes no second webhook', () => {
    const refunded = euroTransfer(TransactionStatus.SUCCESSFUL);
    refunded.refundStatus = RefundStatus.PROCESSING;
    expect(renderEvent(updatedEvent(refunded, TransactionStatus.SUCCESSFUL))).toBeUndefined();
  });

  it('a collection without its collection_details is refused rather than sent half-rendered', () => {
    const broken = euroTransfer(TransactionStatus.SUCCESSFUL);
    broken.collectionDetails = undefined;
    expect(() => renderEvent(createdEvent(broken))).toThrow(RangeError);
  });
});

describe('refund webhooks (seed 3.5, 6.3)', () => {
  it('a refund created processing is refund_initiated with the refunded collection’s id', () => {
    expect(renderEvent(createdEvent(euroRefund('processing')))).toEqual({
      eventType: 'refund_initiated',
      data: {
        refund_id: 'b9a8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c6d',
        transaction_id: 'e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b',
        business_id: business,
        reference: 'refund-ord-5',
        reason: 'damaged goods',
        type: 'refund_initiated',
        status: 'processing',
        amount: 8_000,
        currency: 'EUR',
        failure_reason: null,
        created_at: '2026-11-24T08:01:00.000Z',
        completed_at: null,
      },
    });
  });

  it.each(['successful', 'failed'] as const)('a refund that ends %s is `refund` with that status', (status) => {
    const rendered = renderEvent(updatedEvent(euroRefund(status), TransactionStatus.PROCESSING));
    expect(rendered).toMatchObject({
      eventType: 'refund',
      data: { type: 'refund', status, amount: 8_000, completed_at: '2026-11-24T08:01:05.000Z' },
    });
    expect(rendered?.data.failure_reason).toBe(status === 'failed' ? 'beneficiary account closed' : null);
  });

  it('a refund whose own status disagrees with its transaction’s is refused', () => {
    const broken = euroRefund('successful');
    if (!broken.refundDetails) throw new Error('fixture without refund details');
    broken.refundDetails.status = RefundStatus.PROCESSING;
    expect(() => renderEvent(updatedEvent(broken, TransactionStatus.PROCESSING))).toThrow(RangeError);
  });

  it('every collection and refund event goes to collection_url, even when kyc_url is registered', () => {
    const urls = {
      collectionUrl: 'https://c.example/h',
      payoutUrl: 'https://p.example/h',
      kycUrl: 'https://k.example',
    };
    for (const event of [...Object.values(COLLECTION_EVENTS), 'refund_initiated', 'refund'] as const) {
      expect(destinationOf(event, urls)).toBe('collection_url');
    }
  });
});

/** Each member's JSON type: what a receiver's parser relies on. */
const shapeOf = (data: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(data).map(([key, value]) => [key, value === null ? 'null' : typeof value]));

describe('POST /webhook/mock of collection and refund events (decision 0010)', () => {
  const real: Record<string, Event> = {
    'collection.successful': createdEvent(euroTransfer(TransactionStatus.SUCCESSFUL)),
    'collection.failed': createdEvent(euroTransfer(TransactionStatus.FAILED)),
    'collection.expired': updatedEvent(moneyRequest(TransactionStatus.EXPIRED, 172_800), TransactionStatus.PENDING),
    refund_initiated: createdEvent(euroRefund('processing')),
    refund: updatedEvent(euroRefund('successful'), TransactionStatus.PROCESSING),
  };

  it.each(Object.keys(real) as WebhookEventType[])('the %s example has the members of a real one', (event) => {
    const rendered = renderEvent(real[event] as Event);
    expect(rendered?.eventType).toBe(event);
    const mock = mockWebhookData(event, business);
    expect(Object.keys(mock)).toEqual(Object.keys(rendered?.data ?? {}));
    expect(mock.business_id).toBe(business);
  });

  it('the examples carry the values seed 6.3 fixes, with real JSON types where a real body has a value', () => {
    expect(WEBHOOK_EVENTS['collection.expired'].example).toMatchObject({
      transaction_status: 'EXPIRED',
      message: 'Transaction Expired',
      method: 'money_request',
      expired_at: '2026-11-23T09:30:00.000Z',
    });
    expect(WEBHOOK_EVENTS.refund_initiated.example).toMatchObject({ type: 'refund_initiated', status: 'processing' });
    expect(WEBHOOK_EVENTS.refund.example).toMatchObject({ type: 'refund', status: 'successful' });
    expect(shapeOf(WEBHOOK_EVENTS['collection.successful'].example)).toEqual(
      shapeOf(renderEvent(real['collection.successful'] as Event)?.data ?? {}),
    );
  });

  it('replacements apply to the members the example has', () => {
    expect(mockWebhookData('refund', business, { status: 'failed', reference: 'r-7' })).toMatchObject({
      type: 'refund',
      status: 'failed',
      reference: 'r-7',
      business_id: business,
    });
  });
});
