import { Health, HealthCheckResponse_ServingStatus } from '@corridor/contracts/grpc/health/v1/health_pb';
import { createLogger } from '@corridor/logging';
import { metrics, type Attributes, type Meter, type MeterProvider } from '@opentelemetry/api';

/** What the service's telemetry would export: each counter's additions, by name. */
const added: { counter: string; value: number; attributes: Attributes | undefined }[] = [];
const recordingProvider: MeterProvider = {
  getMeter: () =>
    ({
      createCounter: (counter: string) => ({
        add: (value: number, attributes?: Attributes) => void added.push({ counter, value, attributes }),
      }),
    }) as unknown as Meter,
};

describe('gRPC server metrics', () => {
  it('counts each call answered INTERNAL by method, and not a dependency away', async () => {
    // Registered before the server module loads, as the service's instrument.ts does.
    metrics.setGlobalMeterProvider(recordingProvider);
    const { createClient } = await import('./client.js');
    const { registration, startGrpcServer } = await import('./server.js');
    const failing = registration(Health, {
      async check(request) {
        if (request.service === 'defect') throw new Error('a bug');
        if (request.service === 'away')
          throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        return { status: HealthCheckResponse_ServingStatus.SERVING };
      },
    });
    const server = await startGrpcServer({
      address: '127.0.0.1:0',
      services: [failing],
      logger: createLogger('test', { level: 'silent' }),
    });
    const client = createClient(Health, { address: `127.0.0.1:${server.port}` });
    try {
      await expect(client.check({ service: 'defect' })).rejects.toThrow();
      await expect(client.check({ service: 'away' })).rejects.toThrow();
      await client.check({ service: '' });
      expect(added).toEqual([
        {
          counter: 'corridor_grpc_internal_errors',
          value: 1,
          attributes: { 'rpc.method': 'grpc.health.v1.Health/check' },
        },
      ]);
    } finally {
      client.close();
      await server.shutdown(1_000);
      metrics.disable();
    }
  });
});
