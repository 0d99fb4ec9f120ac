import type { WebhookConfig } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { invalidArgument, notFound } from '@corridor/grpc';
import { LockMode, type EntityManager } from '@mikro-orm/core';
import type { NotificationContext } from '../context.js';
import { generateSigningSecret, lastFour } from '../secrets/webhook-secrets.js';
import { toWebhookConfig } from './webhook-config.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

/** Decision 0065: the replaced secret signs beside the new one for 24 h unless asked, 0 to 7 days. */
export const DEFAULT_OVERLAP_SECONDS = 24 * 60 * 60;
export const MAX_OVERLAP_SECONDS = 7 * 24 * 60 * 60;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The business's registration with this id, locked until the transaction ends: rotations queue. */
export async function lockedRegistration(tx: EntityManager, businessId: string, webhookId: string) {
  // Not a uuid: it names nothing, and must not reach a uuid column.
  const endpoint = UUID.test(webhookId)
    ? await tx.findOne(
        WebhookEndpoint,
        { id: webhookId.toLowerCase(), businessId },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      )
    : null;
  if (!endpoint) throw notFound('WEBHOOK_NOT_FOUND', `webhook configuration ${webhookId} not found`);
  return endpoint;
}

/**
 * POST /webhook/{id}/signing-secret/rotate (decision 0065): a new secret, shown in this answer only. The one
 * it replaces keeps signing until the overlap ends; a rotation during an overlap drops the oldest,
 * so two secrets sign at most. An overlap of 0 replaces the secret at once.
 */
export async function rotateSigningSecret(
  em: EntityManager,
  context: NotificationContext,
  businessId: string,
  input: { webhookId: string; overlapSeconds?: number },
): Promise<WebhookConfig> {
  const overlapSeconds = input.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS;
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MAX_OVERLAP_SECONDS) {
    const problem = `must be a whole number of seconds from 0 to ${MAX_OVERLAP_SECONDS} (7 days), got ${overlapSeconds}`;
    throw invalidArgument(`overlap_seconds ${problem}`, { overlap_seconds: [problem] });
  }
  return em.transactional(async (tx) => {
    const endpoint = await lockedRegistration(tx, businessId, input.webhookId);
    const now = context.now();
    const secret = generateSigningSecret();
    const overlapping = overlapSeconds > 0;
    endpoint.previousSigningSecretSealed = overlapping ? endpoint.signingSecretSealed : null;
    endpoint.previousSigningSecretLast4 = overlapping ? endpoint.signingSecretLast4 : null;
    endpoint.previousSigningSecretExpiresAt = overlapping ? new Date(now.getTime() + overlapSeconds * 1000) : null;
    endpoint.signingSecretSealed = context.secrets.seal(secret, endpoint.id);
    endpoint.signingSecretLast4 = lastFour(secret);
    endpoint.updatedAt = now;
    await tx.flush();
    return toWebhookConfig(endpoint, secret, now);
  });
}

/** DELETE /webhook/{id}/signing-secret/previous (decision 0065): the overlap ends now; only the current secret signs. */
export async function endSecretOverlap(
  em: EntityManager,
  context: NotificationContext,
  businessId: string,
  webhookId: string,
): Promise<WebhookConfig> {
  return em.transactional(async (tx) => {
    const endpoint = await lockedRegistration(tx, businessId, webhookId);
    const now = context.now();
    if (endpoint.previousSigningSecretSealed) {
      endpoint.previousSigningSecretSealed = null;
      endpoint.previousSigningSecretLast4 = null;
      endpoint.previousSigningSecretExpiresAt = null;
      endpoint.updatedAt = now;
      await tx.flush();
    }
    return toWebhookConfig(endpoint, undefined, now);
  });
}
