import type { WebhookConfig } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { notFound } from '@corridor/grpc';
import type { EntityManager } from '@mikro-orm/core';
import { UrlHealthRepository } from '../health/url-health-repository.js';
import { toWebhookConfig } from './webhook-config.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

/** GET /webhook: the business's registration without the secret (decision 0009), each URL's health (0068). */
export async function getWebhook(em: EntityManager, businessId: string): Promise<WebhookConfig> {
  const endpoint = await em.findOne(WebhookEndpoint, { businessId });
  if (!endpoint) {
    throw notFound(
      'WEBHOOK_NOT_FOUND',
      'this business has no webhook configuration; register one with POST /api/external/webhook',
    );
  }
  return toWebhookConfig(endpoint, undefined, undefined, await new UrlHealthRepository(em).of(endpoint.id));
}
