import { captureTraceContext, type EventHandler } from '@corridor/bus';
import { Environment, topicName, type Event } from '@corridor/contracts/events';
import type { Logger } from '@corridor/logging';
import type { Clock } from '@corridor/runtime';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { DeliveryRepository } from '../deliveries/delivery-repository.js';
import { nextAttemptAt } from '../deliveries/schedule.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';
import { renderEvent, type RenderedEvent } from './render-event.js';
import { destinationOf, webhookBody } from './webhook-events.js';

export interface DeliveriesFromEventsOptions {
  environment: 'sandbox' | 'production';
  scheduleMs: readonly number[];
  now: Clock;
  logger: Logger;
}

/** Every producing service's topic that carries a webhook event, all read by one consumer group. */
export const webhookEventTopics = (prefix: string): string[] => [
  topicName(prefix, 'customer'),
  topicName(prefix, 'payments'),
];

const ENVIRONMENTS: Record<DeliveriesFromEventsOptions['environment'], Environment> = {
  sandbox: Environment.SANDBOX,
  production: Environment.PRODUCTION,
};

/**
 * Each business's registration, read once per consumer chunk: the consumer hands every event of a
 * chunk the same transaction's entity manager, and a burst is many events of few businesses (issue
 * 14). Keyed by that manager, so nothing outlives its chunk's transaction.
 */
const registrationsOfChunk = new WeakMap<EntityManager, Map<string, Promise<WebhookEndpoint | null>>>();

function registrationOf(em: EntityManager, businessId: string): Promise<WebhookEndpoint | null> {
  let registrations = registrationsOfChunk.get(em);
  if (!registrations) registrationsOfChunk.set(em, (registrations = new Map()));
  let registration = registrations.get(businessId);
  if (!registration) registrations.set(businessId, (registration = em.findOne(WebhookEndpoint, { businessId })));
  return registration;
}

/**
 * The consumer's handler (issue 5 item 2): an event becomes one delivery to the business's URL for
 * it, rendered now, due now, in the transaction that marks the event processed. The unique
 * (event, registration) constraint makes a second copy of the event a no-op as well.
 */
export function deliveriesFromEvents(options: DeliveriesFromEventsOptions): EventHandler {
  return async (event: Event, em) => {
    if (event.environment !== ENVIRONMENTS[options.environment]) {
      // Topics are per environment; an event of the other one here is a misconfiguration, not a webhook.
      options.logger.warn(
        { eventId: event.id, environment: event.environment },
        'event of another environment ignored',
      );
      return;
    }
    let rendered: RenderedEvent | undefined;
    try {
      rendered = renderEvent(event);
    } catch (error) {
      // Rendering is pure: what it refuses now it refuses on every redelivery, and throwing would hold
      // every later event of the partition. Skipped and logged, as an undecodable message is.
      options.logger.error(
        { err: error, eventId: event.id, eventType: event.type },
        'event cannot be rendered as a webhook; skipped',
      );
      return;
    }
    if (!rendered) return;
    const endpoint = await registrationOf(em, event.businessId);
    if (!endpoint) return; // a registration receives the events after it (decision 0010)
    const destination = destinationOf(rendered.eventType, endpoint);
    if (!destination) return; // seed 6.2: without kyc_url, recorded and not delivered
    const now = options.now();
    await new DeliveryRepository(em).insert({
      id: randomUUID(),
      businessId: event.businessId,
      endpointId: endpoint.id,
      eventId: event.id,
      eventType: rendered.eventType,
      destination,
      body: webhookBody(rendered.eventType, rendered.data),
      nextAttemptAt: nextAttemptAt(options.scheduleMs, 0, now) ?? now,
      // The consumer span's context, itself a child of the request's: every attempt continues it.
      traceContext: captureTraceContext(),
      eventOccurredAt: event.occurredAt ? timestampDate(event.occurredAt) : now,
      now,
    });
  };
}
