import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { generateSigningSecret, lastFour, type WebhookSecrets } from '../../src/secrets/webhook-secrets.js';
import { WebhookEndpoint } from '../../src/webhooks/webhook-endpoint.entity.js';
import { DeliveryRepository } from '../../src/deliveries/delivery-repository.js';
import type { AttemptResult } from '../../src/deliveries/send-webhook.js';

/** What the delivery specs share: a registration, a due delivery of it, an attempt's answer. */

export interface TestEndpoint {
  endpointId: string;
  businessId: string;
  secret: string;
}

/** A registration of a new business whose collection and payout URLs are `urlOf` its paths. */
export async function registerEndpoint(
  em: EntityManager,
  secrets: WebhookSecrets,
  urlOf: (path: string) => string = (path) => `https://hooks.example.com${path}`,
): Promise<TestEndpoint> {
  const id = randomUUID();
  const secret = generateSigningSecret();
  const now = new Date();
  const businessId = randomUUID();
  em.create(WebhookEndpoint, {
    id,
    businessId,
    collectionUrl: urlOf(`/collection/${id}`),
    payoutUrl: urlOf(`/payout/${id}`),
    kycUrl: null,
    signingSecretSealed: secrets.seal(secret, id),
    signingSecretLast4: lastFour(secret),
    createdAt: now,
    updatedAt: now,
  });
  await em.flush();
  return { endpointId: id, businessId, secret };
}

/** A customer.status_changed delivery to the collection URL, created and due at `due`; its id. */
export async function insertDelivery(
  em: EntityManager,
  endpoint: Pick<TestEndpoint, 'endpointId' | 'businessId'>,
  due = new Date(),
): Promise<string> {
  const id = randomUUID();
  await new DeliveryRepository(em).insert({
    id,
    businessId: endpoint.businessId,
    endpointId: endpoint.endpointId,
    eventId: randomUUID(),
    eventType: 'customer.status_changed',
    destination: 'collection_url',
    body: JSON.stringify({ event: 'customer.status_changed', data: { n: id } }),
    nextAttemptAt: due,
    traceContext: {},
    eventOccurredAt: due,
    now: due,
  });
  return id;
}

/** A receiver's answer: 200, or 500 with the log's words for it. */
export const answer = (outcome: AttemptResult['outcome']): AttemptResult => ({
  startedAt: new Date(),
  durationMs: 3,
  outcome,
  statusCode: outcome === 'succeeded' ? 200 : 500,
  errorClass: outcome === 'succeeded' ? null : 'http_status',
  errorMessage: outcome === 'succeeded' ? null : 'receiver answered 500',
  responseBody: 'ok',
});
