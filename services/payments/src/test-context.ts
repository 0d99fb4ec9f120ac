import { topicName } from '@corridor/contracts/events';
import type { MikroORM } from '@corridor/db';
import { SandboxCollectionRail } from './collections/collection-rail.js';
import type { PaymentsContext } from './context.js';
import { LedgerAccounts } from './ledger/index.js';

/**
 * The context of payments' integration specs: the sandbox, a clock the spec moves, the defaults of
 * config.ts; a spec overrides what it tests.
 */
export function testPaymentsContext(
  orm: MikroORM,
  now: () => Date,
  overrides: Partial<PaymentsContext> & { shards?: number } = {},
): PaymentsContext {
  const { shards = 8, ...rest } = overrides;
  return {
    environment: 'sandbox',
    topic: topicName('test.', 'payments'),
    now,
    accounts: new LedgerAccounts(() => orm.em.fork(), shards),
    quoteTtlMs: 60_000,
    defaultSpreadBps: 50,
    collectionRail: new SandboxCollectionRail({ settleMs: 1_000, delayMs: 10_000 }),
    collectionExpiryMs: 48 * 3_600_000,
    cryptoBlockMs: 1_000,
    ...rest,
  };
}
