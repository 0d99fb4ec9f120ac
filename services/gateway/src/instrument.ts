import { startTelemetry } from '@corridor/telemetry';

// Loaded by main.ts before any other module, so instrumentation sees every library load.
// Its HTTP server spans are its own (traceHttpRequests in app.ts): issue 14.
export const telemetry = startTelemetry('gateway', process.env, { tracesHttpRequestsItself: true });
