import type {
  UpdateWebhookRequest,
  WebhookConfig,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { notFound } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import type { NotificationContext } from '../context.js';
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
  let changed = false;
  const set = <K extends 'collectionUrl' | 'payoutUrl' | 'kycUrl'>(field: K, value: WebhookEndpoint[K] | undefined) => {
    if (value === undefined || endpoint[field] === value) return;
    endpoint[field] = value;
    changed = true;
  };
  set('collectionUrl', urls.collection_url);
  set('payoutUrl', urls.payout_url);
  set('kycUrl', urls.kyc_url);
  if (changed) {
    endpoint.updatedAt = context.now();
    await em.flush();
  }
  return toWebhookConfig(endpoint, context.secrets.unseal(endpoint.signingSecretSealed, endpoint.id));
}
