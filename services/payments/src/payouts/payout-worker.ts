import type { MikroORM } from '@corridor/db';
import type { Logger } from '@corridor/logging';
import type { EntityManager } from '@mikro-orm/core';
import type { PaymentsContext } from '../context.js';
import { applyTransfers, dateOf, sql, walletAccount, type LedgerInstruction, type Row } from '../ledger/index.js';
import { changeTransactionStatus } from '../transactions/transaction-store.js';
import { SANDBOX_RAIL, settleReservation } from '../wallets/rail-reservation.js';
import type { PayoutStatusWord } from '@corridor/payments-json';
import { transactionStatusOfPayout } from './payout-record.js';
import type { PayoutRail, RailStatus } from './sandbox-rail.js';

export interface PayoutWorkerOptions {
  orm: MikroORM;
  context: PaymentsContext;
  rail: PayoutRail;
  logger: Logger;
  /** A claim outlives the longest step by far; a crashed worker's claims lapse after it. */
  leaseMs: number;
  /** How soon to ask the rail again when it gives no time of its own. */
  pollIntervalMs: number;
  batch?: number;
  concurrency?: number;
}

interface ClaimedPayout {
  id: string;
  businessId: string;
  status: 'pending' | 'processing' | 'successful';
  currency: string;
  amount: bigint;
  fee: bigint;
  bankCode: string;
  accountNumber: string;
  createdAt: Date;
}

const claimedOf = (row: Row): ClaimedPayout => ({
  id: String(row.id),
  businessId: String(row.business_id),
  status: String(row.status) as ClaimedPayout['status'],
  currency: String(row.currency),
  amount: BigInt(String(row.amount)),
  fee: BigInt(String(row.fee)),
  bankCode: String(row.bank_code),
  accountNumber: String(row.account_number),
  createdAt: dateOf(row.created_at),
});

/**
 * Moves payouts through the rail (issue 12), the notification worker's pattern: due rows are claimed
 * with SKIP LOCKED and a lease, so several replicas never work one payout at once. A pending payout
 * is submitted only after asking the rail whether it already has it — after a crash between the
 * rail's acceptance and our record of it, the payout is recorded, never sent again. A processing
 * payout is re-queried, never resent.
 */
export class PayoutWorker {
  constructor(private readonly options: PayoutWorkerOptions) {}

  /** One pass: claims what is due and advances each; returns how many it looked at. */
  async runOnce(): Promise<number> {
    const { orm, context, leaseMs, batch = 64, concurrency = 8 } = this.options;
    // Leases are real time; what is due is judged by each payout's business's time (decision 0069).
    const now = context.now();
    const due = context.clock.due('payout', 'next_check_at');
    const rows = await sql(
      orm.em.fork(),
      `update payout set lease_until = ?, submit_attempts = submit_attempts + (status = 'pending')::int
       where id in (select id from payout where ${due.sql} and (lease_until is null or lease_until < ?)
                    order by next_check_at limit ? for update skip locked)
       returning *`,
      [new Date(now.getTime() + leaseMs), ...due.params, now, batch],
    );
    const queue = rows.map(claimedOf);
    const work = async () => {
      for (let payout = queue.shift(); payout; payout = queue.shift()) {
        await this.advance(payout).catch((error: unknown) =>
          this.options.logger.error(
            { err: error, payout: payout?.id },
            'payout step failed; it is retried when its lease lapses',
          ),
        );
      }
    };
    await Promise.all(Array.from({ length: concurrency }, work));
    return rows.length;
  }

  private async advance(payout: ClaimedPayout): Promise<void> {
    const { rail, context, orm } = this.options;
    const now = await context.clock.now(orm.em.fork(), payout.businessId);
    let status = await rail.status(payout.id, now);
    if (payout.status === 'pending') {
      if (!status) {
        const { reference } = await rail.submit(
          {
            payoutId: payout.id,
            bankCode: payout.bankCode,
            accountNumber: payout.accountNumber,
            amount: payout.amount,
            currency: payout.currency,
          },
          now,
        );
        status = { state: 'accepted', reference, checkAgainAt: new Date(now.getTime() + this.options.pollIntervalMs) };
      }
      const reference = status.reference;
      await this.inTransaction(async (tx) => {
        await this.move(tx, payout.id, 'pending', 'processing', { rail_reference: reference }, now);
      });
      // The rail may already have settled it (a crash left it pending here): apply that at once.
      if (status.state === 'accepted') {
        await this.recheckAt(payout.id, status.checkAgainAt, now);
        return;
      }
      payout = { ...payout, status: 'processing' };
    }
    if (!status) {
      // Processing here but unknown to the rail: never resend blindly; an operator must look.
      this.options.logger.error({ payout: payout.id }, 'payout is processing but the rail does not know it');
      await this.recheckAt(payout.id, new Date(now.getTime() + 60_000), now);
      return;
    }
    await this.apply(payout, status, now);
  }

