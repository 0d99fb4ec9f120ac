import {
  outboxRetentionDownSql,
  outboxRetentionSql,
  processedEventRetentionDownSql,
  processedEventRetentionSql,
} from '@corridor/bus';
import { Migration } from '@corridor/db';

/**
 * The outbox and processed_event turn over every row within days: vacuum them early, and index
 * processed_event for its retention sweep (decision 0017).
 */
export class Migration20261124400000Autovacuum extends Migration {
  override up(): void {
    for (const statement of [...outboxRetentionSql, ...processedEventRetentionSql]) this.addSql(statement);
  }

  override down(): void {
    for (const statement of [...processedEventRetentionDownSql, ...outboxRetentionDownSql]) this.addSql(statement);
  }
}
