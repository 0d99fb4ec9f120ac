import { Migration } from '@corridor/db';

/**
 * Issue 34 part 4 (decision 0068): each registered URL's health (the run of failed deliveries, and
 * whether it is disabled and why), and why a delivery is not attempted while its URL is disabled.
 */
export class Migration20261204100000EndpointHealth extends Migration {
  override up(): void {
    this.addSql(`create table webhook_url_health (
      endpoint_id uuid not null references webhook_endpoint (id) on delete cascade,
      url_kind text not null check (url_kind in ('collection_url', 'payout_url', 'kyc_url')),
      failing_since timestamptz,
      consecutive_failures integer not null default 0 check (consecutive_failures >= 0),
      disabled_at timestamptz,
      disabled_reason text check (disabled_reason in ('gone', 'failing_for', 'consecutive')),
      primary key (endpoint_id, url_kind),
      constraint webhook_url_health_disabled_with_reason check ((disabled_at is null) = (disabled_reason is null))
    )`);
    this.addSql(
      `alter table webhook_delivery add column skipped_reason text check (skipped_reason in ('endpoint_disabled'))`,
    );
    // A disabled URL's held deliveries, read when it is enabled.
    this.addSql(`create index webhook_delivery_skipped on webhook_delivery (endpoint_id, destination)
      where skipped_reason is not null and status = 'pending'`);
  }

  override down(): void {
    this.addSql(`drop index webhook_delivery_skipped`);
    this.addSql(`alter table webhook_delivery drop column skipped_reason`);
    this.addSql(`drop table webhook_url_health`);
  }
}
