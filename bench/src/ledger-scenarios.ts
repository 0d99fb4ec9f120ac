import { randomUUID } from 'node:crypto';
import type { MikroORM } from '../../packages/db/dist/index.js';
import {
  applyTransfers,
  LedgerAccounts,
  shardOf,
  walletAccount,
  type AccountSpec,
  type NewTransfer,
  type SystemAccountKind,
} from '../../services/payments/dist/ledger/index.js';
import type { NextCall } from './ledger-load.js';

const CURRENCY = 'NGN';
/** Far more than a phase of 1-unit transfers can spend, so no call is ever refused for funds. */
const FUNDS = 1_000_000_000_000n;

/** What the ratio to pgbench is held against: distinct rows ≥ 0.5×, a row all writers share ≥ 0.25×. */
export type Contention = 'distinct' | 'hot';

export interface Scenario {
  key: string;
  title: string;
  contention: Contention;
  transfersPerCall: number;
  next: NextCall;
  /** How the writers met on shared rows, when they did. */
  note?: string;
  /** False for a posting measured for issue 35's ceilings: bench:ledger's targets are per transfer. */
  targeted?: false;
}

export interface Ledger {
  orm: MikroORM;
  /** Wallets and their funding; the fee scenarios bring accounts with their own shard count. */
  accounts: LedgerAccounts;
}

const posted = (id: string, debit: string, credit: string, amount: bigint): NewTransfer => ({
  id,
  phase: 'posted',
  debitAccountId: debit,
  creditAccountId: credit,
  currency: CURRENCY,
  amount,
});

async function idsOf(accounts: LedgerAccounts, specs: AccountSpec[]): Promise<string[]> {
  const ids = await accounts.resolve(specs);
  return specs.map((spec) => {
    const id = ids.get(spec.code);
    if (id === undefined) throw new Error(`ledger account ${spec.code} was not made`);
    return id;
  });
}

const at = (ids: readonly string[], index: number): string => {
  const id = ids[index];
  if (id === undefined) throw new Error(`no account number ${index}`);
  return id;
};

/** Wallets of new businesses, each credited FUNDS from its sandbox funding account in one call. */
async function fundedWallets(
  ledger: Ledger,
  key: string,
  count: number,
): Promise<{ ids: string[]; businesses: string[] }> {
  const businesses = Array.from({ length: count }, () => randomUUID());
  const ids = await idsOf(
    ledger.accounts,
    businesses.map((business) => walletAccount(business, CURRENCY)),
  );
  const funding = await idsOf(
    ledger.accounts,
    businesses.map((business) => ledger.accounts.system('sandbox_funding', CURRENCY, business)),
  );
  await ledger.orm.em.fork().transactional((tx) =>
    applyTransfers(
      tx,
      ids.map((wallet, index) => posted(`${key}:funding:${index}`, at(funding, index), wallet, FUNDS)),
    ),
  );
  return { ids, businesses };
}

const emptyWallets = (ledger: Ledger, count: number) =>
  idsOf(
    ledger.accounts,
    Array.from({ length: count }, () => walletAccount(randomUUID(), CURRENCY)),
  );

/** Each writer moves money from its own funded wallet to its own second wallet. */
export async function distinctWallets(ledger: Ledger, writers: number): Promise<Scenario> {
  const key = 'distinct';
  const from = (await fundedWallets(ledger, key, writers)).ids;
  const to = await emptyWallets(ledger, writers);
  return {
    key,
    title: 'distinct wallets',
    contention: 'distinct',
    transfersPerCall: 1,
    next: (writer, sequence) => [posted(`${key}:${writer}:${sequence}`, at(from, writer), at(to, writer), 1n)],
  };
}

/** Every writer debits the same funded wallet, each to a wallet of its own. */
export async function hotWallet(ledger: Ledger, writers: number): Promise<Scenario> {
  const key = 'hot_wallet';
  const hot = at((await fundedWallets(ledger, key, 1)).ids, 0);
  const to = await emptyWallets(ledger, writers);
  return {
    key,
    title: 'one hot wallet',
    contention: 'hot',
    transfersPerCall: 1,
    next: (writer, sequence) => [posted(`${key}:${writer}:${sequence}`, hot, at(to, writer), 1n)],
    note: `all ${writers} writers debit one wallet`,
  };
}

/**
 * Distinct wallets, each call also paying a fee to the `fees` system account (two linked transfers,
 * as a swap posts them). With `shards` sub-accounts a business always pays the same one.
 */
