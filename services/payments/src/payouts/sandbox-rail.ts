import type { EntityManager } from '@mikro-orm/core';
import { dateOf, sql } from '../ledger/index.js';
import { sandboxOutcome } from './sandbox-directory.js';

export type RailState = 'accepted' | 'successful' | 'failed' | 'reversed';
export type RailFailure = 'invalid_account' | 'bank_unavailable' | 'account_closed' | 'returned_by_bank';

export interface RailStatus {
  state: RailState;
  /** The rail's own reference of the payout. */
  reference: string;
  failure?: RailFailure;
  /** When to ask again: while accepted, or while a successful payout may still be returned. */
  checkAgainAt?: Date;
}

export interface RailSubmission {
  payoutId: string;
  bankCode: string;
  accountNumber: string;
  amount: bigint;
  currency: string;
}

/** What payments needs of a bank rail; a real provider is another implementation (DESIGN.md). */
export interface PayoutRail {
  /** Hands a payout to the bank. Idempotent by payout id on the rail's side; every call is counted. */
  submit(submission: RailSubmission, now: Date): Promise<{ reference: string }>;
  /** The rail's view of a payout; undefined when it never received it. */
  status(payoutId: string, now: Date): Promise<RailStatus | undefined>;
}

export interface SandboxRailTimings {
  settleMs: number;
  delayMs: number;
  reverseMs: number;
}

/**
 * The simulated bank (decision 0013). It keeps its own table and writes outside the caller's
 * transaction, as a real bank's system would: a payments crash between "submitted" and "recorded"
 * is then a real crash, which the worker must survive by asking before sending again.
 */
export class SandboxRail implements PayoutRail {
  constructor(
    private readonly newEntityManager: () => EntityManager,
    private readonly timings: SandboxRailTimings,
  ) {}

  async submit(submission: RailSubmission, now: Date): Promise<{ reference: string }> {
    const outcome = sandboxOutcome(submission.bankCode, submission.accountNumber);
    const settlesAt = new Date(now.getTime() + (outcome === 'delayed' ? this.timings.delayMs : this.timings.settleMs));
    const reversesAt = outcome === 'reversed' ? new Date(settlesAt.getTime() + this.timings.reverseMs) : null;
    const [row] = await sql(
      this.newEntityManager(),
      `insert into sandbox_rail_payout (payout_id, bank_code, account_number, amount, currency, outcome, submitted_at,
         settles_at, reverses_at, submit_calls)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
       on conflict (payout_id) do update set submit_calls = sandbox_rail_payout.submit_calls + 1
       returning reference`,
      [
        submission.payoutId,
        submission.bankCode,
        submission.accountNumber,
        submission.amount.toString(),
        submission.currency,
        outcome,
        now,
        settlesAt,
        reversesAt,
      ],
    );
    return { reference: String(row?.reference ?? '') };
  }

  async status(payoutId: string, now: Date): Promise<RailStatus | undefined> {
    const [row] = await sql(this.newEntityManager(), 'select * from sandbox_rail_payout where payout_id = ?', [
      payoutId,
    ]);
    if (!row) return undefined;
    const reference = String(row.reference);
    const settlesAt = dateOf(row.settles_at);
    if (now < settlesAt) return { state: 'accepted', reference, checkAgainAt: settlesAt };
    const outcome = String(row.outcome);
    if (outcome === 'invalid_account' || outcome === 'bank_unavailable' || outcome === 'account_closed') {
      return { state: 'failed', reference, failure: outcome };
    }
    if (row.reverses_at !== null) {
      const reversesAt = dateOf(row.reverses_at);
      return now >= reversesAt
        ? { state: 'reversed', reference, failure: 'returned_by_bank' }
        : { state: 'successful', reference, checkAgainAt: reversesAt };
    }
    return { state: 'successful', reference };
  }

  /** What the rail saw of a payout: how many submit calls, and its state now. */
  async view(payoutId: string, now: Date): Promise<{ submitCalls: number; state: RailState } | undefined> {
    const [row] = await sql(
      this.newEntityManager(),
      'select submit_calls from sandbox_rail_payout where payout_id = ?',
      [payoutId],
    );
    const status = await this.status(payoutId, now);
    return row && status ? { submitCalls: Number(row.submit_calls), state: status.state } : undefined;
  }
}
