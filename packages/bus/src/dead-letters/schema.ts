/**
 * Messages a consumer could not decode, kept with their raw bytes until a retry applies them
 * (decision 0023). In each consuming service's database, beside processed_event, so a dead letter
 * and the offset that passes it commit together. Written once here so the services cannot drift.
 *
 * `message_offset`, `message_key` and `message_value`: Kafka's offset, key and value (`offset` is a
 * reserved word; outbox names its key the same way). headers: name → the values sent, base64.
 */
export const deadLetterSchemaSql: readonly string[] = [
  `create table dead_letter (
    id uuid primary key,
    consumer text not null,
    topic text not null,
    partition integer not null,
    message_offset bigint not null,
    message_key bytea null,
    message_value bytea null,
    headers jsonb not null default '{}',
    error text not null,
    received_at timestamptz not null,
    retry_count integer not null default 0,
    last_retried_at timestamptz null,
    last_retry_error text null,
    resolved_at timestamptz null,
    event_id uuid null,
    constraint dead_letter_message_once unique (consumer, topic, partition, message_offset),
    constraint dead_letter_resolved_with_event check (resolved_at is null or event_id is not null)
  )`,
  // The list, newest first (decision 0018): every dead letter, and the unresolved ones an operator works
  // through. "Resolved" reads the first past the unresolved rows at its head: few, by their nature.
  `create index dead_letter_received_idx on dead_letter (received_at desc, id desc)`,
  `create index dead_letter_unresolved_idx on dead_letter (received_at desc, id desc) where resolved_at is null`,
  // The retention sweep deletes resolved rows oldest first (decision 0017).
  `create index dead_letter_resolved_at_idx on dead_letter (resolved_at) where resolved_at is not null`,
];

export const deadLetterSchemaDownSql: readonly string[] = [`drop table dead_letter`];
