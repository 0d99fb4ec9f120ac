import type { EntityManager } from '@mikro-orm/core';
import { dateOf, int8, sql } from './sql.js';

/** A wallet's balances (seed 4.4): ledger = posted; pending = reserved; available = ledger - pending. */
export interface WalletBalance {
  currency: string;
  ledger: bigint;
  pending: bigint;
  available: bigint;
  updatedAt: Date | null;
}

/** The business's wallets that exist, by currency. */
export async function walletBalances(em: EntityManager, businessId: string): Promise<Map<string, WalletBalance>> {
  const rows = await sql(
    em,
    `select currency, posted_credits - posted_debits as ledger, pending_debits as pending, updated_at
     from ledger_account where kind = 'wallet' and business_id = ?`,
    [businessId],
  );
  return new Map(
    rows.map((row) => {
      const ledger = int8(row.ledger);
      const pending = int8(row.pending);
      const balance: WalletBalance = {
        currency: String(row.currency),
        ledger,
        pending,
        available: ledger - pending,
        updatedAt: dateOf(row.updated_at),
      };
      return [balance.currency, balance];
    }),
  );
}
