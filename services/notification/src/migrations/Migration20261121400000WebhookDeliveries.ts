import { processedEventSchemaSql } from '@corridor/bus';
import { Migration } from '@corridor/db';

export class Migration20261121400000WebhookDeliveries extends Migration {
  override up(): void {
    // Events consumed, so a redelivered Kafka message makes no second delivery (@corridor/bus).
    for (const sql of processedEventSchemaSql) this.addSql(sql);

    // Decision 0010. The schedule lives in next_attempt_at, never in memory alone: a worker claims
    // due rows with FOR UPDATE SKIP LOCKED and holds them by lease_until while it attempts.
    this.addSql(`create table webhook_delivery (
      id uuid primary key,
      business_id uuid not null,
      endpoint_id uuid not null references webhook_endpoint (id) on delete cascade,
      event_id uuid not null,
      event_type text not null,
      destination text not null check (destination in ('kyc_url', 'collection_url', 'payout_url')),
      body text not null,
      status text not null check (status in ('pending', 'succeeded', 'failed')),
      attempt_count integer not null default 0,
      scheduled_attempts integer not null default 0,
      next_attempt_at timestamptz null,
      replay_requested_at timestamptz null,
      lease_until timestamptz null,
      mock boolean not null default false,
      trace_context jsonb not null default '{}',
      event_occurred_at timestamptz not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      completed_at timestamptz null,
      constraint webhook_delivery_once unique (event_id, endpoint_id)
    )`);
    this.addSql(`create index webhook_delivery_due on webhook_delivery (next_attempt_at) where status = 'pending'`);
    this.addSql(
      `create index webhook_delivery_replay_queue on webhook_delivery (replay_requested_at) where replay_requested_at is not null`,
    );
    this.addSql(
      `create index webhook_delivery_in_flight on webhook_delivery (endpoint_id) where lease_until is not null`,
    );
    // The list: one business, newest first, optionally by status or event (small sets per business).
    this.addSql(`create index webhook_delivery_list on webhook_delivery (business_id, created_at desc, id desc)`);
    this.addSql(`create index webhook_delivery_ended on webhook_delivery (completed_at) where status <> 'pending'`);

    this.addSql(`create table webhook_attempt (
      id uuid primary key,
      delivery_id uuid not null references webhook_delivery (id) on delete cascade,
      number integer not null,
      trigger text not null check (trigger in ('scheduled', 'replay', 'mock')),
      started_at timestamptz not null,
      duration_ms integer not null,
      outcome text not null check (outcome in ('succeeded', 'failed')),
      status_code integer null,
      error_class text null,
      error_message text null,
      response_body text null,
      constraint webhook_attempt_number unique (delivery_id, number)
    )`);
  }

  override down(): void {
    this.addSql('drop table webhook_attempt');
    this.addSql('drop table webhook_delivery');
    this.addSql('drop table processed_event');
  }
}
