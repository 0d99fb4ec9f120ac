import { captureTraceContext, type EventHandler } from '@corridor/bus';
import { Environment, topicName, type Event } from '@corridor/contracts/events';
import type { Logger } from '@corridor/logging';
import type { Clock } from '@corridor/runtime';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { EntityManager, EventManager, EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { DeliveryRepository, type EventDelivery } from '../deliveries/delivery-repository.js';
import { nextAttemptAt } from '../deliveries/schedule.js';
import { EventHistoryRepository } from '../history/event-history-repository.js';
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
 * The events a transaction applied, as their deliveries, written as it commits (issue 35, decision
 * 0041): a consumer chunk of 100 events is one insert into the history and one of deliveries that
 * also reads the registrations, not 100 inserts and a read per business. Keyed by the transaction's
 * entity manager, so nothing outlives it; a rollback drops them with everything else it wrote.
 */
const eventsOfTransaction = new WeakMap<EntityManager, EventDelivery[]>();

/**
 * Every event into the history, numbered in its business's sequence (decisions 0066, 0067), then its
 * delivery to the registration if there is one, which carries that number: an event is in the
 * history exactly when its transaction commits.
 */
async function recordEvents(em: EntityManager, events: readonly EventDelivery[]): Promise<void> {
  await new EventHistoryRepository(em).record(
    events.map((event) => ({
      id: event.eventId,
      businessId: event.businessId,
      eventType: event.eventType,
      body: event.body,
      occurredAt: event.eventOccurredAt,
      createdAt: event.now,
    })),
  );
  await new DeliveryRepository(em).insertForRegistrations(events);
}

/** Writes a transaction's events just before it commits; a failure fails the commit (rolled back). */
const recordEventsAtCommit: EventSubscriber = {
  async beforeTransactionCommit({ em }: TransactionEventArgs): Promise<void> {
    const events = eventsOfTransaction.get(em);
    if (!events) return;
    eventsOfTransaction.delete(em);
    await recordEvents(em, events);
  },
  afterTransactionRollback({ em }: TransactionEventArgs): void {
    eventsOfTransaction.delete(em);
  },
};
const subscribed = new WeakSet<EventManager>();

/** The event goes with its transaction's others at commit; without a transaction, in one of its own now. */
async function addEvent(em: EntityManager, event: EventDelivery): Promise<void> {
  if (!em.isInTransaction()) {
    await em.transactional((tx) => recordEvents(tx, [event]));
    return;
  }
  const manager = em.getEventManager();
  if (!subscribed.has(manager)) {
    manager.registerSubscriber(recordEventsAtCommit);
    subscribed.add(manager);
  }
  let events = eventsOfTransaction.get(em);
  if (!events) eventsOfTransaction.set(em, (events = []));
  events.push(event);
}

/**
 * The consumer's handler (issue 5 item 2): an event becomes an event of the business's history and
 * one delivery to the business's URL for it, rendered now, due now, in the transaction that marks
 * the event processed (written as it commits, with the rest of its chunk's). The unique
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
    await addEvent(em, {
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
