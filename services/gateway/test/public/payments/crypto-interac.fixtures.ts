import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  CollectionDetailsSchema,
  CollectionMethod,
  CryptoAddressSchema,
  CryptoDepositSchema,
  CryptoNetworkSchema,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { TransactionStatus, TransactionType } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { COLLECTION_ID, CUSTOMER_ID, EXPIRES_AT } from './collection.fixtures.js';
import { CREATED, swapTransaction, UPDATED } from './payments.fixtures.js';

/** payments' crypto and Interac answers as the gateway receives them (decision 0015). */

export const CRYPTO_ADDRESS_ID = 'b05cae05-0000-4000-8000-000000002001';
export const TRON_ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
export const TX_HASH = `0x${'4f'.repeat(32)}`;
const at = timestampFromDate;

export const cryptoNetworks = () => [
  create(CryptoNetworkSchema, {
    asset: 'USDT',
    network: 'TRON',
    standard: 'TRC-20',
    decimals: 6,
    confirmationsRequired: 20,
    settlementCurrency: 'USD',
  }),
  create(CryptoNetworkSchema, {
    asset: 'USDC',
    network: 'SOLANA',
    standard: 'SPL',
    decimals: 6,
    confirmationsRequired: 1,
    settlementCurrency: 'USD',
  }),
];

export const CRYPTO_NETWORKS_JSON = [
  {
    asset: 'USDT',
    network: 'TRON',
    standard: 'TRC-20',
    decimals: 6,
    confirmations_required: 20,
    settlement_currency: 'USD',
  },
  {
    asset: 'USDC',
    network: 'SOLANA',
    standard: 'SPL',
    decimals: 6,
    confirmations_required: 1,
    settlement_currency: 'USD',
  },
];

export const cryptoAddress = (overrides: MessageInitShape<typeof CryptoAddressSchema> = {}) =>
  create(CryptoAddressSchema, {
    id: CRYPTO_ADDRESS_ID,
    customerId: CUSTOMER_ID,
    asset: 'USDT',
    network: 'TRON',
    address: TRON_ADDRESS,
    createdAt: at(CREATED),
    ...overrides,
  });

export const CRYPTO_ADDRESS_JSON = {
  id: CRYPTO_ADDRESS_ID,
  customer_id: CUSTOMER_ID,
  asset: 'USDT',
  network: 'TRON',
  address: TRON_ADDRESS,
  created_at: CREATED.toISOString(),
};

/** A COLLECTION of `currency` with these details; the amounts are the 1 % fee's. */
const collection = (
  status: TransactionStatus,
  currency: string,
  amount: bigint,
  description: string,
  reference: string | undefined,
  details: MessageInitShape<typeof CollectionDetailsSchema>,
) =>
  swapTransaction({
    id: COLLECTION_ID,
    type: TransactionType.COLLECTION,
    status,
    currency,
    amount,
    fee: amount / 100n,
    net: amount - amount / 100n,
    reference,
    description,
    swapDetails: undefined,
    collectionDetails: create(CollectionDetailsSchema, { customerId: CUSTOMER_ID, ...details }),
  });

/** 250 USDT on TRON just arrived at the address: 250.00 USD, PROCESSING with 0 of 20 confirmations. */
export const cryptoDepositTransaction = (crypto: MessageInitShape<typeof CryptoDepositSchema> = {}) =>
  collection(TransactionStatus.PROCESSING, 'USD', 25_000n, 'Crypto deposit: 250 USDT on TRON', undefined, {
    method: CollectionMethod.CRYPTO_DEPOSIT,
    railReference: TX_HASH,
    crypto: create(CryptoDepositSchema, {
      addressId: CRYPTO_ADDRESS_ID,
      asset: 'USDT',
      network: 'TRON',
      address: TRON_ADDRESS,
      assetAmount: '250000000',
      txHash: TX_HASH,
      confirmations: 0,
      confirmationsRequired: 20,
      ...crypto,
    }),
  });

export const CRYPTO_DEPOSIT_JSON = {
  address_id: CRYPTO_ADDRESS_ID,
  asset: 'USDT',
  network: 'TRON',
  address: TRON_ADDRESS,
  asset_amount: '250000000',
  tx_hash: TX_HASH,
  confirmations: 0,
  confirmations_required: 20,
};

/** An Interac request of 800.00 CAD, just made: PENDING until the payer pays. */
export const interacRequestTransaction = (details: MessageInitShape<typeof CollectionDetailsSchema> = {}) =>
  collection(TransactionStatus.PENDING, 'CAD', 80_000n, 'Interac request: Invoice 9', 'invoice-9', {
    method: CollectionMethod.INTERAC_REQUEST,
    payerEmail: 'accounts@payer.example.ca',
    description: 'Invoice 9',
    expiresAt: at(EXPIRES_AT),
    ...details,
  });

/** The public JSON of interacRequestTransaction(): no payment link, the payer reached by email. */
export const INTERAC_REQUEST_JSON = {
  id: COLLECTION_ID,
  type: 'COLLECTION',
  status: 'PENDING',
  currency: 'CAD',
  amount: 80_000,
  fee: 800,
  net: 79_200,
  reference: 'invoice-9',
  description: 'Interac request: Invoice 9',
  refund_status: null,
  swap_details: null,
  collection_details: {
    method: 'interac_request',
    customer_id: CUSTOMER_ID,
    virtual_account_id: null,
    sender_name: null,
    description: 'Invoice 9',
    redirect_url: null,
    payment_link: null,
    expires_at: EXPIRES_AT.toISOString(),
    completed_at: null,
    failure_reason: null,
    rail_reference: '',
    payer_email: 'accounts@payer.example.ca',
    crypto: null,
  },
  refund_details: null,
  created_at: CREATED.toISOString(),
  updated_at: UPDATED.toISOString(),
};

/** 300.00 CAD sent by Interac e-Transfer, waiting for the business to accept it. */
export const interacTransferTransaction = (
  status: TransactionStatus = TransactionStatus.PENDING,
  details: MessageInitShape<typeof CollectionDetailsSchema> = {},
) =>
  collection(status, 'CAD', 30_000n, 'Interac e-Transfer from Jean Tremblay', undefined, {
    method: CollectionMethod.INTERAC_TRANSFER,
    senderName: 'Jean Tremblay',
    payerEmail: 'jean.tremblay@example.ca',
    expiresAt: at(EXPIRES_AT),
    completedAt: status === TransactionStatus.SUCCESSFUL ? at(UPDATED) : undefined,
    ...details,
  });
