import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { ENDPOINT_DISABLED_EVENT } from '../events/webhook-events.js';
import { EventHistoryRepository } from '../history/event-history-repository.js';
import { UrlHealthRepository, type LockedUrlHealth, type UrlKey } from './url-health-repository.js';
import { disabledNow, isDisabled, judge, type HealthRules, type UrlHealth, type Verdict } from './url-health.js';

/** One answered attempt of an event's delivery, as its URL's health reads it. */
export interface UrlVerdict extends UrlKey {
  verdict: Verdict;
  /** The time the rules judge against: the business's (its sandbox clock's, decision 0069). */
  judgedAt: Date;
  /** Real time: the notice's record and the held deliveries' stamps and leases. */
  now: Date;
}

const keyOf = ({ endpointId, urlKind }: UrlKey) => `${endpointId} ${urlKind}`;

function uniqueKeys(verdicts: readonly UrlVerdict[]): UrlKey[] {
  const keys = new Map(
    verdicts.map(({ endpointId, urlKind }) => [keyOf({ endpointId, urlKind }), { endpointId, urlKind }]),
  );
  return [...keys.values()];
}

/**
 * The `webhook.endpoint_disabled` notice (decision 0068): an event of the business's history, numbered
 * in its sequence, so GET /event and the gap helper show it; never delivered (the URL it is about
 * is the one not answering).
 */
function noticeBody(url: LockedUrlHealth, health: UrlHealth): string {
  return JSON.stringify({
    event: ENDPOINT_DISABLED_EVENT,
    data: {
      webhook_id: url.endpointId,
      business_id: url.businessId,
      url_kind: url.urlKind,
      url: url.url,
      reason: health.disabledReason,
      disabled_at: health.disabledAt?.toISOString() ?? null,
      failing_since: health.failingSince?.toISOString() ?? null,
      consecutive_failures: health.consecutiveFailures,
      enable: `POST /api/external/webhook/${url.endpointId}/endpoint/${url.urlKind}/enable`,
    },
  });
}

/**
 * Judges each URL by the answers its deliveries got (decision 0068), in answer order. A URL with only
 * 2xx answers needs one statement (its run ends); one with a failure is locked, judged, and when
 * disabled has its pending deliveries held, with the notice recorded in the same transaction the
 * first time.
 */
export async function recordVerdicts(
  em: EntityManager,
  rules: HealthRules,
  verdicts: readonly UrlVerdict[],
): Promise<void> {
  const failing = new Set(verdicts.filter((v) => v.verdict !== 'delivered').map(keyOf));
  await new UrlHealthRepository(em).endRuns(uniqueKeys(verdicts.filter((v) => !failing.has(keyOf(v)))));
  if (failing.size === 0) return;
  await em.transactional(async (tx) => {
    const health = new UrlHealthRepository(tx);
    for (const url of await health.lock(uniqueKeys(verdicts.filter((v) => failing.has(keyOf(v)))))) {
      let after = url.health;
      let now: Date | undefined;
      for (const answer of verdicts.filter((v) => keyOf(v) === keyOf(url))) {
        after = judge(after, answer.verdict, answer.judgedAt, rules);
        now = answer.now;
      }
      if (!now) continue;
      await health.save(url, after);
      if (!isDisabled(after)) continue;
      if (disabledNow(url.health, after)) {
        await new EventHistoryRepository(tx).record([
          {
            id: randomUUID(),
            businessId: url.businessId,
            eventType: ENDPOINT_DISABLED_EVENT,
            body: noticeBody(url, after),
            occurredAt: now,
            createdAt: now,
          },
        ]);
      }
      await health.hold(url, now);
    }
  });
}
