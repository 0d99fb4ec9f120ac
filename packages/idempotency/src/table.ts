/**
 * DDL of the idempotency_key table, for each service's own migration (`this.addSql(each)`): the key
 * lives in the database of the service that owns the effect, so both commit together.
 */
export const IDEMPOTENCY_KEY_TABLE_SQL: readonly string[] = [
  `create table idempotency_key (
    business_id text not null,
    route text not null,
    key text not null,
    fingerprint text not null,
    -- The answer as protobuf bytes; null only while an effect run outside one transaction holds the key.
    response bytea null,
    created_at timestamptz not null default now(),
    primary key (business_id, route, key)
  )`,
  // The retention sweep deletes the oldest rows first, in batches.
  `create index idempotency_key_created_at_idx on idempotency_key (created_at)`,
];

/** Stripe keeps keys 24 hours; a sweep may keep them longer, never shorter. */
export const IDEMPOTENCY_KEY_RETENTION_MS = 24 * 60 * 60 * 1000;
