import { z } from '@corridor/config';
import type { Currency, FeeBreakdown, RateQuote, Wallet } from '@corridor/contracts/corridor/payments/v1/money_pb';
import type { SwapDetails, Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { collectionDetailsJson, refundJson } from '@corridor/payments-json';
import type { Request } from 'express';
import { jsonIntegerOf, nullableJsonIntegerOf } from '../../floor/int64.js';
import {
  AMOUNT_SIDES,
  CURRENCY_OPERATIONS,
  FEE_OPERATIONS,
  REFUND_STATUSES,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
} from './vocabulary.js';
import { iso, isoOrNull } from '../../floor/times.js';

/** The public JSON of payments' messages (the shapes of response-schemas.ts). */

/** A field payments must always fill; its absence is a defect (500), not the caller's. */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`payments returned no ${what}`);
  return value;
}

/**
 * A rendering of @corridor/payments-json, checked against the documented schema first: a word the
 * contract lacks, a missing timestamp or a wrong sign is a defect of payments (500), never sent.
 */
export function documented<T>(schema: z.ZodType, rendered: T, what: string): T {
  const result = schema.safeParse(rendered);
  if (!result.success)
    throw new Error(`payments sent a ${what} the contract cannot show: ${z.prettifyError(result.error)}`);
  return rendered;
}

export function currencyJson(currency: Currency) {
  return {
    code: currency.code,
    name: currency.name,
    exponent: currency.exponent,
    operations: currency.operations.map((operation) => CURRENCY_OPERATIONS.toWord(operation, 'operations')),
  };
}

export function rateQuoteJson(quote: RateQuote) {
  return {
    quote_id: quote.quoteId,
    from_currency: quote.fromCurrency,
    to_currency: quote.toCurrency,
    rate: quote.rate,
    mid_rate: quote.midRate,
    spread_bps: quote.spreadBps,
    created_at: iso(present(quote.createdAt, 'created_at')),
    expires_at: iso(present(quote.expiresAt, 'expires_at')),
  };
}

export function feeBreakdownJson(fees: FeeBreakdown) {
  return {
    type: FEE_OPERATIONS.toWord(fees.operation, 'operation'),
    currency: fees.currency,
    amount: jsonIntegerOf(fees.amount, 'amount'),
    flat: jsonIntegerOf(fees.flat, 'flat'),
    percentage_bps: fees.percentageBps,
    percentage_amount: jsonIntegerOf(fees.percentageAmount, 'percentage_amount'),
    minimum: nullableJsonIntegerOf(fees.minimum, 'minimum'),
    maximum: nullableJsonIntegerOf(fees.maximum, 'maximum'),
    total: jsonIntegerOf(fees.total, 'total'),
  };
}

export function walletJson(wallet: Wallet) {
  return {
    currency: wallet.currency,
    available_balance: jsonIntegerOf(wallet.availableBalance, 'available_balance'),
    pending_balance: jsonIntegerOf(wallet.pendingBalance, 'pending_balance'),
    ledger_balance: jsonIntegerOf(wallet.ledgerBalance, 'ledger_balance'),
    // A wallet never used has had no movement yet.
    updated_at: isoOrNull(wallet.updatedAt),
  };
}

function swapDetailsJson(swap: SwapDetails) {
  return {
    from_currency: swap.fromCurrency,
    from_amount: jsonIntegerOf(swap.fromAmount, 'swap_details.from_amount'),
    to_currency: swap.toCurrency,
    to_amount: jsonIntegerOf(swap.toAmount, 'swap_details.to_amount'),
    rate: swap.rate,
    fee: jsonIntegerOf(swap.fee, 'swap_details.fee'),
    quote_id: swap.quoteId ?? null,
    amount_side: AMOUNT_SIDES.toWord(swap.amountSide, 'swap_details.amount_side'),
  };
}

/** A money request's page for its payment token: the full URL the payer opens. */
export type PaymentLinkOf = (paymentToken: string) => string;

/** The payer's page on this gateway, at the scheme and host the caller reached it by (as cursor-page.ts). */
export const paymentLinksOf =
  (req: Request): PaymentLinkOf =>
  (paymentToken) =>
    `${req.protocol}://${req.get('host') ?? 'localhost'}/pay/${encodeURIComponent(paymentToken)}`;

/**
 * seed 2.5, 2.6: refund_status on every transaction, swap_details on a SWAP; collection_details on a
 * COLLECTION and refund_details on a REFUND (issue 11). Without `paymentLinkOf` (the admin listener,
 * whose host is no payer's) a money request's payment_link is null.
 */
export function transactionJson(transaction: Transaction, paymentLinkOf?: PaymentLinkOf) {
  const collection = transaction.collectionDetails;
  const token = collection?.paymentToken;
  return {
    id: transaction.id,
    type: TRANSACTION_TYPES.toWord(transaction.type, 'type'),
    status: TRANSACTION_STATUSES.toWord(transaction.status, 'status'),
    currency: transaction.currency,
    amount: jsonIntegerOf(transaction.amount, 'amount'),
    fee: jsonIntegerOf(transaction.fee, 'fee'),
    net: jsonIntegerOf(transaction.net, 'net'),
    reference: transaction.reference ?? null,
    description: transaction.description,
    refund_status:
      transaction.refundStatus === undefined ? null : REFUND_STATUSES.toWord(transaction.refundStatus, 'refund_status'),
    swap_details: transaction.swapDetails ? swapDetailsJson(transaction.swapDetails) : null,
    collection_details: collection
      ? collectionDetailsJson(collection, token && paymentLinkOf ? paymentLinkOf(token) : null)
      : null,
    refund_details: transaction.refundDetails ? refundJson(transaction.refundDetails) : null,
    created_at: iso(present(transaction.createdAt, 'created_at')),
    updated_at: iso(present(transaction.updatedAt, 'updated_at')),
  };
}

/** A response's transaction, which payments must always send. */
export const transactionOf = (response: { transaction?: Transaction }, paymentLinkOf?: PaymentLinkOf) =>
  transactionJson(present(response.transaction, 'transaction'), paymentLinkOf);