export async function hotFeeAccount(ledger: Ledger, writers: number, shards: number): Promise<Scenario> {
  const key = `fees_shards_${shards}`;
  const feeAccounts = new LedgerAccounts(() => ledger.orm.em.fork(), shards);
  const { ids: from, businesses } = await fundedWallets(ledger, key, writers);
  const to = await emptyWallets(ledger, writers);
  const fees = await idsOf(
    feeAccounts,
    businesses.map((business) => feeAccounts.system('fees', CURRENCY, business)),
  );
  const perShard = new Map<number, number>();
  for (const business of businesses) {
    const shard = shardOf(business, shards);
    perShard.set(shard, (perShard.get(shard) ?? 0) + 1);
  }
  return {
    key,
    title: `fees account, shards=${shards}`,
    contention: 'hot',
    transfersPerCall: 2,
    next: (writer, sequence) => [
      posted(`${key}:${writer}:${sequence}:amount`, at(from, writer), at(to, writer), 2n),
      posted(`${key}:${writer}:${sequence}:fee`, at(from, writer), at(fees, writer), 1n),
    ],
    note: `busiest fees sub-account shared by ${Math.max(...perShard.values())} of ${writers} writers (${perShard.size} in use)`,
  };
}

/** A money route of issue 35, as the ledger sees it: its linked transfers and nothing else. */
export type MoneyPosting = 'swap_spread' | 'swap_one_wallet' | 'payout_reserve' | 'collection_credit';

/**
 * What the ledger itself does for one request of a money route (issue 35's ceilings, decision 0070):
 * the transfers payments posts for it, one database transaction per call, with none of the API, the
 * transaction row, the outbox or the event. The shapes are payments' own (one currency here):
 * - swap: the source leg to the business's FX liquidity, the fee, the destination leg from its
 *   liquidity to its second wallet (create-swap.ts); spread over `writers` businesses, or every
 *   writer debiting one wallet;
 * - payout_reserve: the amount and the fee reserved (pending) from the wallet (create-payout.ts);
 * - collection_credit: the amount in from the rail's settlement account and the fee out
 *   (collect.ts), each writer's own wallet.
 * Fees go to a sub-account of `shards`, as payments runs.
 */
export async function moneyPosting(
  ledger: Ledger,
  posting: MoneyPosting,
  writers: number,
  shards: number,
): Promise<Scenario> {
  const key = `posting_${posting}`;
  const feeAccounts = new LedgerAccounts(() => ledger.orm.em.fork(), shards);
  const oneWallet = posting === 'swap_one_wallet';
  const funded = await fundedWallets(ledger, key, oneWallet ? 1 : writers);
  const businesses = oneWallet ? Array.from({ length: writers }, () => funded.businesses[0] ?? '') : funded.businesses;
  const from = (writer: number) => at(funded.ids, oneWallet ? 0 : writer);
  const to = await emptyWallets(ledger, writers);
  const system = (kind: SystemAccountKind, accounts: LedgerAccounts) =>
    idsOf(
      accounts,
      businesses.map((business) => accounts.system(kind, CURRENCY, business)),
    );
  const fees = await system('fees', feeAccounts);
  const other = await system(posting.startsWith('swap') ? 'fx_liquidity' : 'settlement', ledger.accounts);
  const id = (writer: number, sequence: number, leg: string) => `${key}:${writer}:${sequence}:${leg}`;
  const swap: NextCall = (writer, sequence) => [
    posted(id(writer, sequence, 'source'), from(writer), at(other, writer), 100n),
    posted(id(writer, sequence, 'fee'), from(writer), at(fees, writer), 26n),
    posted(id(writer, sequence, 'destination'), at(other, writer), at(to, writer), 100n),
  ];
  const shapes: Record<MoneyPosting, NextCall> = {
    swap_spread: swap,
    swap_one_wallet: swap,
    payout_reserve: (writer, sequence) => [
      { ...posted(id(writer, sequence, 'amount'), from(writer), at(other, writer), 100n), phase: 'pending' },
      { ...posted(id(writer, sequence, 'fee'), from(writer), at(fees, writer), 10n), phase: 'pending' },
    ],
    collection_credit: (writer, sequence) => [
      posted(id(writer, sequence, 'amount'), at(other, writer), at(to, writer), 100n),
      posted(id(writer, sequence, 'fee'), at(to, writer), at(fees, writer), 1n),
    ],
  };
  return {
    key,
    title: `the ledger's posting of a ${posting.replaceAll('_', ' ')}`,
    contention: oneWallet ? 'hot' : 'distinct',
    transfersPerCall: shapes[posting](0, 0).length,
    next: shapes[posting],
    targeted: false,
    ...(oneWallet ? { note: `all ${writers} writers debit one wallet` } : {}),
  };
}
