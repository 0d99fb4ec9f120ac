import type { AdminAdjustWalletRequest } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { AdjustmentDirection, type Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { invalidArgument, notFound } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { applyTransfers, sql, walletAccount } from '../ledger/index.js';
import { allCurrencies, requireCurrency } from '../reference/currencies.js';
import { insertTransaction } from '../transactions/transaction-store.js';

const MAX_REASON = 500;

async function requireBusiness(context: PaymentsContext, businessId: string): Promise<void> {
  const missing = () => notFound('BUSINESS_NOT_FOUND', `no business ${businessId}`);
  if (!isUuid(businessId)) throw missing();
  if (!context.identity) return;
  try {
    await context.identity.getBusiness({ id: businessId });
  } catch (error) {
    if ((error as { reason?: string }).reason === 'BUSINESS_NOT_FOUND' || (error as { status?: number }).status === 5)
      throw missing();
    throw error;
  }
}

/**
 * Back office: an audited manual credit or debit of a business's wallet through the ledger (the
 * sandbox funds wallets this way until collections exist). The counterpart is the sandbox funding
 * account in the sandbox and the manual-adjustment account in production; a debit never takes the
 * wallet below zero. Runs in `tx`, the transaction of the Idempotency-Key when one was sent.
 */
export async function adjustWallet(
  tx: EntityManager,
  context: PaymentsContext,
  request: AdminAdjustWalletRequest,
  requestId: string | undefined,
): Promise<Transaction> {
  const problems: Record<string, string[]> = {};
  if (request.amount <= 0n) problems.amount = ['must be a positive whole number of minor units'];
  if (request.direction !== AdjustmentDirection.CREDIT && request.direction !== AdjustmentDirection.DEBIT) {
    problems.direction = ['must be credit or debit'];
  }
  const reason = request.reason.trim();
  if (reason === '') problems.reason = ['is required: say why, for the audit trail'];
  if (reason.length > MAX_REASON) problems.reason = [`must be at most ${MAX_REASON} characters`];
  const fields = Object.keys(problems);
  if (fields.length > 0) {
    throw invalidArgument(
      `invalid adjustment: ${fields.map((field) => `${field} ${problems[field]?.[0]}`).join('; ')}`,
      problems,
    );
  }
  await requireBusiness(context, request.businessId);
  const currency = requireCurrency(await allCurrencies(tx), request.currency, 'currency');
  const credit = request.direction === AdjustmentDirection.CREDIT;

  const wallet = walletAccount(request.businessId, currency.code);
  const counterpart = context.accounts.system(
    context.environment === 'sandbox' ? 'sandbox_funding' : 'manual_adjustment',
    currency.code,
    request.businessId,
  );
  const ids = await context.accounts.resolve([wallet, counterpart], tx);
  const transactionId = randomUUID();
  const [debitAccount, creditAccount] = credit ? [counterpart, wallet] : [wallet, counterpart];
  await applyTransfers(
    tx,
    [
      {
        id: `adjustment:${transactionId}`,
        phase: 'posted',
        debitAccountId: ids.get(debitAccount.code) ?? '',
        creditAccountId: ids.get(creditAccount.code) ?? '',
        currency: currency.code,
        amount: request.amount,
        transactionId,
      },
    ],
    () =>
      invalidArgument(
        `the ${currency.code} wallet's available balance is less than ${request.amount}: a debit never takes a wallet below zero`,
        { amount: ['exceeds the available balance'] },
        'INSUFFICIENT_FUNDS',
      ),
  );
  const at = context.now();
  const actor = request.actor.trim() || 'admin';
  const transaction = await insertTransaction(tx, context, {
    id: transactionId,
    businessId: request.businessId,
    type: 'ADJUSTMENT',
    status: 'SUCCESSFUL',
    currency: currency.code,
    amount: credit ? request.amount : -request.amount,
    fee: 0n,
    reference: undefined,
    description: `Manual ${credit ? 'credit' : 'debit'}: ${reason}`,
    adjustmentDetails: { direction: credit ? 'credit' : 'debit', reason, actor },
    at,
  });
  await sql(
    tx,
    `insert into wallet_adjustment_audit (transaction_id, business_id, actor, request_id, reason, created_at)
     values (?, ?, ?, ?, ?, ?)`,
    [transactionId, request.businessId, actor, requestId ?? null, reason, at],
  );
  return transaction;
}
