import { trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export interface LoggerOptions {
  level?: string;
  /** Where lines go; standard output when absent. */
  destination?: DestinationStream;
}

/**
 * JSON-lines logger. Every line written inside a traced operation carries trace_id and span_id,
 * so a log line leads to its trace and back.
 */
export function createLogger(service: string, options: LoggerOptions = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? 'info',
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const span = trace.getActiveSpan();
        if (!span) return {};
        const { traceId, spanId } = span.spanContext();
        return { trace_id: traceId, span_id: spanId };
      },
    },
    options.destination ?? pino.destination(1),
  );
}
