import { randomBytes } from 'node:crypto';
import type { CollectionFailureName } from './collection-record.js';

/**
 * What payments needs of a collecting bank rail (DESIGN.md "Rails behind one interface"); the
 * sandbox's answers follow documented magic amounts (decision 0014). A real provider is another
 * implementation.
 */
export interface CollectionRail {
  /** A transfer arriving in an open virtual account, or a payer paying a money request. */
  receive(amount: bigint): { reference: string; failure?: CollectionFailureName };
  /** Sends a refund back to the payer; its answer comes at `decidedAt`. */
  refund(collectionAmount: bigint, now: Date): { reference: string; decidedAt: Date };
  /** The rail's final answer on a refund sent earlier. */
  refundOutcome(collectionAmount: bigint): { failureReason?: string };
}

/** Minor units ending in these three digits are magic in the sandbox. */
export const SANDBOX_MAGIC = {
  /** The sending or paying bank refuses: the transfer bounces, the money request fails. */
  rejectedByBank: 91n,
  /** A refund of this collection is answered after SANDBOX_RAIL_DELAY_MS instead of SANDBOX_RAIL_SETTLE_MS. */
  refundDelayed: 92n,
  /** A refund of this collection is declined by the payer's bank (seed 3.5: failed, no retry). */
  refundDeclined: 93n,
} as const;

const magic = (amount: bigint) => amount % 1000n;

export class SandboxCollectionRail implements CollectionRail {
  constructor(private readonly timings: { settleMs: number; delayMs: number }) {}

  receive(amount: bigint) {
    const reference = railReference();
    return magic(amount) === SANDBOX_MAGIC.rejectedByBank
      ? { reference, failure: 'rejected_by_bank' as const }
      : { reference };
  }

  refund(collectionAmount: bigint, now: Date) {
    const delay =
      magic(collectionAmount) === SANDBOX_MAGIC.refundDelayed ? this.timings.delayMs : this.timings.settleMs;
    return { reference: railReference(), decidedAt: new Date(now.getTime() + delay) };
  }

  refundOutcome(collectionAmount: bigint) {
    return magic(collectionAmount) === SANDBOX_MAGIC.refundDeclined ? { failureReason: 'declined_by_bank' } : {};
  }
}

const railReference = () => `SBX${randomBytes(6).toString('hex').toUpperCase()}`;
