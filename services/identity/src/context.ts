import { recordEvent } from '@corridor/bus';
import { environmentFromName, newEvent, type NewEvent } from '@corridor/contracts/events';
import type { Clock } from '@corridor/runtime';
import type { EntityManager } from '@mikro-orm/core';

/** What every identity use case knows about where it runs. */
export interface IdentityContext {
  environment: 'sandbox' | 'production';
  /** Topic of identity's events (with the environment's prefix). */
  topic: string;
  now: Clock;
}

/**
 * Records one of identity's events in the unit of work of `tx` (outbox): keyed by business, so a
 * business's events keep their order on one partition.
 */
export function recordIdentityEvent(
  tx: EntityManager,
  context: IdentityContext,
  businessId: string,
  payload: NewEvent['payload'],
  occurredAt: Date = context.now(),
): void {
  recordEvent(tx, {
    topic: context.topic,
    key: businessId,
    event: newEvent({ businessId, environment: environmentFromName(context.environment), occurredAt, payload }),
  });
}
