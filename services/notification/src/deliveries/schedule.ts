/**
 * When the next scheduled attempt is due after `made` scheduled attempts (seed 6.4 rule 4: each delay
 * counts from the previous attempt), or null when `made` was the last: the delivery is then failed.
 */
export function nextAttemptAt(scheduleMs: readonly number[], made: number, now: Date): Date | null {
  const delay = scheduleMs[made];
  return delay === undefined ? null : new Date(now.getTime() + delay);
}
