import { register } from 'node:module';
import { register as registerInThread, supportsSyncHooks } from 'import-in-the-middle/register-hooks.mjs';
import { diag, DiagConsoleLogger, DiagLogLevel } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { RedisInstrumentation } from '@opentelemetry/instrumentation-redis';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, NoopSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { PROBE_PATHS } from './route.js';

export interface Telemetry {
  /** Flushes pending spans and stops the SDK; call on shutdown. */
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry for a service. Call it from the service's instrument.ts, which main.ts
 * imports before anything else: instrumentation patches modules only when they load after it.
 *
 * Kafka is traced by @corridor/bus itself (producer spans from the outbox row's stored context,
 * consumer spans from the message headers): a generic kafkajs instrumentation would parent the
 * publish on the relay's context and cut the request's trace in two.
 */
export interface TelemetryOptions {
  /**
   * Serve the service's OpenTelemetry metrics at http://0.0.0.0:<port>/metrics in Prometheus text;
   * 0 or absent: metrics are recorded nowhere.
   */
  metricsPort?: number;
  /**
   * The service makes its HTTP server spans itself (`traceHttpRequests` of `@corridor/telemetry/route`,
   * the gateway): the HTTP instrumentation then traces outgoing requests only.
   */
  tracesHttpRequestsItself?: boolean;
  /**
   * The service calls Redis only where no span is wanted (the gateway's guard and access cache, under
   * `withoutSpans`): the Redis instrumentation is then left out, as it would only wrap every command.
   */
  redisUntraced?: boolean;
}

/**
 * Lets the instrumentations see ESM imports (our code) of the CommonJS libraries they patch. The
 * loader hook intercepts those libraries alone (each instrumentation's module definitions): hooking
 * every module, OpenTelemetry's default, cost each process about 1.5 s of CPU at start, a module at
 * a time through the loader thread (bench/README.md). In the application thread where Node allows
 * it (module.registerHooks, Node >= 24.11.1), else through the loader thread.
 */
function hookImportsOf(instrumentations: readonly { getModuleDefinitions(): { name: string }[] }[]): void {
  const include = [
    ...new Set(
      instrumentations.flatMap((instrumentation) => instrumentation.getModuleDefinitions().map((m) => m.name)),
    ),
  ];
  if (supportsSyncHooks()) registerInThread({ include });
  else register('import-in-the-middle/hook.mjs', import.meta.url, { data: { include } });
}

export function startTelemetry(
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
  options: TelemetryOptions = {},
): Telemetry {
  // OpenTelemetry's switch for the whole SDK: nothing patched, no span made, no trace id in logs.
  // For measuring what tracing costs (pnpm bench's untraced whoami), not for production.
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return { shutdown: async () => {} };
  const instrumentations = [
    // Liveness and readiness probes come every few seconds from every kubelet: as traces they would
    // be most of what is exported, and say nothing a probe's own answer does not.
    new HttpInstrumentation(
      options.tracesHttpRequestsItself
        ? { disableIncomingRequestInstrumentation: true }
        : { ignoreIncomingRequestHook: (request) => PROBE_PATHS.has(request.url ?? '') },
    ),
    // No express instrumentation: it wraps every middleware and router layer of every request (about
    // ten), which cost more CPU than the gateway's own work (issue 14). The gateway names the HTTP
    // server span after its route table instead (recordHttpRoute), and that span times the whole.
    new GrpcInstrumentation(),
    new PgInstrumentation({ enhancedDatabaseReporting: false }),
    ...(options.redisUntraced ? [] : [new RedisInstrumentation()]),
  ];
  hookImportsOf(instrumentations);
  if (env.OTEL_DIAGNOSTIC_LOG_LEVEL) diag.setLogger(new DiagConsoleLogger(), DiagLogLevel.WARN);

  // Traces to OTLP, metrics to a Prometheus scrape endpoint, logs as JSON lines on stdout.
  env.OTEL_LOGS_EXPORTER ??= 'none';
  env.OTEL_METRICS_EXPORTER ??= 'none';
  // Spans are always made (trace ids in logs and gRPC metadata); they leave the process only
  // when a collector is configured.
  const spanProcessor: SpanProcessor = env.OTEL_EXPORTER_OTLP_ENDPOINT
    ? new BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        scheduledDelayMillis: Number(env.OTEL_BSP_SCHEDULE_DELAY ?? 1000),
      })
    : new NoopSpanProcessor();
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: serviceName,
      'deployment.environment.name': env.CORRIDOR_ENVIRONMENT ?? 'sandbox',
    }),
    spanProcessors: [spanProcessor],
    ...(options.metricsPort ? { metricReaders: [new PrometheusExporter({ port: options.metricsPort })] } : {}),
    instrumentations,
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
