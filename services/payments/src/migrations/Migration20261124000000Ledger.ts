import { outboxSchemaSql } from '@corridor/bus';
import { Migration } from '@corridor/db';
import { IDEMPOTENCY_KEY_TABLE_SQL } from '@corridor/idempotency';
import { LEDGER_APPLY_FUNCTION_SQL } from '../ledger/ledger-function.sql.js';

/**
 * The money core (decision 0011): currencies, the double-entry ledger and its posting function,
 * rates, quotes, spreads, the fee schedule, transactions and the outbox.
 */
export class Migration20261124000000Ledger extends Migration {
  override up(): void {
    this.addSql(`create table currency (
      code text primary key check (code ~ '^[A-Z]{3}$'),
      name text not null,
      exponent smallint not null check (exponent between 0 and 18),
      operations text[] not null,
      created_at timestamptz not null default now()
    )`);
    // ISO 4217; every fiat here has two decimals. CAD is Interac's (issue 11).
    this.addSql(`insert into currency (code, name, exponent, operations) values
      ('NGN', 'Nigerian Naira', 2, '{swap,collection,payout,virtual_account}'),
      ('USD', 'United States Dollar', 2, '{swap,collection,payout,virtual_account}'),
      ('GBP', 'Pound Sterling', 2, '{swap,collection,payout,virtual_account}'),
      ('EUR', 'Euro', 2, '{swap,collection,payout,virtual_account}'),
      ('CAD', 'Canadian Dollar', 2, '{swap,collection,payout}')`);

    this.addSql(`create table ledger_account (
      id bigserial primary key,
      code text not null unique,
      kind text not null check (kind in
        ('wallet', 'fees', 'fx_liquidity', 'rounding', 'sandbox_funding', 'manual_adjustment', 'settlement')),
      business_id uuid null,
      currency text not null references currency (code),
      no_overdraft boolean not null,
      posted_debits bigint not null default 0 check (posted_debits >= 0),
      posted_credits bigint not null default 0 check (posted_credits >= 0),
      pending_debits bigint not null default 0 check (pending_debits >= 0),
      pending_credits bigint not null default 0 check (pending_credits >= 0),
      version bigint not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint ledger_account_wallet_has_business check ((kind = 'wallet') = (business_id is not null)),
      -- The last line of defence: ledger_apply refuses an overdraft in the statement that moves the
      -- balance; this holds even for a statement written by hand.
      constraint ledger_account_no_overdraft check
        (not no_overdraft or posted_debits + pending_debits <= posted_credits)
    )`);
    this.addSql(`create unique index ledger_account_wallet_idx on ledger_account (business_id, currency)
      where kind = 'wallet'`);

    // Immutable: a pending transfer is resolved by a second transfer naming it, never by an update.
    this.addSql(`create table ledger_transfer (
      id text primary key,
      debit_account_id bigint not null references ledger_account (id),
      credit_account_id bigint not null references ledger_account (id),
      currency text not null references currency (code),
      amount bigint not null check (amount > 0),
      phase text not null check (phase in ('posted', 'pending', 'post_pending', 'void_pending')),
      pending_id text null references ledger_transfer (id),
      transaction_id uuid null,
      created_at timestamptz not null default now(),
      check (debit_account_id <> credit_account_id),
      check ((phase in ('post_pending', 'void_pending')) = (pending_id is not null))
    )`);
    this.addSql(`create unique index ledger_transfer_resolved_once_idx on ledger_transfer (pending_id)
      where pending_id is not null`);
    this.addSql(`create index ledger_transfer_transaction_idx on ledger_transfer (transaction_id)`);

    // One row per account a transfer touches, with the account's four totals after it and its version.
    this.addSql(`create table ledger_entry (
      id bigserial primary key,
      transfer_id text not null references ledger_transfer (id),
      account_id bigint not null references ledger_account (id),
      side text not null check (side in ('debit', 'credit')),
      amount bigint not null check (amount > 0),
      phase text not null,
      posted_debits_after bigint not null,
      posted_credits_after bigint not null,
      pending_debits_after bigint not null,
      pending_credits_after bigint not null,
      account_version bigint not null,
      created_at timestamptz not null default now(),
      unique (account_id, account_version)
    )`);
    this.addSql(`create index ledger_entry_transfer_idx on ledger_entry (transfer_id)`);
    this.addSql(LEDGER_APPLY_FUNCTION_SQL);

    this.addSql(`create table fx_rate (
      base_currency text not null references currency (code),
      quote_currency text not null references currency (code),
      rate text not null check (rate ~ '^[0-9]{1,12}([.][0-9]{1,12})?$'),
      updated_at timestamptz not null,
      primary key (base_currency, quote_currency),
      check (base_currency <> quote_currency)
    )`);
    this.addSql(`create table fx_spread (
      business_id uuid primary key,
      spread_bps integer not null check (spread_bps between 0 and 5000),
      updated_at timestamptz not null
    )`);
    this.addSql(`create table rate_quote (
      id uuid primary key,
      business_id uuid not null,
      from_currency text not null references currency (code),
      to_currency text not null references currency (code),
      rate text not null,
      mid_rate text not null,
      spread_bps integer not null,
      created_at timestamptz not null,
      expires_at timestamptz not null
    )`);
    this.addSql(`create index rate_quote_expires_idx on rate_quote (expires_at)`);

    this.addSql(`create table fee_rule (
      id bigserial primary key,
      business_id uuid null,
      operation text not null check (operation in ('swap', 'collection', 'payout', 'refund')),
      currency text not null references currency (code),
      flat bigint not null check (flat >= 0),
      percentage_bps integer not null check (percentage_bps between 0 and 10000),
      minimum bigint null check (minimum >= 0),
      maximum bigint null check (maximum >= 0),
      updated_at timestamptz not null default now(),
      check (minimum is null or maximum is null or minimum <= maximum),
      unique nulls not distinct (business_id, operation, currency)
    )`);
    // The default schedule (decision 0011); the back office changes it with PUT /admin/fees.
    this.addSql(`insert into fee_rule (business_id, operation, currency, flat, percentage_bps, minimum, maximum)
      select null, o.operation, c.code, o.flat, o.bps, null, o.maximum
      from currency c cross join (values
        ('swap', 0, 25, null::bigint),
        ('collection', 0, 100, 500000::bigint),
        ('payout', 10000, 0, null::bigint),
        ('refund', 0, 0, null::bigint)) as o (operation, flat, bps, maximum)`);

    this.addSql(`create table payment_transaction (
      id uuid primary key,
      business_id uuid not null,
      type text not null check (type in ('SWAP', 'COLLECTION', 'PAYOUT', 'REFUND', 'ADJUSTMENT')),
      status text not null check (status in
        ('PENDING', 'PROCESSING', 'SUCCESSFUL', 'FAILED', 'EXPIRED', 'REVERSED')),
      currency text not null references currency (code),
      amount bigint not null,
      fee bigint not null check (fee >= 0),
      net bigint not null check (net = amount - fee),
      reference text null,
      description text not null,
      refund_status text null check (refund_status in ('processing', 'successful', 'failed')),
      swap_details jsonb null,
      adjustment_details jsonb null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint payment_transaction_reference_unique unique (business_id, reference)
    )`);
    // Keyset pages newest first, one index per filter a list accepts (DESIGN.md "Lists stay flat").
    this.addSql(`create index payment_transaction_list_idx on payment_transaction
      (business_id, created_at desc, id desc)`);
    this.addSql(`create index payment_transaction_status_idx on payment_transaction
      (business_id, status, created_at desc, id desc)`);
    this.addSql(`create index payment_transaction_type_idx on payment_transaction
      (business_id, type, created_at desc, id desc)`);
    this.addSql(`create index payment_transaction_currency_idx on payment_transaction
      (business_id, currency, created_at desc, id desc)`);

    this.addSql(`create table wallet_adjustment_audit (
      id bigserial primary key,
      transaction_id uuid not null references payment_transaction (id),
      business_id uuid not null,
      actor text not null,
      request_id text null,
      reason text not null,
      created_at timestamptz not null
    )`);
    for (const statement of outboxSchemaSql) this.addSql(statement);
    for (const statement of IDEMPOTENCY_KEY_TABLE_SQL) this.addSql(statement);
  }
}
