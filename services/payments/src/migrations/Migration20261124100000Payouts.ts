import { Migration } from '@corridor/db';

/** Payouts (decision 0013): the payout, beneficiaries, lookups, daily limits and the sandbox rail's own table. */
export class Migration20261124100000Payouts extends Migration {
  override up(): void {
    // One row per PAYOUT transaction (same id); its status moves with the transaction's.
    this.addSql(`create table payout (
      id uuid primary key references payment_transaction (id),
      business_id uuid not null,
      status text not null check (status in ('pending', 'processing', 'successful', 'failed', 'reversed')),
      currency text not null references currency (code),
      amount bigint not null check (amount > 0),
      fee bigint not null check (fee >= 0),
      bank_code text not null,
      bank_name text not null,
      account_number text not null,
      account_name text not null,
      narration text not null,
      beneficiary_id uuid null,
      failure_code text null,
      rail_reference text not null default '',
      submit_attempts integer not null default 0,
      lease_until timestamptz null,
      -- When the worker next looks at it (submit, or ask the rail); null once nothing can change.
      next_check_at timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      completed_at timestamptz null,
      reversed_at timestamptz null
    )`);
    this.addSql(`create index payout_due_idx on payout (next_check_at) where next_check_at is not null`);

    this.addSql(`create table beneficiary (
      id uuid primary key,
      business_id uuid not null,
      bank_code text not null,
      bank_name text not null,
      account_number text not null,
      account_name text not null,
      currency text not null references currency (code),
      created_at timestamptz not null,
      last_used_at timestamptz not null,
      unique (business_id, bank_code, account_number)
    )`);
    this.addSql(`create index beneficiary_list_idx on beneficiary (business_id, created_at desc, id desc)`);

    // Production pays only destinations the business looked up (issue 12); kept 30 days.
    this.addSql(`create table account_lookup (
      business_id uuid not null,
      bank_code text not null,
      account_number text not null,
      account_name text not null,
      looked_up_at timestamptz not null,
      primary key (business_id, bank_code, account_number)
    )`);

    this.addSql(`create table payout_limit (
      business_id uuid not null,
      currency text not null references currency (code),
      daily_limit bigint not null check (daily_limit >= 0),
      updated_at timestamptz not null,
      primary key (business_id, currency)
    )`);
    // Today's total per business and currency: raised by a conditional upsert, so two payouts can't
    // both squeeze under the limit.
    this.addSql(`create table payout_daily_total (
      business_id uuid not null,
      currency text not null,
      day date not null,
      total bigint not null check (total >= 0),
      primary key (business_id, currency, day)
    )`);

    this.addSql(`create table sandbox_rail_payout (
      payout_id uuid primary key,
      reference text not null default 'SBX' || upper(substr(md5(random()::text), 1, 12)),
      bank_code text not null,
      account_number text not null,
      amount bigint not null,
      currency text not null,
      outcome text not null,
      submitted_at timestamptz not null,
      settles_at timestamptz not null,
      reverses_at timestamptz null,
      submit_calls integer not null
    )`);
  }
}
