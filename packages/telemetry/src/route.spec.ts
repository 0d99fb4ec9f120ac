import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { recordHttpRoute, traceHttpRequests, withoutSpans } from './route.js';

/** The gateway's own HTTP server spans (issue 14), on a bare node:http server with an SDK in memory. */
describe('traceHttpRequests: one server span per request, in the caller’s trace', () => {
  const exporter = new InMemorySpanExporter();
  let server: Server;
  let url: string;

  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
    server = createServer((request, response) =>
      traceHttpRequests(request, response, () => {
        // What a handler does inside the request: its spans and logs see the request's span.
        const inner = trace.getTracer('test').startSpan('inner');
        inner.end();
        withoutSpans(() => trace.getTracer('test').startSpan('suppressed').end());
        if (request.url?.startsWith('/things/')) recordHttpRoute('/things/{id}');
        response.statusCode = request.url === '/fails' ? 503 : 200;
        setImmediate(() => response.end('{}'));
      }),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.close();
    await once(server, 'close');
  });
  beforeEach(() => exporter.reset());

  /** The finished spans once the server span has ended (it ends on the response's close). */
  async function spansOf(path: string, headers: Record<string, string> = {}) {
    const response = await fetch(`${url}${path}`, { headers });
    await response.text();
    for (let tries = 0; tries < 50 && !exporter.getFinishedSpans().some((s) => s.kind === SpanKind.SERVER); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return exporter.getFinishedSpans();
  }

  it('continues the traceparent it is sent, names the span after the route, and parents what the request does', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const spans = await spansOf('/things/42?expand=all', { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    const server = spans.find((s) => s.kind === SpanKind.SERVER);
    expect(server).toMatchObject({
      name: 'GET /things/{id}',
      attributes: {
        'http.request.method': 'GET',
        'url.path': '/things/42',
        'http.route': '/things/{id}',
        'http.response.status_code': 200,
      },
      status: { code: SpanStatusCode.UNSET },
    });
    expect(server?.spanContext().traceId).toBe(traceId);
    expect(server?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    const inner = spans.find((s) => s.name === 'inner');
    expect(inner?.parentSpanContext?.spanId).toBe(server?.spanContext().spanId);
    expect(spans.map((s) => s.name)).not.toContain('suppressed');
  });

  it('starts a trace of its own without a traceparent, named by the method alone when no route matched', async () => {
    const spans = await spansOf('/unknown');
    expect(spans.find((s) => s.kind === SpanKind.SERVER)).toMatchObject({
      name: 'GET',
      parentSpanContext: undefined,
    });
  });

  it('marks a 5xx answer as an error', async () => {
    const spans = await spansOf('/fails');
    expect(spans.find((s) => s.kind === SpanKind.SERVER)).toMatchObject({
      attributes: expect.objectContaining({ 'http.response.status_code': 503 }) as unknown,
      status: { code: SpanStatusCode.ERROR },
    });
  });

  it('traces no probe', async () => {
    await fetch(`${url}/healthz`).then((response) => response.text());
    await fetch(`${url}/readyz`).then((response) => response.text());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER)).toEqual([]);
  });
});
