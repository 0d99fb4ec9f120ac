import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { WalletSchema, type Wallet } from '@corridor/contracts/corridor/payments/v1/money_pb';
import type { EntityManager } from '@mikro-orm/core';
import { walletBalances } from '../ledger/index.js';
import { allCurrencies } from '../reference/currencies.js';

/**
 * GET /wallet (seed 4.4): one wallet per currency Corridor holds, in code order; a currency the
 * business never used shows zero balances (its ledger account is made on first use).
 */
export async function listWallets(em: EntityManager, businessId: string): Promise<Wallet[]> {
  const [currencies, balances] = await Promise.all([allCurrencies(em), walletBalances(em, businessId)]);
  return [...currencies.keys()].map((currency) => {
    const balance = balances.get(currency);
    return create(WalletSchema, {
      currency,
      availableBalance: balance?.available ?? 0n,
      pendingBalance: balance?.pending ?? 0n,
      ledgerBalance: balance?.ledger ?? 0n,
      updatedAt: balance?.updatedAt ? timestampFromDate(balance.updatedAt) : undefined,
    });
  });
}
