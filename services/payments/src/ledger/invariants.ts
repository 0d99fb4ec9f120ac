import { IsolationLevel, type EntityManager } from '@mikro-orm/core';
import { int8, sql } from './sql.js';

export type LedgerRule = 'currency_unbalanced' | 'balance_mismatch' | 'wallet_negative' | 'entry_chain_broken';

export interface LedgerViolation {
  rule: LedgerRule;
  currency: string;
  /** The account's code, when the rule is about one account. */
  account: string;
  detail: string;
}

export interface LedgerCheck {
  ok: boolean;
  violations: LedgerViolation[];
  accountsChecked: bigint;
  transfersChecked: bigint;
}

/**
 * The books balance (DESIGN.md): per currency Σdebits = Σcredits (posted and pending); every
 * account's totals equal the sums of the transfers that touched it, and its last entry carries those
 * totals at its version; no wallet below zero. Runs in one REPEATABLE READ snapshot so a check
 * during traffic sees one consistent ledger.
 */
export async function checkLedger(em: EntityManager): Promise<LedgerCheck> {
  return em.fork().transactional(
    async (tx) => {
      const violations: LedgerViolation[] = [];
      const unbalanced = await sql(
        tx,
        `select currency, sum(posted_debits) as pd, sum(posted_credits) as pc,
                sum(pending_debits) as qd, sum(pending_credits) as qc
         from ledger_account group by currency
         having sum(posted_debits) <> sum(posted_credits) or sum(pending_debits) <> sum(pending_credits)`,
      );
      for (const row of unbalanced) {
        violations.push({
          rule: 'currency_unbalanced',
          currency: String(row.currency),
          account: '',
          detail: `posted debits ${row.pd} vs credits ${row.pc}; pending debits ${row.qd} vs credits ${row.qc}`,
        });
      }
      // Each account's totals recomputed from the immutable transfers alone, in one pass (hash aggregate).
      const mismatched = await sql(
        tx,
        `with open_pending as (
           select p.debit_account_id, p.credit_account_id, p.amount from ledger_transfer p
           where p.phase = 'pending' and not exists (select 1 from ledger_transfer r where r.pending_id = p.id)
         ), moves (account_id, pd, pc, qd, qc) as (
           select debit_account_id, amount, 0, 0, 0 from ledger_transfer where phase in ('posted', 'post_pending')
           union all
           select credit_account_id, 0, amount, 0, 0 from ledger_transfer where phase in ('posted', 'post_pending')
           union all
           select debit_account_id, 0, 0, amount, 0 from open_pending
           union all
           select credit_account_id, 0, 0, 0, amount from open_pending
         ), sums as (
           select account_id, sum(pd) as pd, sum(pc) as pc, sum(qd) as qd, sum(qc) as qc from moves group by account_id
         )
         select a.code, a.currency, a.posted_debits, a.posted_credits, a.pending_debits, a.pending_credits,
                coalesce(s.pd, 0) as pd, coalesce(s.pc, 0) as pc, coalesce(s.qd, 0) as qd, coalesce(s.qc, 0) as qc
         from ledger_account a left join sums s on s.account_id = a.id
         where (a.posted_debits, a.posted_credits, a.pending_debits, a.pending_credits)
               <> (coalesce(s.pd, 0), coalesce(s.pc, 0), coalesce(s.qd, 0), coalesce(s.qc, 0))`,
      );
      for (const row of mismatched) {
        violations.push({
          rule: 'balance_mismatch',
          currency: String(row.currency),
          account: String(row.code),
          detail: `account holds ${row.posted_debits}/${row.posted_credits}/${row.pending_debits}/${row.pending_credits} (posted debits/credits, pending debits/credits); its transfers sum to ${row.pd}/${row.pc}/${row.qd}/${row.qc}`,
        });
      }
      const brokenChains = await sql(
        tx,
        `with chains as (
           select account_id, count(*) as entries, max(account_version) as last_version from ledger_entry group by account_id
         )
         select a.code, a.currency, a.version, coalesce(c.entries, 0) as entries, c.last_version
         from ledger_account a
         left join chains c on c.account_id = a.id
         left join ledger_entry l on l.account_id = a.id and l.account_version = a.version
         where coalesce(c.entries, 0) <> a.version or coalesce(c.last_version, 0) <> a.version
            or (a.version > 0 and (l.id is null
                or (l.posted_debits_after, l.posted_credits_after, l.pending_debits_after, l.pending_credits_after)
                   <> (a.posted_debits, a.posted_credits, a.pending_debits, a.pending_credits)))`,
      );
      for (const row of brokenChains) {
        violations.push({
          rule: 'entry_chain_broken',
          currency: String(row.currency),
          account: String(row.code),
          detail: `version ${row.version}, ${row.entries} entries, last entry version ${row.last_version ?? 'none'}, or the last entry's totals differ from the account's`,
        });
      }
      const negative = await sql(
        tx,
        `select code, currency, posted_credits - posted_debits - pending_debits as available
         from ledger_account where kind = 'wallet' and posted_credits - posted_debits - pending_debits < 0`,
      );
      for (const row of negative) {
        violations.push({
          rule: 'wallet_negative',
          currency: String(row.currency),
          account: String(row.code),
          detail: `available balance ${row.available}`,
        });
      }
      const [counts] = await sql(
        tx,
        `select (select count(*) from ledger_account) as accounts, (select count(*) from ledger_transfer) as transfers`,
      );
      return {
        ok: violations.length === 0,
        violations,
        accountsChecked: int8(counts?.accounts ?? 0),
        transfersChecked: int8(counts?.transfers ?? 0),
      };
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ },
  );
}
