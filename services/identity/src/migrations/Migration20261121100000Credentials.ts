import { Migration } from '@corridor/db';

export class Migration20261121100000Credentials extends Migration {
  override up(): void {
    this.addSql(`alter table business add column version bigint not null default 1`);
    this.addSql(`create table credential (
      client_id text primary key,
      business_id uuid not null references business (id),
      secret_hash bytea not null,
      scopes jsonb not null,
      generation integer not null check (generation > 0),
      created_at timestamptz not null,
      rotated_at timestamptz null,
      revoked_at timestamptz null
    )`);
    this.addSql(`create index credential_business_idx on credential (business_id)`);
    this.addSql(`create table signing_key (
      key_id text primary key,
      public_jwk jsonb not null,
      private_key_sealed bytea not null,
      created_at timestamptz not null
    )`);
  }

  override down(): void {
    this.addSql('drop table signing_key');
    this.addSql('drop table credential');
    this.addSql('alter table business drop column version');
  }
}
