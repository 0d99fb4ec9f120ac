import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  CollectionDetailsSchema,
  CollectionMethod,
  IdentificationTypeSchema,
  PaymentRequestViewSchema,
  RefundSchema,
  RefundStatus,
  VirtualAccountSchema,
  VirtualAccountStatus,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { TransactionStatus, TransactionType } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { BUSINESS_ID, CREATED, swapTransaction, UPDATED } from './payments.fixtures.js';

/** payments' virtual account, collection and refund answers as the gateway receives them (issue 11). */

export const CUSTOMER_ID = '7c1e6a81-0000-4000-8000-00000000d001';
export const VIRTUAL_ACCOUNT_ID = '8d2f7b92-0000-4000-8000-00000000e001';
export const COLLECTION_ID = '9e3a8ca3-0000-4000-8000-00000000f001';
export const REFUND_ID = 'af4b9db4-0000-4000-8000-000000001001';
/** url-safe base64 of 32 random bytes, as payments issues them. */
export const PAYMENT_TOKEN = 'q8Zr3x_Tn5wK-2bVhY7mLp0cQe9uAs4dFg6jHk1oRtU';
export const EXPIRES_AT = new Date('2026-11-23T09:00:00.000Z');
const at = timestampFromDate;

export const virtualAccount = (overrides: MessageInitShape<typeof VirtualAccountSchema> = {}) =>
  create(VirtualAccountSchema, {
    id: VIRTUAL_ACCOUNT_ID,
    customerId: CUSTOMER_ID,
    currency: 'NGN',
    status: VirtualAccountStatus.ACTIVE,
    accountName: 'Adaeze Okafor',
    accountNumber: '9912345678',
    bankName: 'Corridor Sandbox Bank',
    bankCode: '999',
    createdAt: at(CREATED),
    ...overrides,
  });

export const VIRTUAL_ACCOUNT_JSON = {
  id: VIRTUAL_ACCOUNT_ID,
  customer_id: CUSTOMER_ID,
  currency: 'NGN',
  status: 'active',
  account_name: 'Adaeze Okafor',
  account_number: '9912345678',
  bank_name: 'Corridor Sandbox Bank',
  bank_code: '999',
  created_at: CREATED.toISOString(),
  closed_at: null,
  close_reason: null,
};

export const identificationTypes = () => [
  create(IdentificationTypeSchema, {
    code: 'BVN',
    name: 'Bank Verification Number',
    country: 'NG',
    customerTypes: ['individual'],
  }),
  create(IdentificationTypeSchema, {
    code: 'PASSPORT',
    name: 'International passport',
    country: '',
    customerTypes: ['individual', 'business'],
  }),
];

/** A money request of 150.00 GBP, just made: PENDING until the payer answers. */
export const moneyRequestTransaction = (details: MessageInitShape<typeof CollectionDetailsSchema> = {}) =>
  swapTransaction({
    id: COLLECTION_ID,
    businessId: BUSINESS_ID,
    type: TransactionType.COLLECTION,
    status: TransactionStatus.PENDING,
    currency: 'GBP',
    amount: 15_000n,
    fee: 150n,
    net: 14_850n,
    reference: 'order-77',
    description: 'Money request: Order 77',
    swapDetails: undefined,
    collectionDetails: create(CollectionDetailsSchema, {
      method: CollectionMethod.MONEY_REQUEST,
      customerId: CUSTOMER_ID,
      description: 'Order 77',
      redirectUrl: 'https://shop.example/return?order=77',
      paymentToken: PAYMENT_TOKEN,
      expiresAt: at(EXPIRES_AT),
      railReference: 'SBX-MR-0001',
      ...details,
    }),
  });

/** The public JSON of moneyRequestTransaction(), its payment link on `origin` (scheme and host). */
export const moneyRequestJson = (origin: string) => ({
  id: COLLECTION_ID,
  type: 'COLLECTION',
  status: 'PENDING',
  currency: 'GBP',
  amount: 15_000,
  fee: 150,
  net: 14_850,
  reference: 'order-77',
  description: 'Money request: Order 77',
  refund_status: null,
  swap_details: null,
  collection_details: {
    method: 'money_request',
    customer_id: CUSTOMER_ID,
    virtual_account_id: null,
    sender_name: null,
    description: 'Order 77',
    redirect_url: 'https://shop.example/return?order=77',
    payment_link: `${origin}/pay/${PAYMENT_TOKEN}`,
    expires_at: EXPIRES_AT.toISOString(),
    completed_at: null,
    failure_reason: null,
    rail_reference: 'SBX-MR-0001',
    payer_email: null,
    crypto: null,
  },
  refund_details: null,
  created_at: CREATED.toISOString(),
  updated_at: UPDATED.toISOString(),
});

/** 5,000.00 NGN from a sender into the virtual account, collected at once. */
export const bankTransferTransaction = (details: MessageInitShape<typeof CollectionDetailsSchema> = {}) =>
  moneyRequestTransaction({
    method: CollectionMethod.BANK_TRANSFER,
    virtualAccountId: VIRTUAL_ACCOUNT_ID,
    senderName: 'Chidi Eze',
    description: undefined,
    redirectUrl: undefined,
    paymentToken: undefined,
    expiresAt: undefined,
    completedAt: at(UPDATED),
    railReference: 'SBX-IN-0001',
    ...details,
  });

export const refund = (overrides: MessageInitShape<typeof RefundSchema> = {}) =>
  create(RefundSchema, {
    id: REFUND_ID,
    transactionId: COLLECTION_ID,
    status: RefundStatus.PROCESSING,
    amount: 15_000n,
    currency: 'GBP',
    reason: 'customer returned the goods',
    reference: 'refund-77',
    createdAt: at(CREATED),
    updatedAt: at(UPDATED),
    ...overrides,
  });

export const REFUND_JSON = {
  id: REFUND_ID,
  transaction_id: COLLECTION_ID,
  status: 'processing',
  amount: 15_000,
  currency: 'GBP',
  reason: 'customer returned the goods',
  reference: 'refund-77',
  failure_reason: null,
  created_at: CREATED.toISOString(),
  updated_at: UPDATED.toISOString(),
  completed_at: null,
};

/** The REFUND transaction of refund(): money leaves the wallet, so amount is negative. */
export const refundTransaction = () =>
  swapTransaction({
    id: REFUND_ID,
    type: TransactionType.REFUND,
    status: TransactionStatus.PROCESSING,
    currency: 'GBP',
    amount: -15_000n,
    fee: 0n,
    net: -15_000n,
    reference: 'refund-77',
    description: 'Refund of Order 77',
    swapDetails: undefined,
    refundDetails: refund(),
  });

/** What the payer's page shows of moneyRequestTransaction(). */
export const paymentRequestView = (overrides: MessageInitShape<typeof PaymentRequestViewSchema> = {}) =>
  create(PaymentRequestViewSchema, {
    transactionId: COLLECTION_ID,
    businessName: 'Acme Stores Ltd',
    amount: 1_500_000n,
    currency: 'NGN',
    description: 'Order 77',
    status: 'PENDING',
    expiresAt: at(EXPIRES_AT),
    redirectUrl: 'https://shop.example/return?order=77',
    ...overrides,
  });
