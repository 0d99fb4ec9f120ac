import { processedEventSchemaSql } from '@corridor/bus';
import { Migration } from '@corridor/db';

/**
 * Virtual accounts, collections and refunds (decision 0014): payments' projection of customers, the
 * accounts opened for them, the details of COLLECTION and REFUND transactions.
 */
export class Migration20261124200000Collections extends Migration {
  override up(): void {
    // What payments knows of customer-kyb's customers, from corridor.customer.v1 (no reads of its database).
    this.addSql(`create table customer_projection (
      customer_id uuid primary key,
      business_id uuid not null,
      customer_type text not null check (customer_type in ('individual', 'business')),
      kyb_scope text null check (kyb_scope in ('MINIMAL', 'FULL')),
      verification_status text not null check (verification_status in ('PENDING', 'PROCESSING', 'VERIFIED', 'REJECTED')),
      display_name text not null,
      updated_at timestamptz not null
    )`);
    for (const statement of processedEventSchemaSql) this.addSql(statement);

    // Account numbers are never reused, closed or not.
    this.addSql(`create sequence virtual_account_serial_seq start 100000`);
    this.addSql(`create table virtual_account (
      id uuid primary key,
      business_id uuid not null,
      customer_id uuid not null references customer_projection (customer_id),
      currency text not null references currency (code),
      status text not null check (status in ('active', 'closed')),
      account_name text not null,
      account_number text not null unique,
      bank_name text not null,
      bank_code text not null,
      created_at timestamptz not null,
      closed_at timestamptz null,
      close_reason text null check (close_reason in ('requested', 'customer_rejected')),
      check ((status = 'closed') = (closed_at is not null))
    )`);
    // One open account per customer and currency: the rule is the index (DESIGN.md "Rules as constraints").
    this.addSql(`create unique index virtual_account_open_idx on virtual_account (customer_id, currency)
      where status = 'active'`);
    this.addSql(`create index virtual_account_list_idx on virtual_account (business_id, created_at desc, id desc)`);
    this.addSql(`create index virtual_account_customer_idx on virtual_account
      (business_id, customer_id, created_at desc, id desc)`);
    this.addSql(`create index virtual_account_currency_idx on virtual_account
      (business_id, currency, created_at desc, id desc)`);

    // A customer's stablecoin deposit address, one per (customer, asset, network) (decision 0015).
    this.addSql(`create table crypto_address (
      id uuid primary key,
      business_id uuid not null,
      customer_id uuid not null references customer_projection (customer_id),
      asset text not null,
      network text not null,
      address text not null unique,
      created_at timestamptz not null,
      unique (customer_id, asset, network)
    )`);

    // One row per COLLECTION transaction (same id).
    this.addSql(`create table collection (
      id uuid primary key references payment_transaction (id),
      business_id uuid not null,
      method text not null check (method in
        ('bank_transfer', 'money_request', 'crypto_deposit', 'interac_request', 'interac_transfer')),
      status text not null check (status in ('pending', 'processing', 'successful', 'failed', 'expired')),
      customer_id uuid not null,
      currency text not null references currency (code),
      amount bigint not null check (amount > 0),
      fee bigint not null check (fee >= 0),
      virtual_account_id uuid null references virtual_account (id),
      sender_name text null,
      description text null,
      redirect_url text null,
      payment_token text null unique,
      payer_email text null,
      expires_at timestamptz null,
      completed_at timestamptz null,
      failure_code text null,
      rail_reference text not null,
      -- Crypto deposits: the address (its asset and network copied, so a transaction read needs no join).
      crypto_address_id uuid null references crypto_address (id),
      asset text null,
      network text null,
      address text null,
      -- Digits of base units, as text: 18-decimal assets pass a JSON number's exact range.
      asset_amount text null check (asset_amount ~ '^[0-9]+$'),
      tx_hash text null unique,
      confirmations integer null,
      confirmations_required integer null,
      -- Crypto deposits: when the next block is due.
      next_confirmation_at timestamptz null,
      created_at timestamptz not null,
      check ((method = 'money_request') = (payment_token is not null)),
      check ((method in ('money_request', 'interac_request', 'interac_transfer')) = (expires_at is not null)),
      check ((method = 'crypto_deposit') = (crypto_address_id is not null))
    )`);
    // The expiry sweep and the confirmation sweep read only what can still change.
    this.addSql(`create index collection_expiry_idx on collection (expires_at) where status = 'pending'`);
    this.addSql(`create index collection_confirmation_idx on collection (next_confirmation_at)
      where status = 'processing'`);

    // The row is claimed before its transaction is written (the claim decides a racing reference), so its
    // reference to the transaction is checked at commit.
    this.addSql(`create table refund (
      id uuid primary key references payment_transaction (id) deferrable initially deferred,
      business_id uuid not null,
      collection_id uuid not null unique references collection (id),
      status text not null check (status in ('processing', 'successful', 'failed')),
      currency text not null references currency (code),
      amount bigint not null check (amount > 0),
      fee bigint not null check (fee >= 0),
      reason text null,
      reference text null,
      failure_reason text null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      completed_at timestamptz null,
      -- When the refund worker next asks the rail; null once final.
      next_check_at timestamptz null,
      lease_until timestamptz null,
      unique (business_id, reference)
    )`);
    this.addSql(`create index refund_due_idx on refund (next_check_at) where next_check_at is not null`);
  }
}
