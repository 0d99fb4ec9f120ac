import type { EntityManager } from '@mikro-orm/core';

/**
 * How long the bus's own tables keep a row (decision 0017). Published outbox rows are history
 * Kafka already holds; processed_event rows only need to outlive any chance of a redelivery.
 */
export const DEFAULT_OUTBOX_RETENTION_MS = 72 * 3_600_000;
/**
 * Longer than a topic can still hold an event: 168 h of log.retention plus up to 168 h before its
 * segment rolls and becomes deletable. A group that lost its offsets re-reads all of it.
 */
export const DEFAULT_PROCESSED_EVENT_RETENTION_MS = 14 * 24 * 3_600_000;
/** Rows per DELETE: each statement's locks and WAL stay small however large the backlog. */
export const RETENTION_BATCH = 1_000;
/** How often the retention sweeps look for expired rows. */
export const RETENTION_SWEEP_INTERVAL_MS = 3_600_000;

/**
 * Autovacuum for a table whose rows are inserted, updated and deleted all day: vacuum after 1 % of
 * it is dead (PostgreSQL's default waits for 20 %, which on a big table is millions of dead rows).
 */
export const highChurnAutovacuumSql = (table: string): string =>
  `alter table ${table} set (
    autovacuum_vacuum_scale_factor = 0.01,
    autovacuum_vacuum_threshold = 1000,
    autovacuum_vacuum_insert_scale_factor = 0.01,
    autovacuum_analyze_scale_factor = 0.02
  )`;

export const resetAutovacuumSql = (table: string): string =>
  `alter table ${table} reset (
    autovacuum_vacuum_scale_factor,
    autovacuum_vacuum_threshold,
    autovacuum_vacuum_insert_scale_factor,
    autovacuum_analyze_scale_factor
  )`;

/** For a producing service's migration: the outbox already has its published_at index. */
export const outboxRetentionSql: readonly string[] = [highChurnAutovacuumSql('outbox')];
export const outboxRetentionDownSql: readonly string[] = [resetAutovacuumSql('outbox')];

/**
 * For a consuming service's migration. The prune reads the oldest rows first; without this index each
 * batch would scan the whole table. `if not exists`: an operator may build it concurrently beforehand.
 */
export const processedEventRetentionSql: readonly string[] = [
  `create index if not exists processed_event_processed_at_idx on processed_event (processed_at)`,
  highChurnAutovacuumSql('processed_event'),
];
export const processedEventRetentionDownSql: readonly string[] = [
  resetAutovacuumSql('processed_event'),
  `drop index if exists processed_event_processed_at_idx`,
];

export interface PruneProcessedEvents {
  /** The service's clock: rows processed before now − retentionMs are deleted. */
  now: Date;
  retentionMs: number;
  batchSize?: number;
  /** Aborted at shutdown: the sweep stops between batches. */
  signal?: AbortSignal;
}

/**
 * Deletes processed_event rows past retention, oldest first, one bounded batch per statement, until a
 * batch comes back short. Returns how many rows went.
 */
export async function pruneProcessedEvents(
  em: EntityManager,
  { now, retentionMs, batchSize = RETENTION_BATCH, signal }: PruneProcessedEvents,
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionMs);
  let deleted = 0;
  for (;;) {
    const rows = await em.getConnection().execute<{ consumer: string }[]>(
      `delete from processed_event where (consumer, event_id) in (
         select consumer, event_id from processed_event where processed_at < ? order by processed_at limit ?
       ) returning consumer`,
      [cutoff, batchSize],
      'all',
    );
    deleted += rows.length;
    if (rows.length < batchSize || signal?.aborted) return deleted;
  }
}
