/** When and how often a request is tried again (decision 0032). */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** The first retry's backoff ceiling; it doubles with every attempt. */
  baseDelayMs: number;
  /** No backoff is longer; a Retry-After longer than this is not waited for: the error is thrown. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 60_000 };

/** Statuses that say "nothing was done, try again later". */
export const RETRIED_STATUSES = new Set([429, 503]);

/**
 * The wait before retry number `attempt` (1 for the first retry). Retry-After is a floor the
 * server set; a little jitter on top keeps many clients from returning in the same instant.
 * Without it: "full jitter" exponential backoff, a random wait up to base × 2^(attempt-1).
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, retryAfterSeconds: number | undefined): number {
  if (retryAfterSeconds !== undefined) {
    return retryAfterSeconds * 1000 + Math.random() * Math.min(policy.baseDelayMs, 250);
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.random() * ceiling;
}

/** Resolves after `ms`, or rejects with the signal's reason when the caller aborts first. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
