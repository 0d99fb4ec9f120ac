import type { BusinessClock } from '@corridor/sandbox-clock';
import type { EntityManager } from '@mikro-orm/core';
import type { DeliveryRuntime } from './attempt-delivery.js';

/** The retry ladder in each business's time (decision 0069): when a retry is set, and which are due. */
export function deliveryClock(
  clock: BusinessClock,
  em: () => EntityManager,
): Pick<DeliveryRuntime, 'businessNow' | 'due'> {
  return {
    businessNow: (businessId) => clock.now(em(), businessId),
    due: () => clock.due('d', 'next_attempt_at'),
  };
}
