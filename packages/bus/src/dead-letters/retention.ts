import type { EntityManager } from '@mikro-orm/core';
import { RETENTION_BATCH } from '../retention.js';

/**
 * How long a resolved dead letter is kept (decision 0023): the record of an incident and of its
 * repair, as long as an ended webhook delivery (decision 0010). An unresolved one is kept until a retry
 * resolves it: it is a message not applied yet.
 */
export const DEAD_LETTER_RETENTION_MS = 30 * 24 * 3_600_000;

export interface PruneDeadLetters {
  /** The service's clock: rows resolved before now − retentionMs are deleted. */
  now: Date;
  retentionMs?: number;
  batchSize?: number;
  /** Aborted at shutdown: the sweep stops between batches. */
  signal?: AbortSignal;
}

/**
 * Deletes resolved dead letters past retention, oldest first, one bounded batch per statement
 * (dead_letter_resolved_at_idx), until a batch comes back short. Returns how many rows went.
 */
export async function pruneResolvedDeadLetters(
  em: EntityManager,
  { now, retentionMs = DEAD_LETTER_RETENTION_MS, batchSize = RETENTION_BATCH, signal }: PruneDeadLetters,
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionMs);
  let deleted = 0;
  for (;;) {
    const rows = await em.getConnection().execute<{ id: string }[]>(
      `delete from dead_letter where id in (
         select id from dead_letter where resolved_at < ? order by resolved_at limit ? for update skip locked
       ) returning id`,
      [cutoff, batchSize],
      'all',
    );
    deleted += rows.length;
    if (rows.length < batchSize || signal?.aborted) return deleted;
  }
}
