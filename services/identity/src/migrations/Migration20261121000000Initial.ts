import { outboxSchemaSql } from '@corridor/bus';
import { Migration } from '@corridor/db';

export class Migration20261121000000Initial extends Migration {
  override up(): void {
    this.addSql(`create table business (
      id uuid primary key,
      name text not null,
      environment text not null check (environment in ('sandbox', 'production')),
      api_enabled boolean not null,
      kyb_minimal_allowed boolean not null,
      ip_allowlist jsonb not null default '[]',
      rate_limit_per_minute integer not null check (rate_limit_per_minute > 0),
      rate_limit_per_hour integer not null check (rate_limit_per_hour > 0),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index business_created_at_idx on business (created_at desc)`);
    for (const statement of outboxSchemaSql) this.addSql(statement);
  }

  override down(): void {
    this.addSql('drop table outbox');
    this.addSql('drop function outbox_notify');
    this.addSql('drop table business');
  }
}
