import { Migration } from '@corridor/db';
import { sandboxClockSchemaDownSql, sandboxClockSchemaSql } from '@corridor/sandbox-clock';

/** Each business's sandbox clock, or its copy (decision 0069). The table is @corridor/sandbox-clock's. */
export class Migration20261205100000SandboxClock extends Migration {
  override up(): void {
    for (const statement of sandboxClockSchemaSql) this.addSql(statement);
  }

  override down(): void {
    for (const statement of sandboxClockSchemaDownSql) this.addSql(statement);
  }
}
