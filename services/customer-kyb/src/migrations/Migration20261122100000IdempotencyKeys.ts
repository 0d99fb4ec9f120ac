import { Migration } from '@corridor/db';
import { IDEMPOTENCY_KEY_TABLE_SQL } from '@corridor/idempotency';

export class Migration20261122100000IdempotencyKeys extends Migration {
  override up(): void {
    // Idempotency-Key of the public POSTs, claimed in the transaction of each write (DESIGN.md).
    for (const sql of IDEMPOTENCY_KEY_TABLE_SQL) this.addSql(sql);
  }
}
