import { Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';
import type { Logger } from '@corridor/logging';

export function createKafka(clientId: string, brokers: string[], logger: Logger): Kafka {
  return new Kafka({
    clientId,
    brokers,
    // kafkajs' own logs go through the service's JSON logger.
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log }) => {
        const { message, ...extra } = log;
        if (level <= logLevel.ERROR) logger.error({ kafka: extra }, message);
        else logger.warn({ kafka: extra }, message);
      },
  });
}

/** Idempotent producer: broker-side deduplication of retries, acks from all in-sync replicas. */
export function createIdempotentProducer(kafka: Kafka): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    // The Java client's murmur2 partitioning: a key lands on the same partition whatever the client.
    createPartitioner: Partitioners.DefaultPartitioner,
  });
}
