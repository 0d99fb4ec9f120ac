import { DeadLetterService } from '@corridor/contracts/corridor/bus/v1/dead_letter_service_pb';
import { registration, type ServiceRegistration } from '@corridor/grpc';
import type { EventConsumerOptions } from '../consumer/consumer.js';
import { getDeadLetter, listDeadLetters } from './read.js';
import { retryDeadLetter } from './retry.js';

/** The consumer's own options: a retry applies an event with the same group, handler and wake-up. */
export type DeadLetterServiceOptions = Pick<
  EventConsumerOptions,
  'em' | 'groupId' | 'handler' | 'logger' | 'onApplied' | 'now'
>;

/**
 * corridor.bus.v1.DeadLetterService over the consuming service's dead_letter table, for its gRPC
 * server (decision 0023). Hand it the options the service's EventConsumer was made with.
 */
export function deadLetterServiceRegistration(options: DeadLetterServiceOptions): ServiceRegistration {
  const { em } = options;
  return registration(DeadLetterService, {
    listDeadLetters: (request) => listDeadLetters(em.fork(), request),
    getDeadLetter: async (request) => ({ deadLetter: await getDeadLetter(em.fork(), request.deadLetterId) }),
    retryDeadLetter: (request) => retryDeadLetter(em, options, request.deadLetterId),
  });
}
