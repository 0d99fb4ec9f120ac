import type {
  UpdateWebhookRequest,
  WebhookConfig,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { notFound } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import type { NotificationContext } from '../context.js';
import { UrlHealthRepository } from '../health/url-health-repository.js';
import type { UrlKind } from '../health/url-health.js';
import { validateUpdate } from './webhook-urls.js';
import { toWebhookConfig } from './webhook-config.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type UpdateWebhookInput = Pick<
  UpdateWebhookRequest,
  'webhookId' | 'collectionUrl' | 'payoutUrl' | 'kycUrlChange'
>;

/**
 * PUT /webhook/{id} (seed 2.4, 4.3; decision 0009): the URLs sent are written, the omitted ones are
 * untouched, `kyc_url: null` removes the KYC receiver. The secret never changes here; the answer
 * shows it, as the register answer does. 404 (another business's id too), then 422.
 */
export async function updateWebhook(
  em: EntityManager,
  context: NotificationContext,
  businessId: string,
  input: UpdateWebhookInput,
): Promise<WebhookConfig> {
  // Not a uuid: it names nothing, and must not reach a uuid column.
  const endpoint = UUID.test(input.webhookId)
    ? await em.findOne(WebhookEndpoint, { id: input.webhookId.toLowerCase(), businessId })
    : null;
  if (!endpoint) throw notFound('WEBHOOK_NOT_FOUND', `webhook configuration ${input.webhookId} not found`);

  const urls = await validateUpdate(input, context);
  const changed: UrlKind[] = [];
  const set = <K extends 'collectionUrl' | 'payoutUrl' | 'kycUrl'>(
    field: K,
    kind: UrlKind,
    value: WebhookEndpoint[K] | undefined,
  ) => {
    if (value === undefined || endpoint[field] === value) return;
    endpoint[field] = value;
    changed.push(kind);
  };
  set('collectionUrl', 'collection_url', urls.collection_url);
  set('payoutUrl', 'payout_url', urls.payout_url);
  set('kycUrl', 'kyc_url', urls.kyc_url);
  if (changed.length > 0) {
    const now = context.now();
    endpoint.updatedAt = now;
    await em.flush();
    // Decision 0068: a changed URL is a new receiver: enabled, its run forgotten, what it held queued.
    const health = new UrlHealthRepository(em);
    for (const urlKind of changed) await health.enable({ endpointId: endpoint.id, urlKind }, true, now);
    context.wakeWorker?.();
  }
  return toWebhookConfig(endpoint, context.secrets.unseal(endpoint.signingSecretSealed, endpoint.id));
}
