import { context, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { Writable } from 'node:stream';
import { createLogger } from './index.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  const contextManager = new AsyncLocalStorageContextManager();
  beforeAll(() => context.setGlobalContextManager(contextManager.enable()));
  afterAll(() => context.disable());

  it('writes JSON lines with service and level, without trace ids outside a span', () => {
    const { lines, destination } = capture();
    createLogger('identity', { destination }).info('hello');
    expect(lines[0]).toMatchObject({ service: 'identity', level: 'info', msg: 'hello' });
    expect(lines[0]).not.toHaveProperty('trace_id');
  });

  it('carries trace_id and span_id of the active span', () => {
    const { lines, destination } = capture();
    const logger = createLogger('identity', { destination });
    const spanContext = {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.SAMPLED,
    };
    context.with(trace.setSpanContext(context.active(), spanContext), () => logger.info('inside'));
    expect(lines[0]).toMatchObject({ trace_id: spanContext.traceId, span_id: spanContext.spanId });
  });
});
