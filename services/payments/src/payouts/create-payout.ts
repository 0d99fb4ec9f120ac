import type { CreatePayoutRequest } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import type { PayoutDestination } from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import type { Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { invalidArgument } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { PaymentsContext } from '../context.js';
import { sql } from '../ledger/index.js';
import { allCurrencies, requireCurrency } from '../reference/currencies.js';
import { feeFor } from '../reference/fee-rule.js';
import { feeRuleFor } from '../reference/fees.js';
import { insertTransaction } from '../transactions/transaction-store.js';
import { reserveForRail } from '../wallets/rail-reservation.js';
import { shortBalance } from '../wallets/short-balance.js';
import { requireBeneficiary, resolveDestination, saveBeneficiary } from './destinations.js';

const LOOKUP_VALIDITY_MS = 30 * 86_400_000;

async function destinationOf(
  tx: EntityManager,
  context: PaymentsContext,
  businessId: string,
  request: CreatePayoutRequest,
) {
  if (request.beneficiaryId !== undefined) {
    const beneficiary = await requireBeneficiary(tx, businessId, request.beneficiaryId).catch(() => {
      throw invalidArgument(
        `beneficiary_id ${request.beneficiaryId} is not a beneficiary of this business`,
        { beneficiary_id: ['is not a beneficiary of this business'] },
        'BENEFICIARY_NOT_FOUND',
      );
    });
    if (!beneficiary.destination) throw new Error('beneficiary without destination');
    return { destination: beneficiary.destination, beneficiaryId: beneficiary.id };
  }
  const destination = resolveDestination(request.bankCode ?? '', request.accountNumber ?? '');
  return { destination, beneficiaryId: undefined };
}

/** Production pays only destinations the business looked up in the last 30 days (issue 12). */
async function requireLookedUp(
  tx: EntityManager,
  context: PaymentsContext,
  businessId: string,
  destination: PayoutDestination,
  viaLookup: boolean,
) {
  if (context.environment !== 'production' || !viaLookup) return;
  const [row] = await sql(
    tx,
    'select looked_up_at from account_lookup where business_id = ? and bank_code = ? and account_number = ? and looked_up_at > ?',
    [
      businessId,
      destination.bankCode,
      destination.accountNumber,
      new Date(context.now().getTime() - LOOKUP_VALIDITY_MS),
    ],
  );
  if (!row) {
    throw invalidArgument(
      'in production a payout goes only to an account looked up first: GET /api/external/bank/account-lookup',
      { account_number: ['was not looked up in the last 30 days'] },
      'LOOKUP_REQUIRED',
    );
  }
}

/** Counts the payout against today's limit; 422 when it would pass it (a conditional upsert, race-free). */
async function countAgainstDailyLimit(
  tx: EntityManager,
  businessId: string,
  currency: string,
  amount: bigint,
  at: Date,
) {
  const [limit] = await sql(tx, 'select daily_limit from payout_limit where business_id = ? and currency = ?', [
    businessId,
    currency,
  ]);
  if (!limit) return;
  const dailyLimit = BigInt(String(limit.daily_limit));
  const day = at.toISOString().slice(0, 10);
  const counted =
    amount <= dailyLimit
      ? await sql(
          tx,
          `insert into payout_daily_total (business_id, currency, day, total) values (?, ?, ?, ?)
         on conflict (business_id, currency, day) do update set total = payout_daily_total.total + excluded.total
         where payout_daily_total.total + excluded.total <= ?
         returning total`,
          [businessId, currency, day, amount.toString(), dailyLimit.toString()],
        )
      : [];
  if (counted.length === 0) {
    throw invalidArgument(
      `this payout would take today's ${currency} payouts past the daily limit of ${dailyLimit} minor units`,
      { amount: ['exceeds the daily payout limit'] },
      'PAYOUT_LIMIT_EXCEEDED',
    );
  }
}

/**
 * POST /payout (issue 12): checks the destination with the rail's directory, then in `tx` writes the
 * PAYOUT transaction, the payout row and its event, and last reserves amount + fee from the wallet
 * (pending transfers: 422 and nothing written when the balance is short; the wallet is locked last,
 * see applyTransfers); the worker sends it to the rail.
 */
export async function createPayout(
  tx: EntityManager,
  context: PaymentsContext,
  businessId: string,
  request: CreatePayoutRequest,
): Promise<Transaction> {
  if (request.amount <= 0n)
    throw invalidArgument(
      'amount must be a positive whole number of minor units',
      { amount: ['must be a positive whole number of minor units'] },
      'INVALID_AMOUNT',
    );
  const currency = requireCurrency(await allCurrencies(tx), request.currency, 'currency', 'payout');
  const viaLookup = request.beneficiaryId === undefined;
  const { destination, beneficiaryId: existingBeneficiary } = await destinationOf(tx, context, businessId, request);
  if (destination.currency !== currency.code) {
    throw invalidArgument(
      `${destination.bankName} pays out in ${destination.currency}, not ${currency.code}`,
      { currency: [`must be ${destination.currency} for this bank`] },
      'CURRENCY_MISMATCH',
    );
  }
  await requireLookedUp(tx, context, businessId, destination, viaLookup);
  const at = await context.clock.now(tx, businessId);
  const fee = feeFor(await feeRuleFor(tx, businessId, 'payout', currency.code), request.amount).total;

  const id = randomUUID();
  const beneficiaryId =
    request.saveBeneficiary && !existingBeneficiary
      ? await saveBeneficiary(tx, businessId, destination, randomUUID(), at)
      : existingBeneficiary;
  if (existingBeneficiary)
    await sql(tx, 'update beneficiary set last_used_at = ? where id = ?', [at, existingBeneficiary]);
  const transaction = await insertTransaction(tx, context, {
    id,
    businessId,
    type: 'PAYOUT',
    status: 'PENDING',
    currency: currency.code,
    amount: -request.amount,
    fee,
    reference: request.reference,
    description: `Payout to ${destination.accountName}, ${destination.bankName}`,
    at,
    beforeEvent: async () => {
      await sql(
        tx,
        `insert into payout (id, business_id, status, currency, amount, fee, bank_code, bank_name, account_number, account_name,
           narration, beneficiary_id, next_check_at, created_at, updated_at)
         values (?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          businessId,
          currency.code,
          request.amount.toString(),
          fee.toString(),
          destination.bankCode,
          destination.bankName,
          destination.accountNumber,
          destination.accountName,
          request.narration,
          beneficiaryId ?? null,
          at,
          at,
          at,
        ],
      );
    },
  });
  // Rows other payouts of the business wait on (today's total, the wallet) are taken last.
  await countAgainstDailyLimit(tx, businessId, currency.code, request.amount, at);
  await reserveForRail(
    tx,
    context,
    { kind: 'payout', id, businessId, currency: currency.code, amount: request.amount, fee },
    shortBalance(currency.code, request.amount, fee),
  );
  return transaction;
}
