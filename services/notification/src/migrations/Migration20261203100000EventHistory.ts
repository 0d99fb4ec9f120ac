import { Migration } from '@corridor/db';

/**
 * Issue 34 parts 1 and 2 (decisions 0066, 0067): every webhook event a business's webhooks carried or
 * would carry, with the body as delivered and its number in the business's sequence; one counter row
 * per business hands the numbers out; each delivery carries its event's number for the header.
 */
export class Migration20261203100000EventHistory extends Migration {
  override up(): void {
    this.addSql(`create table webhook_event_sequence (
      business_id uuid primary key,
      last_sequence bigint not null check (last_sequence > 0)
    )`);
    this.addSql(`create table webhook_event (
      id uuid primary key,
      business_id uuid not null,
      sequence bigint not null check (sequence > 0),
      event_type text not null,
      body text not null,
      occurred_at timestamptz not null,
      created_at timestamptz not null,
      constraint webhook_event_sequence_once unique (business_id, sequence)
    )`);
    // The history's pages, newest first, and its retention sweep, oldest first.
    this.addSql(`create index webhook_event_list on webhook_event (business_id, created_at desc, id desc)`);
    this.addSql(`create index webhook_event_created_at on webhook_event (created_at)`);
    this.addSql(`alter table webhook_delivery add column sequence bigint`);
  }

  override down(): void {
    this.addSql(`alter table webhook_delivery drop column sequence`);
    this.addSql(`drop table webhook_event`);
    this.addSql(`drop table webhook_event_sequence`);
  }
}
