import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { CollectionMethod, CryptoDepositSchema } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import {
  TransactionSchema,
  TransactionStatus,
  TransactionType,
  type Transaction,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { renderEvent } from './render-event.js';
import { mockWebhookData } from './webhook-events.js';
import {
  business,
  created,
  createdEvent,
  customer,
  later,
  updatedEvent,
} from '../../test/events/transaction-events.fixtures.js';

/** The collection webhooks of decision 0015's methods: what a crypto deposit and Interac add to `data`. */

const txHash = `0x${'a1'.repeat(32)}`;

/** 250 USDT on TRON: PROCESSING with `confirmations` of 20, SUCCESSFUL (25.00 seconds later) at 20. */
function cryptoDeposit(status: TransactionStatus, confirmations: number): Transaction {
  const confirmed = status === TransactionStatus.SUCCESSFUL;
  return create(TransactionSchema, {
    id: 'c0ffee00-1111-4222-8333-444455556666',
    businessId: business,
    type: TransactionType.COLLECTION,
    status,
    currency: 'USD',
    amount: 25_000n,
    fee: 250n,
    net: 24_750n,
    description: 'Crypto deposit: 250 USDT on TRON',
    createdAt: timestampFromDate(created),
    updatedAt: later(confirmed ? 25 : 0),
    collectionDetails: {
      method: CollectionMethod.CRYPTO_DEPOSIT,
      customerId: customer,
      completedAt: confirmed ? later(25) : undefined,
      railReference: txHash,
      crypto: create(CryptoDepositSchema, {
        addressId: 'add0e550-1111-4222-8333-444455556666',
        asset: 'USDT',
        network: 'TRON',
        address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
        assetAmount: '250000000',
        txHash,
        confirmations,
        confirmationsRequired: 20,
      }),
    },
  });
}

/** 800.00 CAD by Interac: a request the payer pays, or an e-Transfer the business accepts. */
function interac(
  method: CollectionMethod.INTERAC_REQUEST | CollectionMethod.INTERAC_TRANSFER,
  status: TransactionStatus,
) {
  const ended = status === TransactionStatus.SUCCESSFUL;
  const request = method === CollectionMethod.INTERAC_REQUEST;
  return create(TransactionSchema, {
    id: 'ca0ca0ca-1111-4222-8333-444455556666',
    businessId: business,
    type: TransactionType.COLLECTION,
    status,
    currency: 'CAD',
    amount: 80_000n,
    fee: 800n,
    net: 79_200n,
    reference: request ? 'invoice-9' : undefined,
    description: request ? 'Interac request: Invoice 9' : 'Interac e-Transfer from Jean Tremblay',
    createdAt: timestampFromDate(created),
    updatedAt: later(ended ? 60 : 3_600),
    collectionDetails: {
      method,
      customerId: customer,
      description: request ? 'Invoice 9' : undefined,
      senderName: request ? undefined : 'Jean Tremblay',
      payerEmail: request ? 'accounts@payer.example.ca' : 'jean.tremblay@example.ca',
      expiresAt: later(3_600),
      completedAt: ended ? later(60) : undefined,
      railReference: '',
    },
  });
}

describe('crypto deposit webhooks (decision 0015)', () => {
  it('a deposit arriving PROCESSING, or gaining a confirmation, makes no webhook', () => {
    expect(renderEvent(createdEvent(cryptoDeposit(TransactionStatus.PROCESSING, 0)))).toBeUndefined();
    const confirming = cryptoDeposit(TransactionStatus.PROCESSING, 7);
    expect(renderEvent(updatedEvent(confirming, TransactionStatus.PROCESSING))).toBeUndefined();
  });

  it('a confirmed deposit is collection.successful with what arrived on chain, as the API shows it', () => {
    const rendered = renderEvent(
      updatedEvent(cryptoDeposit(TransactionStatus.SUCCESSFUL, 20), TransactionStatus.PROCESSING),
    );
    expect(rendered).toEqual({
      eventType: 'collection.successful',
      data: {
        transaction_id: 'c0ffee00-1111-4222-8333-444455556666',
        business_id: business,
        transaction_status: 'SUCCESSFUL',
        message: 'Transaction Successful',
        method: 'crypto_deposit',
        customer_id: customer,
        virtual_account_id: null,
        sender_name: null,
        description: null,
        reference: null,
        amount: 25_000,
        fee: 250,
        net: 24_750,
        currency: 'USD',
        failure_reason: null,
        created_at: '2026-11-24T08:00:00.000Z',
        completed_at: '2026-11-24T08:00:25.000Z',
        expired_at: null,
        payer_email: null,
        crypto: {
          address_id: 'add0e550-1111-4222-8333-444455556666',
          asset: 'USDT',
          network: 'TRON',
          address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
          asset_amount: '250000000',
          tx_hash: txHash,
          confirmations: 20,
          confirmations_required: 20,
        },
      },
    });
  });
});

describe('Interac webhooks (decision 0015)', () => {
  it.each([
    [CollectionMethod.INTERAC_REQUEST, 'interac_request', 'accounts@payer.example.ca', null],
    [CollectionMethod.INTERAC_TRANSFER, 'interac_transfer', 'jean.tremblay@example.ca', 'Jean Tremblay'],
  ] as const)(
    'method %s: none while PENDING, then collection.successful as %s with the payer’s email',
    (method, word, email, sender) => {
      expect(renderEvent(createdEvent(interac(method, TransactionStatus.PENDING)))).toBeUndefined();
      const paid = renderEvent(updatedEvent(interac(method, TransactionStatus.SUCCESSFUL), TransactionStatus.PENDING));
      expect(paid).toMatchObject({
        eventType: 'collection.successful',
        data: {
          method: word,
          payer_email: email,
          sender_name: sender,
          currency: 'CAD',
          amount: 80_000,
          completed_at: '2026-11-24T08:01:00.000Z',
          crypto: null,
        },
      });
    },
  );

  it('an e-Transfer never accepted is collection.expired, still naming its sender’s email', () => {
    const expired = interac(CollectionMethod.INTERAC_TRANSFER, TransactionStatus.EXPIRED);
    expect(renderEvent(updatedEvent(expired, TransactionStatus.PENDING))).toMatchObject({
      eventType: 'collection.expired',
      data: { payer_email: 'jean.tremblay@example.ca', expired_at: '2026-11-24T09:00:00.000Z', completed_at: null },
    });
  });

  it('the mock examples have the same members as these, payer_email and crypto null', () => {
    const real = renderEvent(
      updatedEvent(interac(CollectionMethod.INTERAC_REQUEST, TransactionStatus.SUCCESSFUL), TransactionStatus.PENDING),
    );
    const mock = mockWebhookData('collection.successful', business);
    expect(Object.keys(mock)).toEqual(Object.keys(real?.data ?? {}));
    expect(mock).toMatchObject({ payer_email: null, crypto: null });
  });
});
