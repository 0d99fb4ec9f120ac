import { metrics, type Counter } from '@opentelemetry/api';
import type { Logger } from '@corridor/logging';
import type { EntityManager } from '@mikro-orm/core';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import { recordDeadLetters, type RecordedDeadLetter, type UndecodableMessage } from '../dead-letters/record.js';
import type { Event } from '@corridor/contracts/events';
import { applyEvents, type EventHandler, type EventMeta, type ReceivedEvent } from './apply-events.js';
import { decodeMessage } from './decode-message.js';

export type { EventHandler, EventMeta } from './apply-events.js';

/** What a service's bootstrap hands each event consumer it builds (its consumer-options module). */
export interface ConsumerSettings {
  kafka: Kafka;
  groupId: string;
  /** Prepended to the topics' names (KAFKA_TOPIC_PREFIX). */
  topicPrefix: string;
  now: () => Date;
  logger: Logger;
}

export interface EventConsumerOptions {
  kafka: Kafka;
  /** Consumer group; also the deduplication namespace in processed_event and dead_letter. */
  groupId: string;
  topics: string[];
  /** The consuming service's entity manager (its database has the processed_event and dead_letter tables). */
  em: EntityManager;
  handler: EventHandler;
  logger: Logger;
  fromBeginning?: boolean;
  /** Called once the handler's transaction has committed (not for duplicates), e.g. to wake a worker. */
  onApplied?: (event: Event) => void;
  /** The service's clock: a dead letter's received_at. The system's when absent. */
  now?: () => Date;
}

/** Events per transaction: large enough to amortise the round trips, small enough to keep locks short. */
const CHUNK = 100;

/**
 * At-least-once consumption with exactly-once effects on the consumer's database: the handler's
 * writes and the processed_event rows commit together, and the offset is committed only after
 * that transaction has. A redelivered event finds its row and is skipped. A message that is not an
 * event is kept as a dead letter in that same transaction (decision 0023), so a committed offset
 * never passes a message that was not either applied or recorded.
 */
export class EventConsumer {
  private readonly consumer: Consumer;
  /** Made here rather than at import, so it reaches whichever meter provider is registered by then. */
  private readonly deadLetters: Counter;

  constructor(private readonly options: EventConsumerOptions) {
    this.consumer = options.kafka.consumer({
      groupId: options.groupId,
      allowAutoTopicCreation: false,
      // A member that died (SIGKILL) holds its partitions until its session lapses: 10 s rather than
      // kafkajs's 30 s, so a restarted process resumes sooner. A chunk takes well under a second.
      sessionTimeout: 10_000,
      // A stop waits for the fetch under way, which an idle topic holds open this long (kafkajs: 5 s).
      // Events still arrive at once: a fetch answers as soon as there is one.
      maxWaitTimeInMs: 1_000,
    });
    this.deadLetters = metrics.getMeter('@corridor/bus').createCounter('corridor_consumer_dead_letters', {
      description: 'Messages a consumer could not decode, recorded as dead letters, by consumer group and topic',
    });
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: this.options.topics, fromBeginning: this.options.fromBeginning ?? true });
    await this.consumer.run({
      autoCommit: false,
      // Partitions are independent (ordering is per key, hence per partition): work on them side by side.
      partitionsConsumedConcurrently: 3,
      eachBatch: (payload) => this.handleBatch(payload),
    });
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }

  /**
   * A batch in chunks, each chunk in one transaction (one round trip marks all its events processed),
   * each event handled in order inside it; the offset after a chunk is committed once it has. A failure
   * rolls its chunk back and leaves its offset uncommitted: kafkajs retries, then the group redelivers.
   */
  private async handleBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    const { topic, partition } = batch;
    for (let start = 0; start < batch.messages.length; start += CHUNK) {
      if (!isRunning() || isStale()) return;
      const chunk = batch.messages.slice(start, start + CHUNK);
      const applied = await this.applyChunk(topic, partition, chunk);
      const last = chunk.at(-1)?.offset;
      if (last === undefined) return;
      await this.consumer.commitOffsets([{ topic, partition, offset: (BigInt(last) + 1n).toString() }]);
      resolveOffset(last);
      for (const event of applied) this.options.onApplied?.(event);
      await heartbeat();
    }
  }

  /**
   * The chunk's new events (not seen by this group before), handled, and its undecodable messages
   * recorded as dead letters, in one transaction; returns the events handled once it has committed.
   */
  private async applyChunk(topic: string, partition: number, messages: KafkaMessage[]): Promise<Event[]> {
    const received: ReceivedEvent[] = [];
    const undecodable: UndecodableMessage[] = [];
    for (const message of messages) {
      const meta: EventMeta = { topic, partition, offset: message.offset };
      const decoded = decodeMessage(message.value);
      if (decoded.ok) {
        received.push({ event: decoded.event, meta, headers: message.headers });
      } else {
        // It would fail the same way on every redelivery and block its partition: kept, and passed.
        undecodable.push({
          ...meta,
          key: message.key,
          value: message.value,
          headers: message.headers,
          error: decoded.error,
        });
      }
    }
    if (received.length === 0 && undecodable.length === 0) return [];
    const receivedAt = this.options.now?.() ?? new Date();
    const { applied, deadLetters } = await this.options.em.fork().transactional(async (em) => ({
      deadLetters: await recordDeadLetters(em, this.options.groupId, undecodable, receivedAt),
      applied: await applyEvents(em, this.options, received),
    }));
    this.report(deadLetters);
    return applied;
  }

  /** Once committed: each new dead letter logged and counted; a redelivered one only noted. */
  private report(deadLetters: readonly RecordedDeadLetter[]): void {
    for (const { message, id } of deadLetters) {
      const fields = {
        topic: message.topic,
        partition: message.partition,
        offset: message.offset,
        error: message.error,
      };
      if (id === undefined) {
        this.options.logger.warn(fields, 'undecodable message redelivered: its dead letter was recorded before');
        continue;
      }
      this.options.logger.error({ ...fields, deadLetterId: id }, 'undecodable message recorded as a dead letter');
      this.deadLetters.add(1, { consumer: this.options.groupId, topic: message.topic });
    }
  }
}
