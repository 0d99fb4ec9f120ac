import { EventConsumer, processedEventSchemaSql } from '@corridor/bus';
import { createLogger } from '@corridor/logging';
import { createTestDatabase, eventually, OtlpReceiver, query, testKafka, type TestDatabase } from '@corridor/testing';
import { MikroORM } from '@mikro-orm/postgresql';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { Platform } from '../support/platform.js';

// OTLP's span kinds (the API's enum plus one).
const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;

describe('one trace: admin request → gRPC → INSERT → Kafka publish → consumer', () => {
  const receiver = new OtlpReceiver();
  let platform: Platform;
  let consumerDb: TestDatabase;
  let orm: MikroORM;
  let consumer: EventConsumer;
  const consumerSpans = new InMemorySpanExporter();
  const handled: { businessId: string; traceId: string | undefined }[] = [];

  beforeAll(async () => {
    // This process plays a downstream service: its own tracer, its own database, the bus consumer.
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(
      new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: consumerSpans })] }),
    );

    await receiver.start();
    platform = await new Platform({ otlpEndpoint: receiver.endpoint }).start();
    consumerDb = await createTestDatabase('e2e_consumer');
    for (const statement of processedEventSchemaSql) await query(consumerDb.url, statement);
    orm = await MikroORM.init({
      clientUrl: consumerDb.url,
      entities: [],
      discovery: { warnWhenNoEntities: false },
      allowGlobalContext: false,
    });
    consumer = new EventConsumer({
      kafka: testKafka(),
      groupId: 'e2e-trace-consumer',
      topics: [platform.identityTopic],
      em: orm.em,
      logger: createLogger('consumer', { level: 'silent' }),
      async handler(event) {
        handled.push({ businessId: event.businessId, traceId: trace.getActiveSpan()?.spanContext().traceId });
      },
    });
    await consumer.start();
  });

  afterAll(async () => {
    await consumer?.stop();
    await orm?.close();
    await consumerDb?.drop();
    await platform?.stop();
    await receiver.stop();
  });

  it('every hop shares the trace id of the admin request', async () => {
    const business = await platform.createBusiness('Traced Inc');
    const handledEvent = await eventually(() => {
      const found = handled.find((h) => h.businessId === business.id);
      if (!found?.traceId) throw new Error('consumer has not handled the event yet');
      return found;
    }, 30_000);
    const traceId = handledEvent.traceId;

    const spans = await eventually(() => {
      const inTrace = receiver.spans.filter((s) => s.traceId === traceId);
      const has = (service: string, kind: number, name: RegExp) =>
        inTrace.some((s) => s.service === service && s.kind === kind && name.test(s.name));
      const missing = [
        // Named after the route table's path (recordHttpRoute), not only the method.
        has('gateway', SERVER, /^POST \/admin\/businesses$/)
          ? ''
          : 'gateway HTTP server span named POST /admin/businesses',
        has('gateway', CLIENT, /IdentityService\/CreateBusiness/) ? '' : 'gateway gRPC client span',
        has('identity', SERVER, /IdentityService\/CreateBusiness/) ? '' : 'identity gRPC server span',
        inTrace.some(
          (s) =>
            s.service === 'identity' &&
            /insert into "business"/i.test(String(s.attributes['db.query.text'] ?? s.attributes['db.statement'] ?? '')),
        )
          ? ''
          : 'INSERT business span',
        has('identity', PRODUCER, new RegExp(`publish ${platform.identityTopic.replace(/\./g, '\\.')}`))
          ? ''
          : 'Kafka publish span',
      ].filter(Boolean);
      if (missing.length > 0)
        throw new Error(
          `trace ${traceId} lacks: ${missing.join(', ')} (has ${inTrace.map((s) => `${s.service}:${s.name}`).join('; ')})`,
        );
      return inTrace;
    }, 30_000);

    // The consumer's span is the child of the publish span, which the relay parented on the request.
    const publish = spans.find((s) => s.kind === PRODUCER);
    const consumed = consumerSpans
      .getFinishedSpans()
      .find((s) => s.spanContext().traceId === traceId && s.kind === SpanKind.CONSUMER);
    expect(consumed?.name).toBe(`process ${platform.identityTopic}`);
    expect(consumed?.parentSpanContext?.spanId).toBe(publish?.spanId);
  });
});
