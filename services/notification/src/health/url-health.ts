import type { Destination } from '../events/webhook-events.js';

/**
 * Endpoint health (issue 34 part 4, decision 0068): the rules that disable one registered URL, pure,
 * judged against a `now` the caller takes from its clock (the business's, once there is one).
 */

/** A registered URL by the field that holds it (decision 0010). */
export type UrlKind = Destination;

export type DisabledReason = 'gone' | 'failing_for' | 'consecutive';

export interface UrlHealth {
  /** When the first delivery of the unbroken run of failed ones failed; null when the run is empty. */
  failingSince: Date | null;
  /** Deliveries of the run: each failed after its retries (or was answered 410). */
  consecutiveFailures: number;
  /** Set while the URL is disabled: no attempt is made to it until it is enabled again. */
  disabledAt: Date | null;
  disabledReason: DisabledReason | null;
}

export interface HealthRules {
  /** WEBHOOK_DISABLE_AFTER_MS: a run this long, first failure to latest, disables. */
  disableAfterMs: number;
  /** WEBHOOK_DISABLE_AFTER_EVENTS: a run of this many deliveries disables. */
  disableAfterEvents: number;
}

/**
 * The defaults (decision 0068): 5 days, as Svix and Stripe wait before they disable; 100 deliveries
 * in a row, each already failed through seed 6.4's 81-minute ladder.
 */
export const DEFAULT_HEALTH_RULES: HealthRules = { disableAfterMs: 5 * 24 * 60 * 60 * 1000, disableAfterEvents: 100 };

/**
 * What one answered attempt says of its URL: delivered (a 2xx), gone (410), failed_finally (the
 * delivery ended failed: seed 6.4's retries ran out), retrying (failed, more attempts to come, or a
 * replay's failure, which ends nothing: decision 0010).
 */
export type Verdict = 'delivered' | 'gone' | 'failed_finally' | 'retrying';

export const HEALTHY: UrlHealth = {
  failingSince: null,
  consecutiveFailures: 0,
  disabledAt: null,
  disabledReason: null,
};

/** The receiver asks never to be called again (RFC 9110 15.5.11): no retry, the URL is disabled at once. */
export const GONE = 410;

export const isDisabled = (health: UrlHealth): boolean => health.disabledAt !== null;

/**
 * The URL's health after one verdict at `now`: a 2xx ends the run; a final failure lengthens it and
 * disables the URL once it lasts `disableAfterMs` or counts `disableAfterEvents`; a 410 disables it at
 * once. A disabled URL stays disabled whatever comes (an explicit replay's success included) until it
 * is enabled.
 */
export function judge(health: UrlHealth, verdict: Verdict, now: Date, rules: HealthRules): UrlHealth {
  if (verdict === 'retrying') return health;
  if (verdict === 'delivered') return { ...health, failingSince: null, consecutiveFailures: 0 };
  const run = {
    failingSince: health.failingSince ?? now,
    consecutiveFailures: health.consecutiveFailures + 1,
  };
  if (isDisabled(health)) return { ...health, ...run };
  const reason: DisabledReason | null =
    verdict === 'gone'
      ? 'gone'
      : now.getTime() - run.failingSince.getTime() >= rules.disableAfterMs
        ? 'failing_for'
        : run.consecutiveFailures >= rules.disableAfterEvents
          ? 'consecutive'
          : null;
  return { ...run, disabledAt: reason ? now : null, disabledReason: reason };
}

/** Whether `after` disabled a URL `before` had enabled. */
export const disabledNow = (before: UrlHealth, after: UrlHealth): boolean => !isDisabled(before) && isDisabled(after);
