import { context, propagation, type Context, type TextMapGetter } from '@opentelemetry/api';
import type { IHeaders } from 'kafkajs';

/** The W3C trace context (traceparent, tracestate) of the active context, as plain strings. */
export function captureTraceContext(from: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(from, carrier);
  return carrier;
}

const kafkaHeaderGetter: TextMapGetter<IHeaders> = {
  keys: (carrier) => Object.keys(carrier),
  get(carrier, key) {
    const value = carrier[key];
    if (value === undefined) return undefined;
    const one = Array.isArray(value) ? value[0] : value;
    return one === undefined ? undefined : one.toString();
  },
};

/** The trace context carried in a Kafka message's headers (the root context when there is none). */
export function traceContextFromHeaders(headers: IHeaders | undefined): Context {
  return propagation.extract(context.active(), headers ?? {}, kafkaHeaderGetter);
}

/** The trace context stored with an outbox row. */
export function traceContextFromCarrier(carrier: Record<string, string>): Context {
  return propagation.extract(context.active(), carrier);
}
