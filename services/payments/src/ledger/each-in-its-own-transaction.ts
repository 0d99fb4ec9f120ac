import type { EntityManager } from '@mikro-orm/core';
import { sql, type Row } from './sql.js';

/**
 * A worker's pass over due rows that move money: up to `batch` rows, each claimed (`claim` makes the
 * statement, ending in `limit 1 for update skip locked`, and its parameters at each claim) and handled in a transaction of its own. One
 * transaction for the whole batch would lock one row's ledger accounts after another's, in no single
 * order, and deadlock with a request locking some of them in id order (ledger_apply); measured: 500s
 * under concurrent refunds. Returns how many rows it handled.
 */
export async function eachInItsOwnTransaction(
  em: EntityManager,
  batch: number,
  claim: () => { sql: string; params: unknown[] },
  handle: (tx: EntityManager, row: Row) => Promise<void>,
): Promise<number> {
  let handled = 0;
  while (handled < batch) {
    const found = await em.transactional(async (tx) => {
      const { sql: statement, params } = claim();
      const [row] = await sql(tx, statement, params);
      if (!row) return false;
      await handle(tx, row);
      return true;
    });
    if (!found) break;
    handled += 1;
  }
  return handled;
}
