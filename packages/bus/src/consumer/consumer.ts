import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Logger } from '@corridor/logging';
import type { EntityManager } from '@mikro-orm/core';
import type { Consumer, EachMessagePayload, Kafka } from 'kafkajs';
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
}

const tracer = trace.getTracer('@corridor/bus');

/**
 * At-least-once consumption with exactly-once effects on the consumer's database: the handler's
 * writes and the processed_event row commit together, and the offset is committed only after
 * that transaction has. A redelivered event finds its row and is skipped.
 */
export class EventConsumer {
  private readonly consumer: Consumer;

  constructor(private readonly options: EventConsumerOptions) {
    this.consumer = options.kafka.consumer({ groupId: options.groupId, allowAutoTopicCreation: false });
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: this.options.topics, fromBeginning: this.options.fromBeginning ?? true });
    await this.consumer.run({ autoCommit: false, eachMessage: (payload) => this.handle(payload) });
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }

  private async handle({ topic, partition, message }: EachMessagePayload): Promise<void> {
    const meta: EventMeta = { topic, partition, offset: message.offset };
    const parent = traceContextFromHeaders(message.headers);
    await tracer.startActiveSpan(
      `process ${topic}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.type': 'process',
          'messaging.destination.name': topic,
          'messaging.consumer.group.name': this.options.groupId,
          'messaging.kafka.offset': Number(message.offset),
        },
      },
      parent,
      async (span) => {
        try {
          await this.applyOnce(message.value, meta, span.setAttribute.bind(span));
          await this.consumer.commitOffsets([{ topic, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
        } catch (error) {
          span.recordException(error as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw error; // not committed: kafkajs retries, then the group redelivers
        } finally {
          span.end();
        }
      },
    );
  }

  private async applyOnce(
    value: Buffer | null,
    meta: EventMeta,
    annotate: (key: string, value: string) => unknown,
  ): Promise<void> {
    let event: Event;
    try {
      if (!value) throw new Error('empty message');
      event = decodeEvent(value);
    } catch (error) {
      // A message that can never be decoded would block its partition forever; record and move on.
      this.options.logger.error({ err: error, ...meta }, 'skipping undecodable message');
      return;
    }
    annotate('messaging.message.id', event.id);
    await this.options.em.fork().transactional(async (em) => {
      const inserted = await em
        .getConnection()
        .execute<{ event_id: string }[]>(
          `insert into processed_event (consumer, event_id) values (?, ?) on conflict do nothing returning event_id`,
          [this.options.groupId, event.id],
          'all',
          em.getTransactionContext(),
        );
      if (inserted.length === 0) {
        this.options.logger.debug({ eventId: event.id, ...meta }, 'duplicate event skipped');
        return;
      }
      await this.options.handler(event, em, meta);
    });
  }
}
