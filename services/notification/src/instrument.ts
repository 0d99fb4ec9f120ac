import { startTelemetry } from '@corridor/telemetry';

// Loaded by main.ts before any other module, so instrumentation sees every library load. The
// metrics port is read here, ahead of the config schema, which still refuses a bad value at start.
export const telemetry = startTelemetry('notification', process.env, {
  metricsPort: Number(process.env.METRICS_PORT ?? 9464) || 0,
});
