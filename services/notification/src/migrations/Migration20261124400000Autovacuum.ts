import {
  highChurnAutovacuumSql,
  processedEventRetentionDownSql,
  processedEventRetentionSql,
  resetAutovacuumSql,
} from '@corridor/bus';
import { Migration } from '@corridor/db';

/** Every delivery is updated per attempt and deleted after its retention. */
const deliveryTables = ['webhook_delivery', 'webhook_attempt'];

/**
 * processed_event, deliveries and attempts turn over all day: vacuum them early, and index
 * processed_event for its retention sweep (decision 0017).
 */
export class Migration20261124400000Autovacuum extends Migration {
  override up(): void {
    for (const statement of processedEventRetentionSql) this.addSql(statement);
    for (const table of deliveryTables) this.addSql(highChurnAutovacuumSql(table));
  }

  override down(): void {
    for (const table of deliveryTables) this.addSql(resetAutovacuumSql(table));
    for (const statement of processedEventRetentionDownSql) this.addSql(statement);
  }
}
