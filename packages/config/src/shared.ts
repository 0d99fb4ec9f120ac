import { z } from 'zod';
import { env } from './variables.js';

/**
 * The variables several services read, defined once (decision 0022): a service's config shape
 * spreads the groups it needs and adds its own. helm/values-schema/base.json describes the same
 * groups for the charts, and test/house/config-values.spec.ts holds each chart to its service's shape.
 */

/** Every service: the environment it serves and how much it logs. */
export const baseConfigShape = {
  CORRIDOR_ENVIRONMENT: env.environment(),
  LOG_LEVEL: env.logLevel(),
};

/** A service with its own PostgreSQL database; the default is `database` on the local server. */
export const databaseConfigShape = (database: string) => ({
  DATABASE_URL: z.url().default(`postgres://corridor:corridor@127.0.0.1:5432/${database}`),
});

/** A service that publishes or consumes events. */
export const kafkaConfigShape = {
  KAFKA_BROKERS: env.brokers('127.0.0.1:9092'),
  KAFKA_TOPIC_PREFIX: env.topicPrefix(),
};

/**
 * A service that publishes through the transactional outbox (decision 0003). The retention's default
 * is @corridor/bus's DEFAULT_OUTBOX_RETENTION_MS, passed in: the relay falls back to it too, and this
 * package depends on nothing of ours.
 */
export const outboxConfigShape = (defaultRetentionMs: number) => ({
  OUTBOX_RELAY_ENABLED: env.boolean(true),
  OUTBOX_POLL_INTERVAL_MS: env.positiveInt(1_000),
  /** Published outbox rows are deleted after this (decision 0017); Kafka holds the history. */
  OUTBOX_RETENTION_MS: env.positiveInt(defaultRetentionMs),
});

/** A service that consumes events; the retention's default is @corridor/bus's DEFAULT_PROCESSED_EVENT_RETENTION_MS. */
export const eventConsumerConfigShape = (defaultRetentionMs: number) => ({
  /**
   * The consumer group (and the deduplication namespace of processed_event); unset, the service
   * takes `<KAFKA_TOPIC_PREFIX><service>`, so environments sharing a cluster never share a group.
   */
  KAFKA_GROUP_ID: z.string().min(1).optional(),
  /**
   * processed_event rows are deleted after this (decision 0017). Keep it longer than the consumed
   * topics can hold an event, or a group that re-reads them would apply old events again.
   */
  PROCESSED_EVENT_RETENTION_MS: env.positiveInt(defaultRetentionMs),
});

/** A service that calls others over gRPC. */
export const grpcClientConfigShape = {
  /** Deadline of every gRPC call the service makes. */
  GRPC_TIMEOUT_MS: env.positiveInt(5_000),
};
