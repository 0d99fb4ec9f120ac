import { Migration } from '@corridor/db';

/**
 * Decision 0034: `corridor listen` reads the deliveries created after a position. created_at is the
 * application's clock, taken before the insert commits, so a delivery committed late can carry a
 * time older than one already streamed. The id of the transaction that made the row orders them as
 * commit visibility does: once it is below every running transaction's, no row with a lower one can
 * appear any more. Rows made before this migration share its transaction's id (ties broken by id).
 */
export class Migration20261201100000ListenPositions extends Migration {
  override up(): void {
    this.addSql(`alter table webhook_delivery add column created_xid xid8 not null default pg_current_xact_id()`);
    this.addSql(`create index webhook_delivery_listen on webhook_delivery (business_id, created_xid, id)`);
    this.addSql(`alter table webhook_attempt drop constraint webhook_attempt_trigger_check`);
    this.addSql(`alter table webhook_attempt add constraint webhook_attempt_trigger_check
      check (trigger in ('scheduled', 'replay', 'mock', 'listen'))`);
  }

  override down(): void {
    this.addSql(`delete from webhook_attempt where trigger = 'listen'`);
    this.addSql(`alter table webhook_attempt drop constraint webhook_attempt_trigger_check`);
    this.addSql(`alter table webhook_attempt add constraint webhook_attempt_trigger_check
      check (trigger in ('scheduled', 'replay', 'mock'))`);
    this.addSql(`drop index webhook_delivery_listen`);
    this.addSql(`alter table webhook_delivery drop column created_xid`);
  }
}
