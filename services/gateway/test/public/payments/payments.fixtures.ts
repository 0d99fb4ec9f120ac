import { create, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  CurrencyOperation,
  CurrencySchema,
  FeeBreakdownSchema,
  FeeOperation,
  RateQuoteSchema,
  WalletSchema,
} from '@corridor/contracts/corridor/payments/v1/money_pb';
import {
  AdjustmentDirection,
  AdjustmentDetailsSchema,
  AmountSide,
  SwapDetailsSchema,
  TransactionSchema,
  TransactionStatus,
  TransactionType,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';

/** payments' answers as the gateway receives them, for the specs of the payments routes. */

export const BUSINESS_ID = '4b8f3c2e-0000-4000-8000-00000000b001';
export const TRANSACTION_ID = '2f6a1c3d-0000-4000-8000-000000007001';
export const QUOTE_ID = '3e7b2d4f-0000-4000-8000-000000009001';
export const CREATED = new Date('2026-11-21T09:00:00.000Z');
export const UPDATED = new Date('2026-11-21T09:00:02.000Z');
export const EXPIRES = new Date('2026-11-21T09:01:00.000Z');
const at = (date: Date) => timestampFromDate(date);

/** What a spec may change of a fixture: the message's fields as create() takes them. */
type Fields<D extends DescMessage> = MessageInitShape<D>;

export const ngn = () =>
  create(CurrencySchema, {
    code: 'NGN',
    name: 'Nigerian Naira',
    exponent: 2,
    operations: [
      CurrencyOperation.SWAP,
      CurrencyOperation.COLLECTION,
      CurrencyOperation.PAYOUT,
      CurrencyOperation.VIRTUAL_ACCOUNT,
    ],
  });

export const usd = () =>
  create(CurrencySchema, { code: 'USD', name: 'US Dollar', exponent: 2, operations: [CurrencyOperation.SWAP] });

export const rateQuote = () =>
  create(RateQuoteSchema, {
    quoteId: QUOTE_ID,
    fromCurrency: 'NGN',
    toCurrency: 'USD',
    rate: '0.000649',
    midRate: '0.000652',
    spreadBps: 50,
    createdAt: at(CREATED),
    expiresAt: at(EXPIRES),
  });

/** 1.5 % of 150,000.00 NGN with a 100.00 floor and no ceiling. */
export const feeBreakdown = (overrides: Fields<typeof FeeBreakdownSchema> = {}) =>
  create(FeeBreakdownSchema, {
    operation: FeeOperation.SWAP,
    currency: 'NGN',
    amount: 15_000_000n,
    flat: 0n,
    percentageBps: 150,
    percentageAmount: 225_000n,
    minimum: 10_000n,
    total: 225_000n,
    businessSpecific: false,
    ...overrides,
  });

export const wallet = (overrides: Fields<typeof WalletSchema> = {}) =>
  create(WalletSchema, {
    currency: 'NGN',
    availableBalance: 84_250_000n,
    pendingBalance: 150_750n,
    ledgerBalance: 84_400_750n,
    updatedAt: at(UPDATED),
    ...overrides,
  });

/** 150,000.00 NGN sold for USD at a quote, 750.00 NGN fee: the wallet sees -150,750.00 NGN. */
export const swapTransaction = (overrides: Fields<typeof TransactionSchema> = {}) =>
  create(TransactionSchema, {
    id: TRANSACTION_ID,
    businessId: BUSINESS_ID,
    type: TransactionType.SWAP,
    status: TransactionStatus.SUCCESSFUL,
    currency: 'NGN',
    amount: -15_000_000n,
    fee: 75_000n,
    net: -15_075_000n,
    reference: 'inv-2041',
    description: 'Swap 150000.00 NGN to 97.35 USD',
    swapDetails: create(SwapDetailsSchema, {
      fromCurrency: 'NGN',
      fromAmount: 15_000_000n,
      toCurrency: 'USD',
      toAmount: 9_735n,
      rate: '0.000649',
      fee: 75_000n,
      quoteId: QUOTE_ID,
      amountSide: AmountSide.FROM,
    }),
    createdAt: at(CREATED),
    updatedAt: at(UPDATED),
    ...overrides,
  });

/** The public JSON of swapTransaction(), as the routes must answer it. */
export const SWAP_JSON = {
  id: TRANSACTION_ID,
  type: 'SWAP',
  status: 'SUCCESSFUL',
  currency: 'NGN',
  amount: -15_000_000,
  fee: 75_000,
  net: -15_075_000,
  reference: 'inv-2041',
  description: 'Swap 150000.00 NGN to 97.35 USD',
  refund_status: null,
  swap_details: {
    from_currency: 'NGN',
    from_amount: 15_000_000,
    to_currency: 'USD',
    to_amount: 9_735,
    rate: '0.000649',
    fee: 75_000,
    quote_id: QUOTE_ID,
    amount_side: 'from',
  },
  collection_details: null,
  refund_details: null,
  created_at: CREATED.toISOString(),
  updated_at: UPDATED.toISOString(),
};

/** A back-office credit of 5,000.00 NGN. */
export const adjustmentTransaction = () =>
  swapTransaction({
    type: TransactionType.ADJUSTMENT,
    amount: 500_000n,
    fee: 0n,
    net: 500_000n,
    reference: undefined,
    description: 'Adjustment: opening balance',
    swapDetails: undefined,
    adjustmentDetails: create(AdjustmentDetailsSchema, {
      direction: AdjustmentDirection.CREDIT,
      reason: 'opening balance',
      actor: 'admin',
    }),
  });
