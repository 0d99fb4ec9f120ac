import type { WebhookConfig } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import type { EntityManager } from '@mikro-orm/core';
import type { NotificationContext } from '../context.js';
import { UrlHealthRepository } from '../health/url-health-repository.js';
import type { UrlKind } from '../health/url-health.js';
import { lockedRegistration } from './rotate-signing-secret.js';
import { toWebhookConfig } from './webhook-config.js';

export interface EnableWebhookUrlInput {
  webhookId: string;
  urlKind: UrlKind;
  /** Queue what the URL held while disabled; absent: true (decision 0068). */
  replay?: boolean;
}

/**
 * POST /webhook/{id}/endpoint/{kind}/enable (decision 0068): attempts to the URL resume and its run of
 * failures is forgotten; with replay (the default) every delivery it held is queued, in sequence
 * order, the stored body and event id as they were; without, each ends failed, never attempted.
 * A URL that is not disabled is left enabled, queued 0. Judged at `now`, the caller's clock.
 */
export async function enableWebhookUrl(
  em: EntityManager,
  context: NotificationContext,
  businessId: string,
  input: EnableWebhookUrlInput,
): Promise<{ webhook: WebhookConfig; queued: number; wasDisabled: boolean }> {
  const replay = input.replay ?? true;
  const answer = await em.transactional(async (tx) => {
    const endpoint = await lockedRegistration(tx, businessId, input.webhookId);
    const now = context.now();
    const health = new UrlHealthRepository(tx);
    const { queued, wasDisabled } = await health.enable(
      { endpointId: endpoint.id, urlKind: input.urlKind },
      replay,
      now,
    );
    return { webhook: toWebhookConfig(endpoint, undefined, now, await health.of(endpoint.id)), queued, wasDisabled };
  });
  if (answer.queued > 0) context.wakeWorker?.();
  return answer;
}