  private async apply(payout: ClaimedPayout, status: RailStatus, now: Date): Promise<void> {
    if (status.state === 'accepted') {
      await this.recheckAt(payout.id, status.checkAgainAt, now);
      return;
    }
    const resolve = (outcome: 'post' | 'void') => settleReservation({ kind: 'payout', ...payout }, outcome);
    await this.inTransaction(async (tx) => {
      if (status.state === 'failed') {
        const changes = { failure_code: status.failure ?? 'rejected_by_bank', completed_at: now, next_check_at: null };
        if (!(await this.move(tx, payout.id, 'processing', 'failed', changes, now))) return;
        // Today's total before the wallet, in the order a new payout takes them (no deadlock between the two).
        await sql(
          tx,
          `update payout_daily_total set total = greatest(total - ?, 0) where business_id = ? and currency = ? and day = ?`,
          [payout.amount.toString(), payout.businessId, payout.currency, payout.createdAt.toISOString().slice(0, 10)],
        );
        await applyTransfers(tx, resolve('void'));
        return;
      }
      if (payout.status === 'processing') {
        const changes = {
          completed_at: now,
          next_check_at: status.state === 'successful' ? (status.checkAgainAt ?? null) : now,
        };
        if (!(await this.move(tx, payout.id, 'processing', 'successful', changes, now))) return;
        await applyTransfers(tx, resolve('post'));
      }
      if (status.state === 'reversed') {
        const changes = { failure_code: status.failure ?? 'returned_by_bank', reversed_at: now, next_check_at: null };
        if (!(await this.move(tx, payout.id, 'successful', 'reversed', changes, now))) return;
        await applyTransfers(tx, await this.reversal(tx, payout));
      } else if (payout.status === 'successful') {
        await this.update(tx, payout.id, { next_check_at: status.checkAgainAt ?? null });
      }
    });
  }

  /** A returned payout gives back its amount and its fee, as new transfers (entries are never edited). */
  private async reversal(tx: EntityManager, payout: ClaimedPayout): Promise<LedgerInstruction[]> {
    const { accounts } = this.options.context;
    const wallet = walletAccount(payout.businessId, payout.currency);
    const settlement = accounts.system('settlement', payout.currency, payout.businessId, SANDBOX_RAIL);
    const fees = accounts.system('fees', payout.currency, payout.businessId);
    const ids = await accounts.resolve([wallet, settlement, fees], tx);
    const id = (code: string) => ids.get(code) ?? '';
    return [
      {
        id: `payout:${payout.id}:reversal`,
        phase: 'posted',
        debitAccountId: id(settlement.code),
        creditAccountId: id(wallet.code),
        currency: payout.currency,
        amount: payout.amount,
        transactionId: payout.id,
      },
      ...(payout.fee > 0n
        ? [
            {
              id: `payout:${payout.id}:fee-refund`,
              phase: 'posted' as const,
              debitAccountId: id(fees.code),
              creditAccountId: id(wallet.code),
              currency: payout.currency,
              amount: payout.fee,
              transactionId: payout.id,
            },
          ]
        : []),
    ];
  }

  private inTransaction(work: (tx: EntityManager) => Promise<void>): Promise<void> {
    return this.options.orm.em.fork().transactional(work);
  }

  /** The next look at a payout: when the rail said, or a poll interval after `now` (its business's time). */
  private async recheckAt(id: string, at: Date | undefined, now: Date): Promise<void> {
    const next = at ?? new Date(now.getTime() + this.options.pollIntervalMs);
    await sql(this.options.orm.em.fork(), 'update payout set next_check_at = ?, lease_until = null where id = ?', [
      next,
      id,
    ]);
  }

  /**
   * Moves the payout, and its transaction with its event, from one status to the next; false when it
   * was no longer in `from` (another worker got there first). The payout row is written first, so
   * the event carries the new payout_details.
   */
  private async move(
    tx: EntityManager,
    id: string,
    from: PayoutStatusWord,
    to: PayoutStatusWord,
    changes: Record<string, unknown>,
    now: Date,
  ): Promise<boolean> {
    if (!(await this.update(tx, id, { ...changes, status: to, updated_at: now }, from))) return false;
    const transaction = await changeTransactionStatus(
      tx,
      this.options.context,
      id,
      transactionStatusOfPayout(from),
      transactionStatusOfPayout(to),
      now,
    );
    if (!transaction) throw new Error(`payout ${id} was ${from} but its transaction was not`);
    return true;
  }

  /** Writes `changes` and releases the claim; with `onlyIf`, only while the payout is in that status. */
  private async update(
    em: EntityManager,
    id: string,
    changes: Record<string, unknown>,
    onlyIf?: PayoutStatusWord,
  ): Promise<boolean> {
    const entries = Object.entries({ updated_at: this.options.context.now(), ...changes, lease_until: null });
    const updated = await sql(
      em,
      `update payout set ${entries.map(([column]) => `${column} = ?`).join(', ')}
       where id = ? ${onlyIf ? 'and status = ?' : ''} returning id`,
      [...entries.map(([, value]) => value), id, ...(onlyIf ? [onlyIf] : [])],
    );
    return updated.length > 0;
  }
}
