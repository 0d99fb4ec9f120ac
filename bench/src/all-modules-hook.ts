import { register } from 'node:module';

// bench/src/service-start.ts's comparison: OpenTelemetry's default ESM hook, which intercepts every
// module a process imports (preloaded with --import, before the service's own narrower hook).
// Resolved from @corridor/telemetry, whose dependency it is.
register('@opentelemetry/instrumentation/hook.mjs', new URL('../../packages/telemetry/dist/index.js', import.meta.url));
