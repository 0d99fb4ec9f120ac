import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { createIdempotentProducer } from '../../packages/bus/dist/index.js';
import { encodeEvent, Environment, newEvent, topicName } from '../../packages/contracts/dist/events.js';
import {
  createTestCertificates,
  createTestDatabase,
  createTopics,
  freePort,
  KAFKA_BROKERS,
  logged,
  query,
  startService,
  testKafka,
  uniqueSuffix,
  WebhookReceiver,
  type ServiceProcess,
} from '../../packages/testing/dist/index.js';
import { signWebhook } from '../../packages/webhook-signature/dist/index.js';
import { cpuByProcess, formatCpuByProcess } from './cpu.js';
import {
  generateSigningSecret,
  lastFour,
  WebhookSecrets,
} from '../../services/notification/dist/secrets/webhook-secrets.js';

/**
 * Issue 5's benchmark: webhooks delivered per second by a real notification process (Kafka event →
 * delivery row → claim → signed HTTPS POST → attempt recorded) to a local HTTPS receiver, and the
 * time from each event's commit to its arrival. The baseline, in the same run against the same
 * receiver, is this process POSTing the same signed bodies itself with the same concurrency: what the
 * receiver and TLS allow at all.
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 2_000);
const BUSINESSES = Number(process.env.BENCH_BUSINESSES ?? 20);
const CONCURRENCY = 32;
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 100);
const PACED_SECONDS = 10;

/** Issue 35's goals for delivery: a rate on this machine's 2 cores, and a share of the direct POST. */
const GOAL_RATE = 1_500;
const GOAL_RATIO = 0.3;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function baseline(receiver: WebhookReceiver, caPem: string, secret: string): Promise<number> {
  const agent = new Agent({ connect: { ca: caPem }, connections: CONCURRENCY });
  const body = JSON.stringify({ event: 'customer.status_changed', data: { customer_id: randomUUID() } });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < EVENTS) {
        next += 1;
        const headers = signWebhook({
          secret,
          body,
          timestamp: Math.floor(Date.now() / 1000),
          webhookId: randomUUID(),
        });
        const response = await request(receiver.url('/baseline'), { method: 'POST', body, headers, dispatcher: agent });
        await response.body.text();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return EVENTS / seconds;
}

