import { Migration } from '@corridor/db';

/**
 * Dashboard members (decision 0028): the people of a business, their single-use links, the audit
 * log of their changes, and identity's mail outbox.
 */
export class Migration20261128000000Members extends Migration {
  override up(): void {
    this.addSql(`create table member (
      id uuid primary key,
      business_id uuid not null references business (id),
      email text not null check (email = lower(email)),
      name text not null,
      role text not null check (role in ('owner', 'admin', 'developer', 'viewer')),
      status text not null check (status in ('invited', 'active', 'removed')),
      password_hash text null,
      totp_secret bytea null,
      totp_pending_secret bytea null,
      totp_enabled boolean not null default false,
      failed_sign_ins integer not null default 0 check (failed_sign_ins >= 0),
      locked_until timestamptz null,
      created_at timestamptz not null,
      last_sign_in_at timestamptz null,
      check (not totp_enabled or totp_secret is not null),
      check (status = 'invited' or password_hash is not null or status = 'removed')
    )`);
    // One person is one member per environment; a removed member's email may be invited again.
    this.addSql(`create unique index member_email_key on member (email) where status <> 'removed'`);
    this.addSql(`create index member_business_page_idx on member (business_id, created_at desc, id desc)`);

    this.addSql(`create table member_token (
      token_hash bytea primary key,
      member_id uuid not null references member (id),
      kind text not null check (kind in ('invitation', 'password_reset')),
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz null
    )`);
    // Voiding a member's open links of one kind (a new invitation or reset replaces the older ones).
    this.addSql(`create index member_token_open_idx on member_token (member_id, kind) where used_at is null`);

    this.addSql(`create table audit_entry (
      id uuid primary key,
      business_id uuid not null references business (id),
      actor_member_id uuid null references member (id),
      actor_email text not null,
      actor_address text not null,
      action text not null,
      target text not null,
      details text not null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index audit_entry_business_page_idx on audit_entry (business_id, created_at desc, id desc)`);

    this.addSql(`create table mail (
      id uuid primary key,
      recipient text not null,
      subject text not null,
      text text not null,
      html text not null,
      created_at timestamptz not null,
      sent_at timestamptz null,
      attempts integer not null default 0,
      next_attempt_at timestamptz not null,
      last_error text null
    )`);
    this.addSql(`create index mail_due_idx on mail (next_attempt_at) where sent_at is null`);

    // ListCredentials: a business's credentials, newest first.
    this.addSql(`alter table credential add column last_used_at timestamptz null`);
    this.addSql(
      `create index credential_business_page_idx on credential (business_id, created_at desc, client_id desc)`,
    );
    this.addSql(`drop index credential_business_idx`);
  }

  override down(): void {
    this.addSql(`create index credential_business_idx on credential (business_id)`);
    this.addSql('drop index credential_business_page_idx');
    this.addSql('alter table credential drop column last_used_at');
    this.addSql('drop table mail');
    this.addSql('drop table audit_entry');
    this.addSql('drop table member_token');
    this.addSql('drop table member');
  }
}
