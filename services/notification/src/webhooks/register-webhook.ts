import type {
  RegisterWebhookRequest,
  WebhookConfig,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { alreadyExists } from '@corridor/grpc';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { NotificationContext } from '../context.js';
import { generateSigningSecret, lastFour } from '../secrets/webhook-secrets.js';
import { validateRegistration } from './webhook-urls.js';
import { toWebhookConfig } from './webhook-config.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

/** Decision 0009: one registration per business; the answer names the one to change. */
const alreadyRegistered = (id: string) =>
  alreadyExists(
    'WEBHOOK_ALREADY_REGISTERED',
    `this business already has webhook configuration ${id}; change it with PUT /api/external/webhook/${id}`,
  );

async function registeredId(em: EntityManager, businessId: string): Promise<string | undefined> {
  const existing = await em.findOne(WebhookEndpoint, { businessId }, { fields: ['id'] });
  return existing?.id;
}

/**
 * POST /webhook (seed 2.4, 4.3): the business's one registration, with a new signing secret that
 * this answer is the first to show. A business that has one gets 409 before its URLs are resolved:
 * that is the answer whatever the URLs, and it spares the DNS lookups.
 */
export async function registerWebhook(
  em: EntityManager,
  context: NotificationContext,
  businessId: string,
  request: Pick<RegisterWebhookRequest, 'collectionUrl' | 'payoutUrl' | 'kycUrl'>,
): Promise<WebhookConfig> {
  const existing = await registeredId(em, businessId);
  if (existing) throw alreadyRegistered(existing);
  const urls = await validateRegistration(request, context);

  const id = randomUUID();
  const signingSecret = generateSigningSecret();
  const now = context.now();
  const endpoint = em.create(WebhookEndpoint, {
    id,
    businessId,
    collectionUrl: urls.collection_url,
    payoutUrl: urls.payout_url,
    kycUrl: urls.kyc_url,
    signingSecretSealed: context.secrets.seal(signingSecret, id),
    signingSecretLast4: lastFour(signingSecret),
    createdAt: now,
    updatedAt: now,
  });
  try {
    await em.flush();
  } catch (error) {
    // Two concurrent POSTs both passed the check above; webhook_endpoint_business_unique let one in.
    if (!(error instanceof UniqueConstraintViolationException)) throw error;
    const winner = await registeredId(em.fork(), businessId);
    throw winner ? alreadyRegistered(winner) : error;
  }
  return toWebhookConfig(endpoint, signingSecret);
}
