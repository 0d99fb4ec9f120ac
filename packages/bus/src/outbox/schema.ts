/**
 * The transactional outbox's tables, added to each producing service's first migration so the
 * state row and its event row always commit together (DESIGN.md).
 */
export const OUTBOX_CHANNEL = 'corridor_outbox';

export const outboxSchemaSql: readonly string[] = [
  `create table outbox (
    id bigserial primary key,
    event_id uuid not null unique,
    topic text not null,
    message_key text not null,
    payload bytea not null,
    trace_context jsonb not null default '{}',
    created_at timestamptz not null default now(),
    published_at timestamptz null
  )`,
  // The relay only ever reads unpublished rows, oldest first; keep that index small.
  `create index outbox_unpublished_idx on outbox (id) where published_at is null`,
  `create index outbox_published_at_idx on outbox (published_at) where published_at is not null`,
  // One notification per inserting statement, delivered at commit: the relay wakes at once
  // instead of polling a high-water mark.
  `create function outbox_notify() returns trigger language plpgsql as $$
    begin perform pg_notify('${OUTBOX_CHANNEL}', ''); return null; end $$`,
  `create trigger outbox_notify after insert on outbox for each statement execute function outbox_notify()`,
];

/** Events a consumer has handled, so at-least-once delivery runs each handler once. */
export const processedEventSchemaSql: readonly string[] = [
  `create table processed_event (
    consumer text not null,
    event_id uuid not null,
    processed_at timestamptz not null default now(),
    primary key (consumer, event_id)
  )`,
];
