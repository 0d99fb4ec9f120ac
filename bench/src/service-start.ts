import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { logged, startService, type ServiceProcess, type TestDatabase } from '../../packages/testing/dist/index.js';
import { migratedDatabase } from '../../test/dist/support/databases.js';
import { numberFromEnv } from './env.js';

/**
 * How long a service takes from spawn to "listening", next to a bare Node process that only opens
 * an HTTP server (the baseline, same run) and to the same service with OpenTelemetry's default
 * loader hook, which intercepts every module (what @corridor/telemetry did before it hooked only
 * the instrumented ones). Starts are taken in turn, variant by variant, so drift in the machine's
 * load spreads over all of them. Every start gets a fresh migrated database; nothing else is left
 * behind. Not part of npm test.
 */
const RUNS = numberFromEnv('BENCH_RUNS', 5, 1, 20);
const ALL_MODULES_HOOK = fileURLToPath(new URL('./all-modules-hook.js', import.meta.url));
const BASELINE = `require('node:http').createServer().listen(0, '127.0.0.1', () => console.log('baseline listening'))`;

interface Variant {
  name: string;
  /** A fresh database, when the variant needs one: made before the clock starts. */
  database?: () => Promise<TestDatabase>;
  start(database: TestDatabase | undefined): Promise<ServiceProcess>;
}

const identityEnv = (database: TestDatabase): Record<string, string> => ({
  DATABASE_URL: database.url,
  IDENTITY_GRPC_ADDRESS: '127.0.0.1:0',
  IDENTITY_SECRET_KEY: randomBytes(32).toString('hex'),
  KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '127.0.0.1:9092',
  KAFKA_TOPIC_PREFIX: `bench-start-${randomBytes(3).toString('hex')}.`,
  CORRIDOR_ENVIRONMENT: 'sandbox',
});

const identity = (name: string, extraEnv: Record<string, string> = {}): Variant => ({
  name,
  database: () => migratedDatabase('identity', undefined),
  start: (database) => {
    if (!database) throw new Error(`${name} starts on a database of its own`);
    return startService({
      service: 'identity',
      env: { ...identityEnv(database), ...extraEnv },
      ready: logged('identity listening'),
      readyTimeoutMs: 60_000,
    });
  },
});

const variants: Variant[] = [
  {
    name: 'baseline: node, an HTTP server',
    start: () =>
      startService({
        service: 'identity',
        script: '-e',
        args: [BASELINE],
        env: {},
        ready: logged('baseline listening'),
      }),
  },
  identity('identity (hooks the instrumented modules)'),
  identity('identity + OpenTelemetry’s hook of every module', { NODE_OPTIONS: `--import=${ALL_MODULES_HOOK}` }),
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const load = loadavg()[0] ?? 0;
  console.log(`service start: ${RUNS} starts of each, in turn (load average ${load.toFixed(2)})`);
  const times = new Map<string, number[]>(variants.map((variant) => [variant.name, []]));
  for (let run = 0; run < RUNS; run++) {
    for (const variant of variants) {
      const database = await variant.database?.();
      try {
        const began = performance.now();
        const process = await variant.start(database);
        times.get(variant.name)?.push(performance.now() - began);
        await process.kill();
      } finally {
        await database?.drop();
      }
    }
  }
  const baseline = median([...times.values()][0] ?? []);
  console.log('| start | median ms | min–max ms | vs baseline |');
  console.log('| --- | --- | --- | --- |');
  for (const [name, values] of times) {
    const middle = median(values);
    console.log(
      `| ${name} | ${middle.toFixed(0)} | ${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} | ${(middle / baseline).toFixed(2)}× |`,
    );
  }
}

await main();
