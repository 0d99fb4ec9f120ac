import type { EntityManager } from '@mikro-orm/core';
import type { PaymentsContext } from '../context.js';
import { applyTransfers, walletAccount, type LedgerInstruction } from '../ledger/index.js';

/** The rail money leaving a wallet goes through (decision 0013: the sandbox's is the only one so far). */
export const SANDBOX_RAIL = 'sandbox';

/**
 * Money leaving a wallet through the rail (a payout, a refund): the amount to the rail's settlement
 * account and the fee to the fee account, reserved by pending transfers whose ids derive from the
 * operation (`payout:<id>:amount`), then posted on success or voided on failure (DESIGN.md "Pending
 * before posted").
 */
export interface RailReservation {
  /** The operation's kind: the transfers' id prefix. */
  kind: 'payout' | 'refund';
  /** The operation's id, which is also its transaction's. */
  id: string;
  businessId: string;
  currency: string;
  amount: bigint;
  fee: bigint;
}

const transferIds = ({ kind, id }: Pick<RailReservation, 'kind' | 'id'>) => ({
  amount: `${kind}:${id}:amount`,
  fee: `${kind}:${id}:fee`,
});

/** Reserves amount + fee; a short balance throws `shortBalance()` and reserves nothing. */
export async function reserveForRail(
  tx: EntityManager,
  context: PaymentsContext,
  reservation: RailReservation,
  shortBalance: () => Error,
): Promise<void> {
  const { businessId, currency, id: transactionId } = reservation;
  const wallet = walletAccount(businessId, currency);
  const settlement = context.accounts.system('settlement', currency, businessId, SANDBOX_RAIL);
  const fees = context.accounts.system('fees', currency, businessId);
  const ids = await context.accounts.resolve([wallet, settlement, fees], tx);
  const account = (code: string) => ids.get(code) ?? '';
  const transfers = transferIds(reservation);
  const legs: [string, string, bigint][] = [
    [transfers.amount, settlement.code, reservation.amount],
    [transfers.fee, fees.code, reservation.fee],
  ];
  await applyTransfers(
    tx,
    legs
      .filter(([, , amount]) => amount > 0n)
      .map(([id, credit, amount]) => ({
        id,
        phase: 'pending' as const,
        debitAccountId: account(wallet.code),
        creditAccountId: account(credit),
        currency,
        amount,
        transactionId,
      })),
    shortBalance,
  );
}

/** The transfers that post (success) or void (failure) a reservation; a repeat is a no-op. */
export function settleReservation(
  reservation: Pick<RailReservation, 'kind' | 'id' | 'fee'>,
  outcome: 'post' | 'void',
): LedgerInstruction[] {
  const transfers = transferIds(reservation);
  const phase = outcome === 'post' ? ('post_pending' as const) : ('void_pending' as const);
  return [transfers.amount, ...(reservation.fee > 0n ? [transfers.fee] : [])].map((pendingId) => ({
    id: `${pendingId}:${outcome}`,
    phase,
    pendingId,
    transactionId: reservation.id,
  }));
}
