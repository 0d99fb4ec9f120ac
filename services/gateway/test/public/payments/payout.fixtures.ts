import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  AccountScheme,
  BankSchema,
  BeneficiarySchema,
  PayoutDestinationSchema,
  PayoutDetailsSchema,
  PayoutStatus,
} from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import { TransactionStatus, TransactionType } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { BUSINESS_ID, CREATED, swapTransaction, UPDATED } from './payments.fixtures.js';

/** payments' payout, bank and beneficiary answers as the gateway receives them, for the route specs. */

export const PAYOUT_ID = '5a9c4e6f-0000-4000-8000-00000000a001';
export const BENEFICIARY_ID = '6b0d5f70-0000-4000-8000-00000000c001';
export const LAST_USED = new Date('2026-11-22T15:30:00.000Z');
const at = timestampFromDate;

export const gtbankAccount = () =>
  create(PayoutDestinationSchema, {
    bankCode: '058',
    bankName: 'Guaranty Trust Bank',
    accountNumber: '0123456789',
    accountName: 'Adaeze Okafor',
    currency: 'NGN',
  });

/** 50,000.00 NGN to a GTBank account with a 50.00 NGN fee, just accepted: the wallet sees -50,050.00. */
export const payoutTransaction = (details: MessageInitShape<typeof PayoutDetailsSchema> = {}) =>
  swapTransaction({
    id: PAYOUT_ID,
    businessId: BUSINESS_ID,
    type: TransactionType.PAYOUT,
    status: TransactionStatus.PENDING,
    amount: -5_000_000n,
    fee: 5_000n,
    net: -5_005_000n,
    reference: 'payout-2041',
    description: 'Payout to Adaeze Okafor, Guaranty Trust Bank',
    swapDetails: undefined,
    payoutDetails: create(PayoutDetailsSchema, {
      status: PayoutStatus.PENDING,
      destination: gtbankAccount(),
      narration: 'November invoice',
      railReference: '',
      ...details,
    }),
  });

/** The public JSON of payoutTransaction(), written out as the contract states it. */
export const PAYOUT_JSON = {
  id: PAYOUT_ID,
  status: 'pending',
  amount: 5_000_000,
  fee: 5_000,
  currency: 'NGN',
  reference: 'payout-2041',
  narration: 'November invoice',
  destination: {
    bank_code: '058',
    bank_name: 'Guaranty Trust Bank',
    account_number: '0123456789',
    account_name: 'Adaeze Okafor',
    currency: 'NGN',
  },
  beneficiary_id: null,
  failure_reason: null,
  created_at: CREATED.toISOString(),
  updated_at: UPDATED.toISOString(),
  completed_at: null,
  reversed_at: null,
};

/** One bank of each scheme, as the sandbox directory holds them. */
export const banks = () => [
  create(BankSchema, {
    code: '058',
    name: 'Guaranty Trust Bank',
    country: 'NG',
    currency: 'NGN',
    scheme: AccountScheme.NUBAN,
  }),
  create(BankSchema, {
    code: '040004',
    name: 'Monzo Bank',
    country: 'GB',
    currency: 'GBP',
    scheme: AccountScheme.SORT_CODE,
  }),
  create(BankSchema, {
    code: 'DEUTDEFFXXX',
    name: 'Deutsche Bank',
    country: 'DE',
    currency: 'EUR',
    scheme: AccountScheme.IBAN,
  }),
  create(BankSchema, {
    code: '021000021',
    name: 'JPMorgan Chase Bank',
    country: 'US',
    currency: 'USD',
    scheme: AccountScheme.ABA,
  }),
];

export const beneficiary = (overrides: MessageInitShape<typeof BeneficiarySchema> = {}) =>
  create(BeneficiarySchema, {
    id: BENEFICIARY_ID,
    destination: gtbankAccount(),
    createdAt: at(CREATED),
    lastUsedAt: at(LAST_USED),
    ...overrides,
  });

export const BENEFICIARY_JSON = {
  id: BENEFICIARY_ID,
  bank_code: '058',
  bank_name: 'Guaranty Trust Bank',
  account_number: '0123456789',
  account_name: 'Adaeze Okafor',
  currency: 'NGN',
  created_at: CREATED.toISOString(),
  last_used_at: LAST_USED.toISOString(),
};
