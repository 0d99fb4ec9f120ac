import { Migration } from '@corridor/db';

/**
 * Decision 0065: the secret a rotation replaced keeps signing beside the new one until its overlap
 * ends. Sealed as it was sealed as the current secret; the three columns are set and cleared together.
 */
export class Migration20261202100000SigningSecretOverlap extends Migration {
  override up(): void {
    this.addSql(`alter table webhook_endpoint
      add column previous_signing_secret_sealed bytea,
      add column previous_signing_secret_last4 text,
      add column previous_signing_secret_expires_at timestamptz,
      add constraint webhook_endpoint_previous_secret_whole check (
        (previous_signing_secret_sealed is null) = (previous_signing_secret_last4 is null)
        and (previous_signing_secret_sealed is null) = (previous_signing_secret_expires_at is null))`);
  }

  override down(): void {
    this.addSql(`alter table webhook_endpoint
      drop constraint webhook_endpoint_previous_secret_whole,
      drop column previous_signing_secret_sealed,
      drop column previous_signing_secret_last4,
      drop column previous_signing_secret_expires_at`);
  }
}
