import type { ConsumerSettings, EventConsumerOptions } from '@corridor/bus';
import type { MikroORM } from '@corridor/db';
import {
  deliveriesFromEvents,
  webhookEventTopics,
  type DeliveriesFromEventsOptions,
} from './deliveries-from-events.js';

export interface WebhookEventConsumerOptions
  extends ConsumerSettings, Pick<DeliveriesFromEventsOptions, 'environment' | 'scheduleMs'> {
  orm: MikroORM;
  /** Wakes the delivery worker once an event's deliveries are committed. */
  wakeWorker: () => void;
}

/**
 * How notification applies events: its consumer of every webhook topic and the retry of its dead
 * letters (decision 0023) are made from these same options, so a retry does what the consumer does.
 */
export function webhookEventConsumer(options: WebhookEventConsumerOptions): EventConsumerOptions {
  const { kafka, orm, groupId, topicPrefix, environment, scheduleMs, now, logger, wakeWorker } = options;
  return {
    kafka,
    groupId,
    topics: webhookEventTopics(topicPrefix),
    em: orm.em,
    handler: deliveriesFromEvents({ environment, scheduleMs, now, logger }),
    onApplied: () => wakeWorker(),
    logger,
    now,
  };
}
