import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Logger } from '@corridor/logging';
import type { EntityManager } from '@mikro-orm/core';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import { decodeEvent, type Event } from '../events.js';
import { traceContextFromHeaders } from '../tracing.js';

export interface EventMeta {
  topic: string;
  partition: number;
  offset: string;
}

/** Runs inside the transaction that also records the event as processed. */
export type EventHandler = (event: Event, em: EntityManager, meta: EventMeta) => Promise<void>;

export interface EventConsumerOptions {
  kafka: Kafka;
  /** Consumer group; also the deduplication namespace in processed_event. */
  groupId: string;
  topics: string[];
  /** The consuming service's entity manager (its database has the processed_event table). */
  em: EntityManager;
  handler: EventHandler;
  logger: Logger;
  fromBeginning?: boolean;
  /** Called once the handler's transaction has committed (not for duplicates), e.g. to wake a worker. */
  onApplied?: (event: Event) => void;
}

const tracer = trace.getTracer('@corridor/bus');

/** Events per transaction: large enough to amortise the round trips, small enough to keep locks short. */
const CHUNK = 100;

/**
 * At-least-once consumption with exactly-once effects on the consumer's database: the handler's
 * writes and the processed_event rows commit together, and the offset is committed only after
 * that transaction has. A redelivered event finds its row and is skipped.
 */
export class EventConsumer {
  private readonly consumer: Consumer;

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

  /** The chunk's new events (not seen by this group before), handled; returns them once committed. */
  private async applyChunk(topic: string, partition: number, messages: KafkaMessage[]): Promise<Event[]> {
    const decoded: { event: Event; meta: EventMeta; message: KafkaMessage }[] = [];
    for (const message of messages) {
      const meta: EventMeta = { topic, partition, offset: message.offset };
      try {
        if (!message.value) throw new Error('empty message');
        decoded.push({ event: decodeEvent(message.value), meta, message });
      } catch (error) {
        // A message that can never be decoded would block its partition forever; record and move on.
        this.options.logger.error({ err: error, ...meta }, 'skipping undecodable message');
      }
    }
    if (decoded.length === 0) return [];
    return this.options.em.fork().transactional(async (em) => {
      const inserted = await em.getConnection().execute<{ event_id: string }[]>(
        `insert into processed_event (consumer, event_id)
           select ?, id from unnest(?::uuid[]) as id
           on conflict do nothing returning event_id`,
        // An array literal: the driver would spread a JS array into a list. Event ids are UUIDs.
        [this.options.groupId, `{${decoded.map(({ event }) => event.id).join(',')}}`],
        'all',
        em.getTransactionContext(),
      );
      const fresh = new Set(inserted.map((row: { event_id: string }) => row.event_id));
      const applied: Event[] = [];
      for (const { event, meta, message } of decoded) {
        if (!fresh.delete(event.id)) {
          this.options.logger.debug({ eventId: event.id, ...meta }, 'duplicate event skipped');
          continue;
        }
        await this.handleInSpan(event, meta, message, () => this.options.handler(event, em, meta));
        applied.push(event);
      }
      return applied;
    });
  }

  /** The handler in a consumer span that continues the producer's trace (from the message headers). */
  private handleInSpan(event: Event, meta: EventMeta, message: KafkaMessage, work: () => Promise<void>): Promise<void> {
    return tracer.startActiveSpan(
      `process ${meta.topic}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.type': 'process',
          'messaging.destination.name': meta.topic,
          'messaging.consumer.group.name': this.options.groupId,
          'messaging.kafka.offset': Number(meta.offset),
          'messaging.message.id': event.id,
        },
      },
      traceContextFromHeaders(message.headers),
      async (span) => {
        try {
          await work();
        } catch (error) {
          span.recordException(error as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw error;
        } finally {
          span.end();
        }
      },
    );
  }
}
