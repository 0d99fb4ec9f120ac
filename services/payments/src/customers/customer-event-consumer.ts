import { type ConsumerSettings, type EventConsumerOptions } from '@corridor/bus';
import { topicName } from '@corridor/contracts/events';
import type { MikroORM } from '@corridor/db';
import { customerProjection } from './customer-projection.js';

export interface CustomerEventConsumerOptions extends ConsumerSettings {
  orm: MikroORM;
}

/**
 * How payments applies customer-kyb's events to customer_projection: its consumer and the retry of
 * its dead letters (decision 0023) are made from these same options, so a retry does what the
 * consumer does.
 */
export function customerEventConsumer(options: CustomerEventConsumerOptions): EventConsumerOptions {
  const { kafka, orm, groupId, topicPrefix, now, logger } = options;
  return {
    kafka,
    groupId,
    topics: [topicName(topicPrefix, 'customer')],
    em: orm.em,
    handler: customerProjection({ logger }),
    logger,
    now,
  };
}
