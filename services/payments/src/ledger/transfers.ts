import type { EntityManager } from '@mikro-orm/core';
import { sql } from './sql.js';

/** A new transfer: posted at once, or pending (reserved) until posted or voided. */
export interface NewTransfer {
  /** Derived from the operation (`swap:<transaction>:source`), so a repeat is a no-op. */
  id: string;
  phase: 'posted' | 'pending';
  debitAccountId: string;
  creditAccountId: string;
  currency: string;
  amount: bigint;
  transactionId?: string;
}

/** The second phase of a pending transfer: post it, or void it (the money is released). */
export interface PendingResolution {
  id: string;
  phase: 'post_pending' | 'void_pending';
  pendingId: string;
  transactionId?: string;
}

export type LedgerInstruction = NewTransfer | PendingResolution;

export interface TransferOutcome {
  id: string;
  outcome: 'created' | 'duplicate';
}

export type LedgerErrorKind =
  'conflicting_repeat' | 'insufficient_funds' | 'no_pending_transfer' | 'already_resolved' | 'account_mismatch';

/** A transfer the ledger refused; the operation's transaction rolls back with it. */
export class LedgerError extends Error {
  constructor(
    readonly kind: LedgerErrorKind,
    message: string,
    /** The account concerned (its code), for insufficient_funds. */
    readonly account?: string,
  ) {
    super(message);
    this.name = 'LedgerError';
  }
}

const KINDS: Record<string, LedgerErrorKind> = {
  CL001: 'conflicting_repeat',
  CL002: 'insufficient_funds',
  CL003: 'no_pending_transfer',
  CL004: 'already_resolved',
  CL005: 'account_mismatch',
};

/**
 * Applies linked transfers in the transaction of `tx`: all or none, in one round trip, with the
 * accounts locked in id order (ledger_apply, migration Ledger). Amounts must be positive. A wallet
 * too short for them throws `shortBalance()` when given (the operation's own refusal), else a LedgerError.
 *
 * The unit of work of `tx` (an event recorded for the outbox) is flushed first: a busy wallet's row
 * stays locked from this statement to the commit only, so an operation writes its own rows and its
 * event before it moves money, and the wallet's next operation waits for no round trip of this one.
 */
export async function applyTransfers(
  tx: EntityManager,
  instructions: readonly LedgerInstruction[],
  shortBalance?: () => Error,
): Promise<TransferOutcome[]> {
  const payload = instructions.map((instruction) =>
    isNewTransfer(instruction)
      ? {
          id: instruction.id,
          phase: instruction.phase,
          debit_account_id: instruction.debitAccountId,
          credit_account_id: instruction.creditAccountId,
          currency: instruction.currency,
          amount: positive(instruction.amount, instruction.id).toString(),
          transaction_id: instruction.transactionId ?? null,
        }
      : {
          id: instruction.id,
          phase: instruction.phase,
          pending_id: instruction.pendingId,
          transaction_id: instruction.transactionId ?? null,
        },
  );
  await tx.flush();
  try {
    const [row] = await sql(tx, 'select ledger_apply(?::jsonb) as outcomes', [JSON.stringify(payload)]);
    const outcomes = row?.outcomes;
    return (typeof outcomes === 'string' ? JSON.parse(outcomes) : outcomes) as TransferOutcome[];
  } catch (error) {
    const { code, message, detail } = error as { code?: unknown; message?: string; detail?: unknown };
    const kind = typeof code === 'string' ? KINDS[code] : undefined;
    if (!kind) throw error;
    if (kind === 'insufficient_funds' && shortBalance) throw shortBalance();
    throw new LedgerError(kind, message ?? kind, typeof detail === 'string' ? detail : undefined);
  }
}

const isNewTransfer = (instruction: LedgerInstruction): instruction is NewTransfer =>
  instruction.phase === 'posted' || instruction.phase === 'pending';

function positive(amount: bigint, id: string): bigint {
  if (amount <= 0n) throw new Error(`transfer ${id}: amount must be positive, got ${amount}`);
  return amount;
}
