import { startTelemetry } from '@corridor/telemetry';

// Loaded by main.ts before any other module, so instrumentation sees every library load.
export const telemetry = startTelemetry('dashboard', process.env, { tracesHttpRequestsItself: true });
