import { Health } from '@corridor/contracts/grpc/health/v1/health_pb';
import { createLogger } from '@corridor/logging';
import { createClient } from './client.js';
import { createHealthService, LIVENESS, ServingStatus } from './health.js';
import { startGrpcServer } from './server.js';

const silent = createLogger('test', { level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A dependency the test turns on and off, counting how often it is asked. */
function dependency() {
  const state = { up: true, calls: 0, stall: false };
  return {
    state,
    check: async () => {
      state.calls += 1;
      if (state.stall) await new Promise(() => undefined);
      if (!state.up) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    },
  };
}

describe('health: readiness from the dependencies, liveness from the process', () => {
  it('answers NOT_SERVING for "" and each service while the database is away, SERVING for liveness, and recovers', async () => {
    const database = dependency();
    const changes: unknown[] = [];
    const health = createHealthService(['corridor.test.v1.Thing'], {
      readiness: [{ name: 'database', check: database.check }],
      cacheMs: 50,
      onChange: (ready, failed) => changes.push({ ready, dependency: failed?.name }),
    });
    const server = await startGrpcServer({ address: '127.0.0.1:0', services: [health.registration], logger: silent });
    const client = createClient(Health, { address: `127.0.0.1:${server.port}` });
    const statuses = async () =>
      Promise.all(
        ['', 'corridor.test.v1.Thing', LIVENESS].map(async (service) => (await client.check({ service })).status),
      );
    try {
      expect(await statuses()).toEqual([ServingStatus.SERVING, ServingStatus.SERVING, ServingStatus.SERVING]);
      database.state.up = false;
      await sleep(60);
      expect(await statuses()).toEqual([ServingStatus.NOT_SERVING, ServingStatus.NOT_SERVING, ServingStatus.SERVING]);
      database.state.up = true;
      await sleep(60);
      expect(await statuses()).toEqual([ServingStatus.SERVING, ServingStatus.SERVING, ServingStatus.SERVING]);
      expect(changes).toEqual([{ ready: false, dependency: 'database' }, { ready: true }]);
    } finally {
      client.close();
      await server.shutdown(1_000);
    }
  });

  it('asks the database at most once per cache period, however many probes arrive together', async () => {
    const database = dependency();
    const health = createHealthService([], { readiness: [{ name: 'database', check: database.check }], cacheMs: 200 });
    expect(await Promise.all(Array.from({ length: 20 }, () => health.ready()))).toEqual(Array(20).fill(true));
    expect(await health.ready()).toBe(true);
    expect(database.state.calls).toBe(1);
    await sleep(220);
    await health.ready();
    expect(database.state.calls).toBe(2);
  });

  it('counts a check slower than its timeout as not ready, and never stacks a second query on a stuck one', async () => {
    const database = dependency();
    const health = createHealthService([], {
      readiness: [{ name: 'database', check: database.check }],
      cacheMs: 0,
      timeoutMs: 30,
    });
    database.state.stall = true;
    const started = Date.now();
    expect(await health.ready()).toBe(false);
    expect(Date.now() - started).toBeLessThan(500);
    expect(await health.ready()).toBe(false);
    expect(database.state.calls).toBe(1);
  });
});
