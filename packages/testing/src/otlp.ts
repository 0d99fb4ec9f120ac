import { once } from 'node:events';
import { createServer, type Server } from 'node:http';

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
}

interface OtlpAnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpKeyValue[];
      }[];
    }[];
  }[];
}

const valueOf = (v: OtlpAnyValue) => v.stringValue ?? v.intValue ?? v.boolValue ?? v.doubleValue;

/**
 * A minimal OTLP/HTTP JSON trace receiver: services started with
 * OTEL_EXPORTER_OTLP_ENDPOINT=<endpoint> send their spans here.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server: Server | undefined;
  endpoint = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.url === '/v1/traces' && (req.headers['content-type'] ?? '').includes('json')) {
          this.add(JSON.parse(Buffer.concat(chunks).toString()) as OtlpExport);
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const address = this.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    this.endpoint = `http://127.0.0.1:${address.port}`;
    return this;
  }

  private add(body: OtlpExport): void {
    for (const resourceSpan of body.resourceSpans ?? []) {
      const serviceAttribute = resourceSpan.resource?.attributes?.find((a) => a.key === 'service.name');
      const service = String(serviceAttribute ? valueOf(serviceAttribute.value) : 'unknown');
      for (const scope of resourceSpan.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            attributes: Object.fromEntries((span.attributes ?? []).map((a) => [a.key, valueOf(a.value)])),
          });
        }
      }
    }
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
