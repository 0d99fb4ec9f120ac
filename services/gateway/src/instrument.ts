import { startTelemetry } from '@corridor/telemetry';

// Loaded by main.ts before any other module, so instrumentation sees every library load.
// Its HTTP server spans are its own (traceHttpRequests in app.ts): issue 14. Its Redis calls (the
// guard on every request, the access cache) make no spans (withoutSpans), so Redis is not instrumented.
export const telemetry = startTelemetry('gateway', process.env, {
  tracesHttpRequestsItself: true,
  redisUntraced: true,
});
