import { Migration } from '@corridor/db';

/**
 * The last TOTP time step a member's code was accepted for (RFC 6238 §5.2, issue 30): a code is
 * accepted only for a later step, so one seen over a shoulder cannot sign in again (decision 0028).
 */
export class Migration20261128234500TotpLastStep extends Migration {
  override up(): void {
    this.addSql(`alter table member add column totp_last_step bigint null check (totp_last_step >= 0)`);
  }

  override down(): void {
    this.addSql('alter table member drop column totp_last_step');
  }
}
