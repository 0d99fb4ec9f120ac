import { defineEntity, p, type EntityManager } from '@mikro-orm/core';
import { encodeEvent, type Event } from '@corridor/contracts/events';
import { captureTraceContext } from '../tracing.js';

/** One row of the outbox table (schema in ./schema.ts). */
export const OutboxMessage = defineEntity({
  name: 'OutboxMessage',
  tableName: 'outbox',
  properties: {
    id: p.bigint().primary().autoincrement(),
    eventId: p.uuid().unique(),
    topic: p.text(),
    messageKey: p.text(),
    payload: p.blob(),
    traceContext: p.json<Record<string, string>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    publishedAt: p.datetime().nullable(),
  },
});

export interface RecordEvent {
  topic: string;
  /** Kafka key: the aggregate id, so one aggregate's events keep their order. */
  key: string;
  event: Event;
}

/**
 * Adds the event to the unit of work of `em`; it is written by the same flush, in the same
 * transaction, as the state change it describes. The active trace context goes with it so the
 * relay's publish and every consumer continue the request's trace.
 */
export function recordEvent(em: EntityManager, { topic, key, event }: RecordEvent): void {
  em.persist(
    em.create(OutboxMessage, {
      eventId: event.id,
      topic,
      messageKey: key,
      payload: Buffer.from(encodeEvent(event)),
      traceContext: captureTraceContext(),
      publishedAt: null,
    }),
  );
}
