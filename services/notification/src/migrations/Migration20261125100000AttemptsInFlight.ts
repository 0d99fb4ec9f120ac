import { Migration } from '@corridor/db';

/**
 * Issue 18: an attempt is recorded when it starts (`in_flight`, no duration yet) and completed in
 * place; one whose process died is closed `interrupted` once its lease lapses (decision 0010's
 * amendment). lease_until is when an open attempt is known dead; the partial index holds only the
 * few attempts in flight, so closing the dead ones at each claim reads next to nothing.
 */
export class Migration20261125100000AttemptsInFlight extends Migration {
  override up(): void {
    this.addSql(`alter table webhook_attempt drop constraint webhook_attempt_outcome_check`);
    this.addSql(`alter table webhook_attempt add constraint webhook_attempt_outcome_check
      check (outcome in ('in_flight', 'succeeded', 'failed', 'interrupted'))`);
    this.addSql(`alter table webhook_attempt alter column duration_ms drop not null`);
    this.addSql(`alter table webhook_attempt add column lease_until timestamptz null`);
    this.addSql(`alter table webhook_attempt add constraint webhook_attempt_in_flight_leased
      check (outcome <> 'in_flight' or lease_until is not null)`);
    this.addSql(`create index webhook_attempt_in_flight on webhook_attempt (lease_until) where outcome = 'in_flight'`);
  }

  override down(): void {
    // The old log knew only finished attempts: an open or cut-off one reads as a failure.
    this.addSql(`update webhook_attempt set outcome = 'failed', duration_ms = coalesce(duration_ms, 0)
      where outcome in ('in_flight', 'interrupted')`);
    this.addSql(`drop index webhook_attempt_in_flight`);
    this.addSql(`alter table webhook_attempt drop constraint webhook_attempt_in_flight_leased`);
    this.addSql(`alter table webhook_attempt drop column lease_until`);
    this.addSql(`alter table webhook_attempt alter column duration_ms set not null`);
    this.addSql(`alter table webhook_attempt drop constraint webhook_attempt_outcome_check`);
    this.addSql(`alter table webhook_attempt add constraint webhook_attempt_outcome_check
      check (outcome in ('succeeded', 'failed'))`);
  }
}
