import type { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import type { ClientOf } from '@corridor/grpc';
import type { BusinessClock } from '@corridor/sandbox-clock';
import type { CollectionRail } from './collections/collection-rail.js';
import type { CustomerSource } from './customers/customer-source.js';
import type { LedgerAccounts } from './ledger/index.js';

/** What every payments use case knows about where it runs. */
export interface PaymentsContext {
  environment: 'sandbox' | 'production';
  /** Topic of payments' events (with the environment's prefix). */
  topic: string;
  /** Real time: for what belongs to no business (leases, retention). */
  now: () => Date;
  /** Each business's time (its sandbox clock, decision 0069): every deadline of a business is judged by it. */
  clock: BusinessClock;
  accounts: LedgerAccounts;
  quoteTtlMs: number;
  defaultSpreadBps: number;
  /** The rail collections and refunds go through (the sandbox's, decision 0014). */
  collectionRail: CollectionRail;
  /** How long a money request waits for its payer before it expires (seed 3.5: 48 hours). */
  collectionExpiryMs: number;
  /** The sandbox's block time: a crypto deposit gains a confirmation this often (decision 0015). */
  cryptoBlockMs: number;
  /** To refuse back-office operations on a business that does not exist; absent in some tests. */
  identity?: Pick<ClientOf<typeof IdentityService>, 'getBusiness'>;
  /**
   * customer-kyb, asked when the customer projection cannot vouch for a customer (decision 0033);
   * absent in specs of the projection alone.
   */
  customers?: CustomerSource;
}
