import type { CreateSwapRequest } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { AmountSide, type Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { invalidArgument } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { applyTransfers, walletAccount } from '../ledger/index.js';
import { feeFor } from '../reference/fee-rule.js';
import { feeRuleFor } from '../reference/fees.js';
import { formatRate as formatRateOf, parseRate } from '../reference/decimal-rate.js';
import { businessRate, findQuote } from '../reference/rates.js';
import { insertTransaction } from '../transactions/transaction-store.js';
import { shortBalance } from '../wallets/short-balance.js';
import { swapAmounts } from './swap-amounts.js';

const amountProblem = (message: string) =>
  invalidArgument(message, { amount: [message.replace(/^amount /, '')] }, 'INVALID_AMOUNT');

/** The rate a swap gets: its live quote's, exactly, or the business's rate now. */
async function swapRate(
  em: EntityManager,
  context: PaymentsContext,
  businessId: string,
  request: CreateSwapRequest,
  now: Date,
) {
  const priced = await businessRate(em, context, businessId, {
    from: request.fromCurrency,
    to: request.toCurrency,
    fromField: 'from_currency',
    toField: 'to_currency',
  });
  const { from, to } = priced;
  if (request.quoteId === undefined) return { rate: priced.rate, quoteId: undefined, from, to };
  const quote = await findQuote(em, businessId, request.quoteId);
  if (!quote) {
    throw invalidArgument(
      `quote_id ${request.quoteId} is not a quote of this business`,
      { quote_id: ['is not a quote of this business'] },
      'QUOTE_NOT_FOUND',
    );
  }
  if (quote.fromCurrency !== request.fromCurrency || quote.toCurrency !== request.toCurrency) {
    throw invalidArgument(
      `quote ${quote.id} is for ${quote.fromCurrency} to ${quote.toCurrency}, not ${request.fromCurrency} to ${request.toCurrency}`,
      { quote_id: [`is for ${quote.fromCurrency} to ${quote.toCurrency}`] },
      'QUOTE_MISMATCH',
    );
  }
  if (quote.expiresAt.getTime() <= now.getTime()) {
    throw invalidArgument(
      `quote ${quote.id} expired at ${quote.expiresAt.toISOString()}; get a new one with GET /api/external/rates`,
      { quote_id: ['has expired'] },
      'QUOTE_EXPIRED',
    );
  }
  const rate = parseRate(quote.rate);
  if (rate === undefined) throw new Error(`stored quote ${quote.id} has no rate`);
  return { rate, quoteId: quote.id, from, to };
}

/**
 * POST /swap (seed 4.4): between two of the business's own wallets, at its rate or a live quote's.
 * Source, rounding and fee leave the from-wallet and the to-amount arrives from FX liquidity, as
 * linked transfers in `tx` — the transaction of the Idempotency-Key — with the SWAP transaction and
 * its event, written first (applyTransfers: the wallet is locked last). The wallet's balance is
 * checked by the statement that debits it.
 */
export async function createSwap(
  tx: EntityManager,
  context: PaymentsContext,
  businessId: string,
  request: CreateSwapRequest,
): Promise<Transaction> {
  if (request.amount <= 0n) throw amountProblem('amount must be a positive whole number of minor units');
  const at = await context.clock.now(tx, businessId);
  // The rate and both currencies, checked once.
  const { rate, quoteId, from, to } = await swapRate(tx, context, businessId, request, at);
  const side = request.amountSide === AmountSide.TO ? 'to' : 'from';
  const amounts = swapAmounts({
    side,
    amount: request.amount,
    rate,
    fromExponent: from.exponent,
    toExponent: to.exponent,
  });
  if (!amounts) {
    throw amountProblem(
      `amount ${request.amount} ${side === 'from' ? from.code : to.code} is too small to buy one minor unit of ${to.code}`,
    );
  }
  const fee = feeFor(await feeRuleFor(tx, businessId, 'swap', from.code), amounts.fromAmount).total;

  const accounts = context.accounts;
  const specs = {
    fromWallet: walletAccount(businessId, from.code),
    toWallet: walletAccount(businessId, to.code),
    fromLiquidity: accounts.system('fx_liquidity', from.code, businessId),
    toLiquidity: accounts.system('fx_liquidity', to.code, businessId),
    rounding: accounts.system('rounding', from.code, businessId),
    fees: accounts.system('fees', from.code, businessId),
  };
  const ids = await accounts.resolve(Object.values(specs), tx);
  const id = (spec: { code: string }) => ids.get(spec.code) ?? '';
  const transactionId = randomUUID();
  const leg = (name: string, debit: { code: string }, credit: { code: string }, currency: string, amount: bigint) =>
    amount > 0n
      ? [
          {
            id: `swap:${transactionId}:${name}`,
            phase: 'posted' as const,
            debitAccountId: id(debit),
            creditAccountId: id(credit),
            currency,
            amount,
            transactionId,
          },
        ]
      : [];
  const transaction = await insertTransaction(tx, context, {
    id: transactionId,
    businessId,
    type: 'SWAP',
    status: 'SUCCESSFUL',
    currency: from.code,
    amount: -amounts.fromAmount,
    fee,
    reference: request.reference,
    description: `Swap ${from.code} to ${to.code}`,
    swapDetails: {
      from_currency: from.code,
      from_amount: amounts.fromAmount.toString(),
      to_currency: to.code,
      to_amount: amounts.toAmount.toString(),
      rate: formatRateOf(rate),
      fee: fee.toString(),
      quote_id: quoteId ?? null,
      amount_side: side,
    },
    at,
  });
  await applyTransfers(
    tx,
    [
      ...leg('source', specs.fromWallet, specs.fromLiquidity, from.code, amounts.exchanged),
      ...leg('rounding', specs.fromWallet, specs.rounding, from.code, amounts.rounding),
      ...leg('fee', specs.fromWallet, specs.fees, from.code, fee),
      ...leg('destination', specs.toLiquidity, specs.toWallet, to.code, amounts.toAmount),
    ],
    shortBalance(from.code, amounts.fromAmount, fee),
  );
  return transaction;
}