const certificates = await createTestCertificates();
const receiver = await WebhookReceiver.start({ certificates });
const database = await createTestDatabase('bench_webhooks');
const prefix = `bench-${uniqueSuffix()}.`;
const topic = topicName(prefix, 'customer');
await createTopics([topic, topicName(prefix, 'payments')]); // notification subscribes to both
const secretKey = randomBytes(32).toString('hex');
const env = {
  NOTIFICATION_GRPC_ADDRESS: `127.0.0.1:${await freePort()}`,
  DATABASE_URL: database.url,
  CORRIDOR_ENVIRONMENT: 'sandbox',
  NOTIFICATION_SECRET_KEY: secretKey,
  KAFKA_BROKERS: KAFKA_BROKERS.join(','),
  KAFKA_TOPIC_PREFIX: prefix,
  METRICS_PORT: String(await freePort()),
  WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
  WEBHOOK_EXTRA_CA_FILE: certificates.caFile,
  WEBHOOK_CONCURRENCY: String(CONCURRENCY),
  LOG_LEVEL: 'warn',
  // BENCH_PROFILE_DIR=<dir>: notification writes a CPU profile there when it stops (bench:profile reads it).
  ...(process.env.BENCH_PROFILE_DIR
    ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}` }
    : {}),
};
let notification: ServiceProcess | undefined;
const producer = createIdempotentProducer(testKafka('bench-webhooks'));
try {
  const migrate = await startService({ service: 'notification', script: 'dist/migrate.js', args: ['up'], env });
  if ((await migrate.exited) !== 0) throw new Error(`migrations failed:\n${migrate.output()}`);
  // Statements per delivery come from pg_stat_statements (preloaded by the local PostgreSQL), counted
  // for this database alone, so other work on the server is neither counted nor reset.
  await query(database.url, 'create extension if not exists pg_stat_statements');
  const [{ oid: databaseOid } = { oid: 0 }] = await query<{ oid: number }>(
    database.url,
    'select oid from pg_database where datname = current_database()',
  );

  // One registration per business, sealed with the process's key, as POST /webhook would store it.
  const secrets = new WebhookSecrets(secretKey);
  const secret = generateSigningSecret();
  const businesses: string[] = [];
  for (let i = 0; i < BUSINESSES; i++) {
    const id = randomUUID();
    const businessId = randomUUID();
    businesses.push(businessId);
    await query(
      database.url,
      `insert into webhook_endpoint (id, business_id, collection_url, payout_url, kyc_url, signing_secret_sealed,
         signing_secret_last4, created_at, updated_at) values ($1, $2, $3, $4, null, $5, $6, now(), now())`,
      [id, businessId, receiver.url(`/b/${i}`), receiver.url(`/p/${i}`), secrets.seal(secret, id), lastFour(secret)],
    );
  }
  receiver.setSecret(secret);

  const beforeBaseline = cpuByProcess();
  const baselineRate = await baseline(receiver, certificates.caPem, secret);
  const baselineCpu = formatCpuByProcess(beforeBaseline, cpuByProcess(), EVENTS);
  receiver.requests.length = 0;

  notification = await startService({
    service: 'notification',
    env: { ...env, LOG_LEVEL: 'info' },
    ready: logged('notification listening'),
  });
  await producer.connect();
  const committedAt = new Map<string, number>();
  let produced = 0;
  /** `count` customer.status_changed events, round-robin over the businesses, in one produce call. */
  async function produce(count: number): Promise<void> {
    const messages = Array.from({ length: count }, () => {
      const customerId = randomUUID();
      const event = newEvent({
        businessId: businesses[produced++ % BUSINESSES] ?? '',
        environment: Environment.SANDBOX,
        payload: {
          case: 'customerStatusChanged',
          value: {
            customerId,
            customerType: 'business',
            kybScope: 'FULL',
            oldStatus: 'PENDING',
            newStatus: 'PROCESSING',
            trigger: 'submit',
          },
        },
      });
      committedAt.set(customerId, Date.now());
      return { key: customerId, value: Buffer.from(encodeEvent(event)) };
    });
    await producer.send({ topic, messages });
  }
  /** Commit → arrival of the webhooks received so far, sorted, then forgets them. */
  function drainLatencies(): number[] {
    const latencies = receiver.requests
      .map((r) => {
        const data = (r.json as { data?: { customer_id?: string } }).data;
        return r.receivedAt.getTime() - (committedAt.get(data?.customer_id ?? '') ?? r.receivedAt.getTime());
      })
      .sort((a, b) => a - b);
    receiver.requests.length = 0;
    return latencies;
  }
  const report = (latencies: number[]) =>
    `p50 ${percentile(latencies, 0.5)} ms, p99 ${percentile(latencies, 0.99)} ms, max ${latencies.at(-1)} ms`;

  // Phase 1, latency at a steady rate: PACED_RATE events a second (10 every 100 ms) for PACED_SECONDS.
  for (let tick = 0; tick < 10 * PACED_SECONDS; tick++) {
    const next = performance.now() + 100;
    await produce(PACED_RATE / 10);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
  }
  await receiver.waitFor(() => true, PACED_RATE * PACED_SECONDS, 120_000);
  const paced = drainLatencies();

  // Phase 2, throughput: EVENTS at once.
  await query(database.url, 'select pg_stat_statements_reset(0, $1, 0)', [databaseOid]);
  const beforeBurst = cpuByProcess();
  const started = performance.now();
  for (let sent = 0; sent < EVENTS; sent += 100) await produce(Math.min(100, EVENTS - sent));
  await receiver.waitFor(() => true, EVENTS, 300_000);
  const seconds = (performance.now() - started) / 1000;
  const burstCpu = formatCpuByProcess(beforeBurst, cpuByProcess(), EVENTS);
  const statements = await query<{ query: string; calls: string; ms: number }>(
    database.url,
    `select query, calls, total_exec_time as ms from pg_stat_statements
     where dbid = $1 and query not like '%pg_stat_statements%' order by calls desc`,
    [databaseOid],
  );
  const unverified = receiver.requests.filter((r) => !r.verified).length;
  const ids = new Set(receiver.requests.map((r) => r.webhookId));
  const received = receiver.requests.length;
  const burst = drainLatencies();
  const rate = EVENTS / seconds;

  // Where the burst's time goes: commit → delivery row (Kafka + consumer), row → confirmed (worker + HTTPS).
  const [split] = await query<{ consumer_p50: number; consumer_p99: number; worker_p50: number; worker_p99: number }>(
    database.url,
    `select
       percentile_cont(0.5) within group (order by extract(epoch from created_at - event_occurred_at) * 1000) as consumer_p50,
       percentile_cont(0.99) within group (order by extract(epoch from created_at - event_occurred_at) * 1000) as consumer_p99,
       percentile_cont(0.5) within group (order by extract(epoch from completed_at - created_at) * 1000) as worker_p50,
       percentile_cont(0.99) within group (order by extract(epoch from completed_at - created_at) * 1000) as worker_p99
     from (select * from webhook_delivery order by created_at desc limit $1) as burst`,
    [EVENTS],
  );
  const ms = (value: number | undefined) => Math.round(Number(value ?? 0));
  console.log(
    `webhook delivery to a local HTTPS receiver: ${BUSINESSES} businesses, ${CONCURRENCY} attempts in flight`,
  );
  console.log(`  steady ${PACED_RATE} events/s for ${PACED_SECONDS} s: commit → delivery ${report(paced)}`);
  console.log(`  burst of ${EVENTS} events:`);
  console.log(`    baseline (this process POSTing the signed bodies itself): ${baselineRate.toFixed(0)} req/s`);
  console.log(
    `    notification (Kafka → PostgreSQL → signed HTTPS):         ${rate.toFixed(0)} deliveries/s (${(rate / baselineRate).toFixed(3)}× baseline)`,
  );
  console.log(`    commit → delivery ${report(burst)}`);
  console.log(
    `    of which commit → delivery row: p50 ${ms(split?.consumer_p50)} ms, p99 ${ms(split?.consumer_p99)} ms; row → confirmed: p50 ${ms(split?.worker_p50)} ms, p99 ${ms(split?.worker_p99)} ms`,
  );
  console.log(`    received ${received}, distinct webhook ids ${ids.size}, signature failures ${unverified}`);
  // The bench process is both the receiver and, in the baseline, the sender.
  const calls = statements.reduce((sum, row) => sum + Number(row.calls), 0);
  const executing = statements.reduce((sum, row) => sum + Number(row.ms), 0);
  console.log(
    `  statements per delivery (pg_stat_statements, the burst): ${(calls / EVENTS).toFixed(2)}, executing ${Math.round((executing * 1000) / EVENTS)} µs`,
  );
  console.log(`    per delivery: calls, time executing, statement`);
  for (const row of statements.slice(0, 8)) {
    const text = row.query.replace(/\s+/g, ' ');
    const perDelivery = `${(Number(row.calls) / EVENTS).toFixed(2).padStart(6)} ${`${Math.round((Number(row.ms) * 1000) / EVENTS)} µs`.padStart(8)}`;
    console.log(`    ${perDelivery}  ${text.length > 90 ? `${text.slice(0, 90)}…` : text}`);
  }
  const ratio = rate / baselineRate;
  const verdict = (met: boolean) => (met ? 'met' : 'not met');
  console.log(`  goals (issue 35):`);
  console.log(
    `    deliveries/s ≥ ${GOAL_RATE.toLocaleString('en')}: ${rate.toFixed(0)}/s, ${verdict(rate >= GOAL_RATE)}`,
  );
  console.log(`    ÷ direct POST ≥ ${GOAL_RATIO}: ${ratio.toFixed(3)}×, ${verdict(ratio >= GOAL_RATIO)}`);
  console.log(`  the baseline's ${baselineCpu.replace('per request', 'per POST')}`);
  console.log(`  the burst's ${burstCpu.replace('per request', 'per delivery')}`);
} finally {
  await producer.disconnect().catch(() => undefined);
  await notification?.kill();
  await receiver.stop();
  await database.drop();
}
