import { deadLetterSchemaDownSql, deadLetterSchemaSql } from '@corridor/bus';
import { Migration } from '@corridor/db';

/**
 * Messages the consumer could not decode, kept with their raw bytes until a retry applies them, in
 * the transaction that moves the consumer past them (decision 0023). The table is @corridor/bus's.
 */
export class Migration20261126100000DeadLetters extends Migration {
  override up(): void {
    for (const statement of deadLetterSchemaSql) this.addSql(statement);
  }

  override down(): void {
    for (const statement of deadLetterSchemaDownSql) this.addSql(statement);
  }
}
