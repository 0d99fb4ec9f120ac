import { Migration } from '@corridor/db';

export class Migration20261121300000WebhookEndpoints extends Migration {
  override up(): void {
    // Decision 0009: one registration per business, held by Postgres itself under concurrent POSTs.
    // The signing secret is sealed (AES-256-GCM), never stored in clear: signing needs the secret itself.
    this.addSql(`create table webhook_endpoint (
      id uuid primary key,
      business_id uuid not null,
      collection_url text not null,
      payout_url text not null,
      kyc_url text null,
      signing_secret_sealed bytea not null,
      signing_secret_last4 text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint webhook_endpoint_business_unique unique (business_id)
    )`);
  }

  override down(): void {
    this.addSql('drop table webhook_endpoint');
  }
}
