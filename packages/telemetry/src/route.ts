import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  context,
  createContextKey,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
} from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';

/** What Kubernetes probes (helm/charts/lib), never traced: they come every few seconds and say nothing. */
export const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** The route template of the request being served, filled in by recordHttpRoute once a route matched. */
interface ServedRequest {
  route?: string;
}
const SERVED = createContextKey('corridor.http.served_request');

let cachedTracer: ReturnType<typeof trace.getTracer> | undefined;
// Asked at the first request, after the service's instrument.ts has registered the SDK.
const tracer = () => (cachedTracer ??= trace.getTracer('@corridor/telemetry'));

/**
 * The HTTP server span of each request, made by the application (the gateway) instead of
 * OpenTelemetry's HTTP instrumentation, which cost whoami a sixth of its CPU even with no span
 * sampled (issue 14, bench/README.md): it wraps the server's every emit and response and computes
 * two generations of semantic-convention attributes. This one continues the caller's trace
 * (W3C traceparent), makes the span active for everything the request does (gRPC client spans,
 * trace ids in logs), and names it `METHOD /route/{template}` when it ends. Probes are not traced.
 * Connect-style, so express mounts it first: `app.use(traceHttpRequests)`.
 */
export function traceHttpRequests(request: IncomingMessage, response: ServerResponse, next: () => void): void {
  const path = pathOf(request.url ?? '/');
  if (PROBE_PATHS.has(path)) {
    next();
    return;
  }
  const method = request.method ?? 'GET';
  const parent = propagation.extract(ROOT_CONTEXT, request.headers);
  const span = tracer().startSpan(
    method,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': method,
        'url.path': path,
        'url.scheme': 'http',
        'client.address': request.socket.remoteAddress ?? '',
        'user_agent.original': request.headers['user-agent'] ?? '',
      },
    },
    parent,
  );
  const served: ServedRequest = {};
  const active: Context = trace.setSpan(parent, span).setValue(SERVED, served);
  // 'close' comes last on every response, answered or abandoned: one listener ends the span.
  response.once('close', () => {
    if (served.route !== undefined) {
      span.updateName(`${method} ${served.route}`);
      span.setAttribute('http.route', served.route);
    }
    span.setAttribute('http.response.status_code', response.statusCode);
    // A client that went away before the answer was complete: the span says so, as an error.
    if (response.statusCode >= 500 || !response.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  context.with(active, next);
}

const pathOf = (url: string) => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/**
 * Names the HTTP request being served after its route template (`/customer/{id}`): its server
 * span is then called `GET /customer/{id}` and carries `http.route`. Outside a traced request,
 * nothing.
 */
export function recordHttpRoute(route: string): void {
  const served = context.active().getValue(SERVED) as ServedRequest | undefined;
  if (served) served.route = route;
}

/**
 * Runs `work` with no span made for what it calls: for a step of every request whose time is in
 * the request's own span and whose failure is in its answer and log (the gateway's Redis guard, a
 * span of its own per request cost more than the check, issue 14). Trace ids stay in logs.
 */
export function withoutSpans<T>(work: () => T): T {
  return context.with(suppressTracing(context.active()), work);
}
