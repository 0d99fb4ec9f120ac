import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { type Event } from '@corridor/contracts/events';
import { PayoutFailureCode, PayoutStatus } from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import {
  AmountSide,
  TransactionSchema,
  TransactionStatus,
  TransactionType,
  type Transaction,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { PAYOUT_STATUS_WORDS, payoutJson, type PayoutStatusWord } from '@corridor/payments-json';
import { PAYOUT_EVENTS } from './payout-webhooks.js';
import { renderEvent } from './render-event.js';
import { destinationOf, mockWebhookData, webhookBody, WEBHOOK_EVENTS } from './webhook-events.js';
import { business, created, createdEvent, later, updatedEvent } from '../../test/events/transaction-events.fixtures.js';

const PAYOUT_STATUS: Record<PayoutStatusWord, [PayoutStatus, TransactionStatus]> = {
  pending: [PayoutStatus.PENDING, TransactionStatus.PENDING],
  processing: [PayoutStatus.PROCESSING, TransactionStatus.PROCESSING],
  successful: [PayoutStatus.SUCCESSFUL, TransactionStatus.SUCCESSFUL],
  failed: [PayoutStatus.FAILED, TransactionStatus.FAILED],
  reversed: [PayoutStatus.REVERSED, TransactionStatus.REVERSED],
};

/** A £120.00 payout to Monzo from a saved beneficiary, as payments publishes it at each status. */
function monzoPayout(status: PayoutStatusWord): Transaction {
  const [payoutStatus, transactionStatus] = PAYOUT_STATUS[status];
  const ended = status === 'successful' || status === 'failed' || status === 'reversed';
  return create(TransactionSchema, {
    id: 'd2c8a4f1-0b6e-4e3a-9f57-1c2b3d4e5f60',
    businessId: business,
    type: TransactionType.PAYOUT,
    status: transactionStatus,
    currency: 'GBP',
    amount: -12_000n,
    fee: 150n,
    net: -12_150n,
    reference: 'rent-november',
    description: 'Payout to Jane Doe, Monzo Bank',
    createdAt: timestampFromDate(created),
    updatedAt: later(7),
    payoutDetails: {
      status: payoutStatus,
      destination: {
        bankCode: '040004',
        bankName: 'Monzo Bank',
        accountNumber: '12345678',
        accountName: 'Jane Doe',
        currency: 'GBP',
      },
      narration: 'Rent',
      beneficiaryId: '5e4d3c2b-1a09-4f8e-8d7c-6b5a49382716',
      railReference: status === 'pending' ? '' : 'rail-42',
      failureCode:
        status === 'failed'
          ? PayoutFailureCode.BANK_UNAVAILABLE
          : status === 'reversed'
            ? PayoutFailureCode.RETURNED_BY_BANK
            : undefined,
      completedAt: ended ? later(5) : undefined,
      reversedAt: status === 'reversed' ? later(7) : undefined,
    },
  });
}

/** transaction.created for a new payout, transaction.updated for every later status (decision 0013). */
const published = (transaction: Transaction, businessId = business): Event =>
  transaction.status === TransactionStatus.PENDING
    ? createdEvent(transaction, businessId)
    : updatedEvent(transaction, TransactionStatus.PENDING, businessId);

/** Each member's JSON type, nested objects member by member: what a receiver's parser relies on. */
function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.map(shapeOf);
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, shapeOf(v)]));
  }
  return typeof value;
}

describe('payout webhooks (decision 0013)', () => {
  it.each(PAYOUT_STATUS_WORDS)(
    'a payout %s is sent as payout.<status> with the payout exactly as GET /payout/{id} shows it',
    (status) => {
      const transaction = monzoPayout(status);
      const rendered = renderEvent(published(transaction));
      expect(rendered?.eventType).toBe(`payout.${status}`);
      expect(rendered?.data).toEqual(payoutJson(transaction));
      expect(rendered?.data).toMatchObject({ status, amount: 12_000, fee: 150, currency: 'GBP' });
      if (!rendered) throw new Error('no webhook rendered');
      expect(JSON.parse(webhookBody(rendered.eventType, rendered.data))).toEqual({
        event: `payout.${status}`,
        data: payoutJson(transaction),
      });
    },
  );

  it('failure and return reasons and their times are in the body', () => {
    expect(renderEvent(published(monzoPayout('failed')))?.data).toMatchObject({
      failure_reason: 'bank_unavailable',
      completed_at: '2026-11-24T08:00:05.000Z',
      reversed_at: null,
    });
    expect(renderEvent(published(monzoPayout('reversed')))?.data).toMatchObject({
      failure_reason: 'returned_by_bank',
      completed_at: '2026-11-24T08:00:05.000Z',
      reversed_at: '2026-11-24T08:00:07.000Z',
    });
  });

  it('every payout event goes to payout_url, even when kyc_url is registered', () => {
    const urls = {
      collectionUrl: 'https://c.example/h',
      payoutUrl: 'https://p.example/h',
      kycUrl: 'https://k.example',
    };
    for (const event of Object.values(PAYOUT_EVENTS)) expect(destinationOf(event, urls)).toBe('payout_url');
  });

  it('swaps and adjustments make no webhook', () => {
    const swap = create(TransactionSchema, {
      id: 'a1',
      type: TransactionType.SWAP,
      status: TransactionStatus.SUCCESSFUL,
      currency: 'NGN',
      amount: -100_000n,
      swapDetails: { fromCurrency: 'NGN', toCurrency: 'USD', rate: '0.00065', amountSide: AmountSide.FROM },
    });
    const adjustment = create(TransactionSchema, {
      id: 'a2',
      type: TransactionType.ADJUSTMENT,
      status: TransactionStatus.SUCCESSFUL,
      currency: 'NGN',
      amount: 5_000n,
      adjustmentDetails: { reason: 'goodwill credit' },
    });
    expect(renderEvent(published(swap))).toBeUndefined();
    expect(renderEvent(published(adjustment))).toBeUndefined();
  });

  it('a payout the contract cannot show (no status) is refused rather than sent half-rendered', () => {
    const broken = monzoPayout('processing');
    if (!broken.payoutDetails) throw new Error('fixture without payout details');
    broken.payoutDetails.status = PayoutStatus.UNSPECIFIED;
    expect(() => renderEvent(published(broken))).toThrow(RangeError);
  });
});

describe('POST /webhook/mock of payout events (decision 0010)', () => {
  it.each(PAYOUT_STATUS_WORDS)(
    'the payout.%s example has the members and JSON types of a real payout webhook of that status',
    (status) => {
      const mock = mockWebhookData(PAYOUT_EVENTS[status], business);
      const real = renderEvent(published(monzoPayout(status)))?.data;
      expect(shapeOf(mock)).toEqual(shapeOf(real));
      expect(Object.keys(mock)).toEqual(Object.keys(real ?? {}));
      expect(mock.status).toBe(status);
    },
  );

  it('a payout mock does not gain a business_id the real body lacks; replacements apply', () => {
    const mock = mockWebhookData('payout.failed', business, { reference: 'my-ref' });
    expect(mock).not.toHaveProperty('business_id');
    expect(mock).toMatchObject({ reference: 'my-ref', failure_reason: 'invalid_account' });
    expect(WEBHOOK_EVENTS['payout.failed'].example.reference).toBe('payout-2026-0042');
  });

  it('other mocks still name the calling business', () => {
    expect(mockWebhookData('refund', business).business_id).toBe(business);
  });
});
