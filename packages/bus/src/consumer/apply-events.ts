import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Logger } from '@corridor/logging';
import type { EntityManager } from '@mikro-orm/core';
import type { IHeaders } from 'kafkajs';
import type { Event } from '@corridor/contracts/events';
import { traceContextFromHeaders } from '../tracing.js';

export interface EventMeta {
  topic: string;
  partition: number;
  offset: string;
}

/** Runs inside the transaction that also records the event as processed. */
export type EventHandler = (event: Event, em: EntityManager, meta: EventMeta) => Promise<void>;

/** An event read from a message, with where it was and the headers that carry its trace. */
export interface ReceivedEvent {
  event: Event;
  meta: EventMeta;
  headers: IHeaders | undefined;
}

export interface EventApplication {
  /** The consumer group: the namespace of processed_event. */
  groupId: string;
  handler: EventHandler;
  logger: Logger;
}

const tracer = trace.getTracer('@corridor/bus');

/**
 * Applies events in the caller's transaction as the consumer does (decision 0003), for the consumer
 * and for a dead letter's retry alike: one statement marks them processed for the group, then the
 * handler runs for each one that was new, in order. Returns those it ran for.
 */
export async function applyEvents(
  em: EntityManager,
  { groupId, handler, logger }: EventApplication,
  received: readonly ReceivedEvent[],
): Promise<Event[]> {
  if (received.length === 0) return [];
  const inserted = await em.getConnection().execute<{ event_id: string }[]>(
    `insert into processed_event (consumer, event_id)
       select ?, id from unnest(?::uuid[]) as id
       on conflict do nothing returning event_id`,
    // An array literal: the driver would spread a JS array into a list. Event ids are UUIDs (decodeMessage).
    [groupId, `{${received.map(({ event }) => event.id).join(',')}}`],
    'all',
    em.getTransactionContext(),
  );
  // PostgreSQL answers a uuid in lower case, whatever case the producer wrote it in.
  const fresh = new Set(inserted.map((row: { event_id: string }) => row.event_id));
  const applied: Event[] = [];
  for (const { event, meta, headers } of received) {
    if (!fresh.delete(event.id.toLowerCase())) {
      logger.debug({ eventId: event.id, ...meta }, 'duplicate event skipped');
      continue;
    }
    await handleInSpan(groupId, event, meta, headers, () => handler(event, em, meta));
    applied.push(event);
  }
  return applied;
}

/** The handler in a consumer span that continues the producer's trace (from the message headers). */
function handleInSpan(
  groupId: string,
  event: Event,
  meta: EventMeta,
  headers: IHeaders | undefined,
  work: () => Promise<void>,
): Promise<void> {
  return tracer.startActiveSpan(
    `process ${meta.topic}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'kafka',
        'messaging.operation.type': 'process',
        'messaging.destination.name': meta.topic,
        'messaging.consumer.group.name': groupId,
        'messaging.kafka.offset': Number(meta.offset),
        'messaging.message.id': event.id,
      },
    },
    traceContextFromHeaders(headers),
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
