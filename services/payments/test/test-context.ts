import { create } from '@bufbuild/protobuf';
import { AdminAdjustWalletRequestSchema } from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { AdjustmentDirection } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { topicName } from '@corridor/contracts/events';
import type { MikroORM } from '@corridor/db';
import { BusinessClock } from '@corridor/sandbox-clock';
import { SandboxCollectionRail } from '../src/collections/collection-rail.js';
import type { PaymentsContext } from '../src/context.js';
import { LedgerAccounts } from '../src/ledger/index.js';
import { adjustWallet } from '../src/wallets/adjust-wallet.js';

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
    clock: new BusinessClock(now, rest.environment ?? 'sandbox'),
    accounts: new LedgerAccounts(() => orm.em.fork(), shards),
    quoteTtlMs: 60_000,
    defaultSpreadBps: 50,
    collectionRail: new SandboxCollectionRail({ settleMs: 1_000, delayMs: 10_000 }),
    collectionExpiryMs: 48 * 3_600_000,
    cryptoBlockMs: 1_000,
    ...rest,
  };
}

/** Funds a business's wallet as the back office does (an audited adjustment through the ledger). */
export const creditWallet = (
  orm: MikroORM,
  context: PaymentsContext,
  businessId: string,
  currency: string,
  amount: bigint,
) =>
  orm.em.fork().transactional((tx) =>
    adjustWallet(
      tx,
      context,
      create(AdminAdjustWalletRequestSchema, {
        businessId,
        currency,
        amount,
        direction: AdjustmentDirection.CREDIT,
        reason: 'test funding',
        actor: 'test',
      }),
      undefined,
    ),
  );
