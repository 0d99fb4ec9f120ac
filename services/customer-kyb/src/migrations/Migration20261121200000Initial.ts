import { outboxSchemaSql } from '@corridor/bus';
import { Migration } from '@corridor/db';

const STATUS = `('PENDING', 'PROCESSING', 'APPROVED', 'REJECTED')`;

export class Migration20261121200000Initial extends Migration {
  override up(): void {
    this.addSql(`create table customer (
      id uuid primary key,
      business_id uuid not null,
      type text not null check (type in ('individual', 'business')),
      kyb_scope text null check (kyb_scope is null or (kyb_scope in ('FULL', 'MINIMAL') and type = 'business')),
      verification_status text not null check (verification_status in ('PENDING', 'PROCESSING', 'VERIFIED', 'REJECTED')),
      fields jsonb not null,
      email text generated always as (fields->>'email') stored,
      id_number text generated always as (fields->>'id_number') stored,
      registration_number text generated always as (fields->>'registration_number') stored,
      incorporation_country text generated always as (fields->>'incorporation_country') stored,
      id_file_id uuid null,
      id_file_back_id uuid null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      submitted_at timestamptz null
    )`);
    // seed 2.1 rule 3, held by Postgres itself: one business customer per number and country per platform.
    this.addSql(`create unique index customer_registration_unique
      on customer (business_id, registration_number, incorporation_country) where type = 'business'`);
    // seed 4.4: every list is one business's, newest first; each filter has an index that ends in
    // the list's order, so a filtered page reads only its rows however many customers there are.
    this.addSql(`create index customer_list_idx on customer (business_id, created_at desc, id desc)`);
    for (const column of ['email', 'id_number', 'verification_status', 'type']) {
      this.addSql(`create index customer_${column}_idx on customer (business_id, ${column}, created_at desc, id desc)`);
    }
    this.addSql(`create index customer_registration_number_idx
      on customer (business_id, registration_number, created_at desc, id desc)`);
    // The admin review queue: oldest submission first, across businesses.
    this.addSql(`create index customer_review_queue_idx on customer (verification_status, submitted_at, id)`);

    this.addSql(`create table owner (
      id uuid primary key,
      customer_id uuid not null references customer (id),
      business_id uuid not null,
      status text not null check (status in ${STATUS}),
      admin_comments jsonb not null default '[]',
      fields jsonb not null,
      id_document_front_id uuid null,
      id_document_back_id uuid null,
      position integer not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index owner_customer_idx on owner (customer_id, position)`);

    this.addSql(`create table kyb_document (
      id uuid primary key,
      customer_id uuid not null references customer (id),
      business_id uuid not null,
      type text not null,
      status text not null check (status in ${STATUS}),
      admin_comments jsonb not null default '[]',
      file_id uuid not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create index kyb_document_customer_idx on kyb_document (customer_id, created_at, id)`);

    this.addSql(`create table stored_file (
      id uuid primary key,
      business_id uuid not null,
      customer_id uuid not null references customer (id),
      purpose text not null check (purpose in ('owner_id', 'kyb_document', 'individual_id')),
      slot text not null,
      owner_id uuid null,
      object_key text not null unique,
      content_type text not null,
      size_bytes integer not null check (size_bytes > 0),
      upload_url_expires_at timestamptz not null,
      uploaded_at timestamptz null,
      attached_at timestamptz null,
      created_at timestamptz not null
    )`);
    this.addSql(`create index stored_file_customer_idx on stored_file (customer_id)`);

    this.addSql(`create table customer_audit (
      id uuid primary key,
      customer_id uuid not null references customer (id),
      business_id uuid not null,
      action text not null,
      actor text not null,
      request_id text null,
      changes jsonb not null,
      occurred_at timestamptz not null
    )`);
    this.addSql(`create index customer_audit_customer_idx on customer_audit (customer_id, occurred_at)`);

    for (const statement of outboxSchemaSql) this.addSql(statement);
  }

  override down(): void {
    this.addSql('drop table outbox');
    this.addSql('drop function outbox_notify');
    for (const table of ['customer_audit', 'stored_file', 'kyb_document', 'owner', 'customer']) {
      this.addSql(`drop table ${table}`);
    }
  }
}
