import { outboxRetentionDownSql, outboxRetentionSql } from '@corridor/bus';
import { Migration } from '@corridor/db';

/** The outbox turns over every row within days: vacuum it early (decision 0017). */
export class Migration20261124400000Autovacuum extends Migration {
  override up(): void {
    for (const statement of outboxRetentionSql) this.addSql(statement);
  }

  override down(): void {
    for (const statement of outboxRetentionDownSql) this.addSql(statement);
  }
}
