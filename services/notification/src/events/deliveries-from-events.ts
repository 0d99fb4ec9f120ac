import { captureTraceContext, type EventHandler } from '@corridor/bus';
import { Environment, topicName, type Event } from '@corridor/contracts/events';
import type { Logger } from '@corridor/logging';
import type { Clock } from '@corridor/runtime';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { EntityManager, EventManager, EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { DeliveryRepository, type EventDelivery } from '../deliveries/delivery-repository.js';
import { nextAttemptAt } from '../deliveries/schedule.js';
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

/** A registration's URLs as far as where an event goes depends on them: whether it has a kyc_url. */
const WITH_KYC = { collectionUrl: '', payoutUrl: '', kycUrl: 'kyc_url' };
const WITHOUT_KYC = { collectionUrl: '', payoutUrl: '', kycUrl: null };

const ENVIRONMENTS: Record<DeliveriesFromEventsOptions['environment'], Environment> = {
  sandbox: Environment.SANDBOX,
  production: Environment.PRODUCTION,
};

/**
 * The deliveries a transaction's events made, written by one statement as it commits (issue 35,
 * decision 0041): a consumer chunk of 100 events is one insert that also reads the registrations,
 * not 100 inserts and a read per business. Keyed by the transaction's entity manager, so nothing
 * outlives it; a rollback drops them with everything else it wrote.
 */
const deliveriesOfTransaction = new WeakMap<EntityManager, EventDelivery[]>();

/** Writes a transaction's deliveries just before it commits; a failure fails the commit (rolled back). */
const writeDeliveriesAtCommit: EventSubscriber = {
  async beforeTransactionCommit({ em }: TransactionEventArgs): Promise<void> {
    const deliveries = deliveriesOfTransaction.get(em);
    if (!deliveries) return;
    deliveriesOfTransaction.delete(em);
    await new DeliveryRepository(em).insertForRegistrations(deliveries);
  },
  afterTransactionRollback({ em }: TransactionEventArgs): void {
    deliveriesOfTransaction.delete(em);
  },
};
const subscribed = new WeakSet<EventManager>();

/** The delivery goes with its transaction's others at commit; without a transaction, now. */
async function addDelivery(em: EntityManager, delivery: EventDelivery): Promise<void> {
  if (!em.isInTransaction()) {
    await new DeliveryRepository(em).insertForRegistrations([delivery]);
    return;
  }
  const events = em.getEventManager();
  if (!subscribed.has(events)) {
    events.registerSubscriber(writeDeliveriesAtCommit);
    subscribed.add(events);
  }
  let deliveries = deliveriesOfTransaction.get(em);
  if (!deliveries) deliveriesOfTransaction.set(em, (deliveries = []));
  deliveries.push(delivery);
}

/**
 * The consumer's handler (issue 5 item 2): an event becomes one delivery to the business's URL for
 * it, rendered now, due now, in the transaction that marks the event processed (written as it
 * commits, with the rest of its chunk's). The unique
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
    const now = options.now();
    await addDelivery(em, {
      id: randomUUID(),
      businessId: event.businessId,
      eventId: event.id,
      eventType: rendered.eventType,
      // The registration is read as the delivery is written: none, no delivery (decision 0010: a
      // registration receives the events after it); without kyc_url, maybe none (seed 6.2).
      destinationWithKyc: destinationOf(rendered.eventType, WITH_KYC),
      destinationWithoutKyc: destinationOf(rendered.eventType, WITHOUT_KYC),
      body: webhookBody(rendered.eventType, rendered.data),
      nextAttemptAt: nextAttemptAt(options.scheduleMs, 0, now) ?? now,
      // The consumer span's context, itself a child of the request's: every attempt continues it.
      traceContext: captureTraceContext(),
      eventOccurredAt: event.occurredAt ? timestampDate(event.occurredAt) : now,
      now,
    });
  };
}
