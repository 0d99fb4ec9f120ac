export { captureTraceContext, traceContextFromCarrier, traceContextFromHeaders } from './tracing.js';
export { createKafka, createIdempotentProducer } from './producer.js';
export type { Kafka, Producer } from 'kafkajs';
export { OutboxMessage, recordEvent, type RecordEvent } from './outbox/record.js';
export { OutboxRelay, type OutboxRelayOptions } from './outbox/relay.js';
export { outboxSchemaSql, processedEventSchemaSql, OUTBOX_CHANNEL } from './outbox/schema.js';
export {
  EventConsumer,
  type ConsumerSettings,
  type EventConsumerOptions,
  type EventHandler,
  type EventMeta,
} from './consumer/consumer.js';
export { decodeMessage, type DecodedMessage } from './consumer/decode-message.js';
export { deadLetterSchemaDownSql, deadLetterSchemaSql } from './dead-letters/schema.js';
export { getDeadLetter, listDeadLetters, type DeadLetterListRequest } from './dead-letters/read.js';
export { retryDeadLetter, type DeadLetterRetry, type RetriedDeadLetter } from './dead-letters/retry.js';
export { DEAD_LETTER_RETENTION_MS, pruneResolvedDeadLetters, type PruneDeadLetters } from './dead-letters/retention.js';
export { deadLetterServiceRegistration, type DeadLetterServiceOptions } from './dead-letters/service.js';
export {
  DEFAULT_OUTBOX_RETENTION_MS,
  DEFAULT_PROCESSED_EVENT_RETENTION_MS,
  highChurnAutovacuumSql,
  outboxRetentionDownSql,
  outboxRetentionSql,
  processedEventRetentionDownSql,
  processedEventRetentionSql,
  pruneProcessedEvents,
  resetAutovacuumSql,
  RETENTION_BATCH,
  RETENTION_SWEEP_INTERVAL_MS,
  type PruneProcessedEvents,
} from './retention.js';
export { ensureTopics, type EnsureTopicsOptions, type TopicOutcome, type TopicSpec } from './topics/ensure-topics.js';
export { parseTopicArgument, runTopicsCommand, type TopicsCommandConfig } from './topics/topics-command.js';
