import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { sql } from './sql.js';

export type SystemAccountKind =
  'fees' | 'fx_liquidity' | 'rounding' | 'sandbox_funding' | 'manual_adjustment' | 'settlement';

export interface AccountSpec {
  /** Unique, readable: wallet:<business>:<currency>, fees:NGN:3, settlement:sandbox:NGN:0. */
  code: string;
  kind: 'wallet' | SystemAccountKind;
  businessId: string | null;
  currency: string;
  /** Wallets only: debits may never exceed credits (available never below zero). */
  noOverdraft: boolean;
}

export const walletAccount = (businessId: string, currency: string): AccountSpec => ({
  code: `wallet:${businessId}:${currency}`,
  kind: 'wallet',
  businessId,
  currency,
  noOverdraft: true,
});

/**
 * The ledger's accounts. System accounts are split into `shards` sub-accounts and a business always
 * posts to the same one (by a hash of its id), so two businesses' swaps rarely wait on one fee or
 * liquidity row (decision 0011). Ids never change once made, so they are remembered.
 */
export class LedgerAccounts {
  private readonly ids = new Map<string, string>();

  constructor(
    private readonly newEntityManager: () => EntityManager,
    readonly shards: number,
  ) {}

  system(kind: SystemAccountKind, currency: string, businessId: string, rail?: string): AccountSpec {
    const shard = shardOf(businessId, this.shards);
    return {
      code: `${kind}${rail ? `:${rail}` : ''}:${currency}:${shard}`,
      kind,
      businessId: null,
      currency,
      noOverdraft: false,
    };
  }

  /**
   * The ids of these accounts, made when missing, in the transaction of `em` (so an operation never
   * needs a second pooled connection while it holds one). Only ids of accounts committed before this
   * statement's transaction began are remembered: one made here could still roll back with it.
   */
  async resolve(
    specs: readonly AccountSpec[],
    em: EntityManager = this.newEntityManager(),
  ): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const missing = specs.filter((spec) => !this.ids.has(spec.code));
    if (missing.length > 0) {
      await sql(
        em,
        `insert into ledger_account (code, kind, business_id, currency, no_overdraft)
         select code, kind, business_id, currency, no_overdraft
         from jsonb_to_recordset(?::jsonb) as a (code text, kind text, business_id uuid, currency text, no_overdraft boolean)
         on conflict (code) do nothing`,
        [
          JSON.stringify(
            missing.map((spec) => ({
              code: spec.code,
              kind: spec.kind,
              business_id: spec.businessId,
              currency: spec.currency,
              no_overdraft: spec.noOverdraft,
            })),
          ),
        ],
      );
      const rows = await sql(
        em,
        `select id, code, created_at < now() as settled from ledger_account
         where code in (select jsonb_array_elements_text(?::jsonb))`,
        [JSON.stringify(missing.map((spec) => spec.code))],
      );
      for (const row of rows) {
        found.set(String(row.code), String(row.id));
        if (row.settled === true) this.ids.set(String(row.code), String(row.id));
      }
    }
    return new Map(specs.map((spec) => [spec.code, this.ids.get(spec.code) ?? this.idOf(spec, found)]));
  }

  private idOf(spec: AccountSpec, found: ReadonlyMap<string, string>): string {
    const id = found.get(spec.code);
    if (id === undefined) throw new Error(`ledger account ${spec.code} was not made`);
    return id;
  }
}

/** A stable sub-account number for a business. */
export function shardOf(businessId: string, shards: number): number {
  return createHash('sha256').update(businessId).digest().readUInt32BE(0) % shards;
}
