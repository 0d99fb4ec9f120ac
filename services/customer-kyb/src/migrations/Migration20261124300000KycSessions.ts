import { Migration } from '@corridor/db';

export class Migration20261124300000KycSessions extends Migration {
  override up(): void {
    // Merchant KYC sessions (seed 3.4, decision 0016). Open: pending (waiting for the person) and
    // processing (submitted, waiting for the verdict); final: completed, expired, cancelled.
    this.addSql(`create table kyc_session (
      id uuid primary key,
      business_id uuid not null,
      customer_reference text not null check (length(customer_reference) between 1 and 255),
      requirements text[] not null check (cardinality(requirements) between 1 and 3),
      customer_id uuid null references customer (id),
      redirect_url text null,
      status text not null check (status in ('pending', 'processing', 'completed', 'expired', 'cancelled')),
      result text null check (result in ('APPROVED', 'REJECTED')),
      rejection_reason text null,
      rejection_type text null check (rejection_type in ('FINAL', 'RETRYABLE')),
      verification_token text not null unique,
      expires_at timestamptz not null,
      sandbox_verdict_at timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      submitted_at timestamptz null,
      completed_at timestamptz null,
      expired_at timestamptz null,
      cancelled_at timestamptz null,
      constraint kyc_session_result_when_completed check ((status = 'completed') = (result is not null)),
      constraint kyc_session_rejection_when_rejected check (
        (result is distinct from 'REJECTED' and rejection_type is null and rejection_reason is null)
        or (result = 'REJECTED' and rejection_type is not null and rejection_reason is not null))
    )`);
    // One index per list filter, each in the list's order (DESIGN.md "Lists stay flat").
    this.addSql(`create index kyc_session_list_idx on kyc_session (business_id, created_at desc, id desc)`);
    this.addSql(
      `create index kyc_session_reference_idx on kyc_session (business_id, customer_reference, created_at desc, id desc)`,
    );
    this.addSql(`create index kyc_session_status_idx on kyc_session (business_id, status, created_at desc, id desc)`);
    this.addSql(
      `create index kyc_session_customer_idx on kyc_session (business_id, customer_id, created_at desc, id desc)
       where customer_id is not null`,
    );
    // The sweep's two claims: open sessions by deadline, and by the sandbox's verdict time.
    this.addSql(
      `create index kyc_session_deadline_idx on kyc_session (expires_at) where status in ('pending', 'processing')`,
    );
    this.addSql(
      `create index kyc_session_sandbox_verdict_idx on kyc_session (sandbox_verdict_at)
       where status in ('pending', 'processing') and sandbox_verdict_at is not null`,
    );
    // What the person gave on the verification page: a file in the bucket, issued then captured.
    this.addSql(`create table kyc_capture (
      id uuid primary key,
      session_id uuid not null references kyc_session (id),
      kind text not null check (kind in ('document', 'selfie')),
      object_key text not null unique,
      content_type text not null,
      size_bytes bigint not null check (size_bytes > 0),
      upload_url_expires_at timestamptz not null,
      captured_at timestamptz null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index kyc_capture_session_idx on kyc_capture (session_id, created_at, id)`);
  }
}
