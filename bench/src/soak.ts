import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  createTestCertificates,
  PostgresCluster,
  type ReceivedWebhook,
  type TestCertificates,
} from '../../packages/testing/dist/index.js';
import { COLLECTION_TIMINGS } from '../../test/dist/support/collections.js';
import { KafkaBroker } from '../../test/dist/support/kafka-broker.js';
import { nuban, ordinarySerial, PAYOUT_TIMINGS, PayoutsApi } from '../../test/dist/support/payouts.js';
import { Platform, type ReplicatedService } from '../../test/dist/support/platform.js';
import { ReceivingBusiness, receiverEnv } from '../../test/dist/support/receiving-business.js';
import { numberFromEnv } from './env.js';
import { runBench } from './lifecycle.js';
import { machine } from './report.js';

/**
 * Issue 36's soak: two of every service (the test Platform's `replicas: 2`) on a PostgreSQL and a
 * Kafka of its own, real work through the API (sandbox customers verified in one call, transfers
 * into GBP virtual accounts, NGN payouts to the sandbox bank), every request with an
 * Idempotency-Key and retried on a 5xx, a 429 or a broken connection as a platform would; meanwhile
 * one replica of a service is SIGKILLed and started again every SOAK_KILL_EVERY_MS (identity,
 * customer-kyb, notification, payments in turn), PostgreSQL restarts once and Kafka once.
 *
 * At the end, after the deliveries drain: every event of every acknowledged request delivered to the
 * receiver (distinct events, and how many were delivered twice: at least once, so a kill between the
 * receiver's 2xx and notification's record sends one again), every payout submitted to the rail
 * once, the wallets holding exactly what the acknowledged requests moved (no effect twice, none
 * lost), the customer count what was acknowledged, the ledger check ok, every process answering,
 * and every answer counted by status and code (none a 500; every 503 with Retry-After).
 *
 *   pnpm bench:soak            SOAK_EVENTS=100000 SOAK_KILL_EVERY_MS=20000 SOAK_CONCURRENCY=8
 *
 * Figures: printed, and written to bench/results/soak.json.
 */
const TARGET_EVENTS = numberFromEnv('SOAK_EVENTS', 100_000, 100, 10_000_000);
const KILL_EVERY_MS = numberFromEnv('SOAK_KILL_EVERY_MS', 20_000, 1_000, 600_000);
const CONCURRENCY = numberFromEnv('SOAK_CONCURRENCY', 8, 1, 64);
const DRAIN_LIMIT_MS = numberFromEnv('SOAK_DRAIN_LIMIT_MS', 600_000, 10_000, 3_600_000);
/** How long a request is retried (same Idempotency-Key) before it counts as not acknowledged. */
const RETRY_FOR_MS = 120_000;
const GTB = '058';
const NGN_FUNDING = 10_000_000_000;
const VIRTUAL_ACCOUNTS = 20;

type Job = 'payout' | 'customer' | 'collection';
/** The mix, by weight, and each job's events (webhooks) when it succeeds. */
const MIX: [Job, number][] = [
  ['payout', 55],
  ['customer', 20],
  ['collection', 25],
];
const EVENTS_OF: Record<Job, string[]> = {
  payout: ['payout.pending', 'payout.processing', 'payout.successful'],
  customer: ['customer.status_changed:PROCESSING', 'customer.status_changed:VERIFIED'],
  collection: ['collection.successful'],
};

interface Acknowledged {
  payouts: Map<string, { amount: number; fee: number }>;
  customers: Set<string>;
  collections: Map<string, number>;
  /** Requests given up on after RETRY_FOR_MS. */
  notAcknowledged: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What an event delivery is about: `<event>[:<new status>] <object id>`. */
function eventKey(request: ReceivedWebhook): string | undefined {
  const body = request.json as { event?: string; data?: Record<string, unknown> } | undefined;
  const data = body?.data;
  if (!body?.event || !data) return undefined;
  if (body.event === 'customer.status_changed')
    return `${body.event}:${String(data.new_status)} ${String(data.customer_id)}`;
  if (body.event.startsWith('collection.')) return `${body.event} ${String(data.transaction_id)}`;
  if (body.event.startsWith('payout.')) return `${body.event} ${String(data.id)}`;
  return undefined;
}

async function main(state: {
  platform?: Platform;
  cluster?: PostgresCluster;
  broker?: KafkaBroker;
  owner?: ReceivingBusiness;
}) {
  const started = Date.now();
  const certificates: TestCertificates = await createTestCertificates();
  [state.cluster, state.broker] = await Promise.all([PostgresCluster.start(), KafkaBroker.start()]);
  const platform = (state.platform = new Platform({
    replicas: 2,
    postgresAdminUrl: state.cluster.adminUrl,
    kafka: state.broker,
    notificationEnv: receiverEnv(certificates, [0, 400, 800, 1600, 3200, 6400, 12800]),
    paymentsEnv: { ...COLLECTION_TIMINGS, ...PAYOUT_TIMINGS },
  }));
  await platform.start();
  console.log(`soak: two of each service up in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // Every call through the two gateways in turn; every answer counted.
  const { answers, unavailableWithoutRetryAfter } = platform.spreadOverGateways();
  const api = new PayoutsApi(platform);
  const owner = (state.owner = await ReceivingBusiness.create(platform, certificates));
  const token = await owner.tokenWith([
    'customer:read',
    'customer:write',
    'virtual-account:create',
    'virtual-account:read',
    'payout:create',
    'transaction:read',
    'wallet:read',
  ]);
  await api.setFeeRule({
    business_id: owner.businessId,
    type: 'payout',
    currency: 'NGN',
    flat: 10_00,
    percentage_bps: 50,
  });
  await api.setPayoutLimit(owner.businessId, 'NGN', null);
  await api.fund(owner.businessId, 'NGN', NGN_FUNDING);

  /** A POST retried with its Idempotency-Key until it is answered `status`; undefined when given up. */
  const post = async <T>(path: string, body: unknown, status: number): Promise<T | undefined> => {
    const key = randomUUID();
    const until = Date.now() + RETRY_FOR_MS;
    for (let attempt = 1; Date.now() < until; attempt++) {
      try {
        const response = await platform.api(`/api/external${path}`, token, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify(body),
        });
        if (response.status === status) return ((await response.json()) as { data: T }).data;
        const text = await response.text();
        // 429, a lagging projection's 422 and the first attempt still running (409
        // IDEMPOTENCY_REQUEST_IN_FLIGHT, after a broken connection) say "retry"; any other 4xx is a defect here.
        const retry =
          response.status === 429 ||
          response.status === 422 ||
          (response.status === 409 && text.includes('IDEMPOTENCY_REQUEST_IN_FLIGHT'));
        if (response.status < 500 && !retry) {
          throw new Error(`POST ${path} answered ${response.status}: ${text}`);
        }
      } catch (error) {
        if (error instanceof Error && error.message.startsWith(`POST ${path} answered`)) throw error;
        // A connection the killed gateway or service broke: retried with the same key.
      }
      await sleep(Math.min(250 * attempt, 2_000));
    }
    return undefined;
  };

  // Verified customers with GBP accounts, for the transfers.
  const accounts: string[] = [];
  while (accounts.length < VIRTUAL_ACCOUNTS) {
    const customer = await post<{ id: string }>('/sandbox/customer', {}, 201);
    if (!customer) throw new Error('no sandbox customer');
    const account = await post<{ id: string }>('/virtual-account', { customer_id: customer.id, currency: 'GBP' }, 201);
    if (!account) throw new Error('no virtual account');
    accounts.push(account.id);
  }
  const before = owner.receiver.requests.length;

  const acknowledged: Acknowledged = {
    payouts: new Map(),
    customers: new Set(),
    collections: new Map(),
    notAcknowledged: 0,
  };
  let plannedEvents = 0;
  const totalWeight = MIX.reduce((sum, [, weight]) => sum + weight, 0);
  const pick = (n: number): Job => {
    // Spread over the mix (37 is prime to 100), so every kind runs from the start.
    let left = (n * 37) % totalWeight;
    for (const [job, weight] of MIX) {
      if (left < weight) return job;
      left -= weight;
    }
    return 'payout';
  };
  let next = 0;
  const run = async (job: Job, n: number) => {
    if (job === 'payout') {
      const payout = await post<{ id: string; amount: number; fee: number }>(
        '/payout',
        {
          amount: 100_00 + (n % 1_000),
          currency: 'NGN',
          bank_code: GTB,
          account_number: nuban(GTB, ordinarySerial()),
          narration: `Soak ${n}`,
          reference: `soak-${n}-${randomUUID()}`,
        },
        201,
      );
      if (payout) acknowledged.payouts.set(payout.id, { amount: payout.amount, fee: payout.fee });
      else acknowledged.notAcknowledged += 1;
    } else if (job === 'customer') {
      const customer = await post<{ id: string }>('/sandbox/customer', {}, 201);
      if (customer) acknowledged.customers.add(customer.id);
      else acknowledged.notAcknowledged += 1;
    } else {
      const account = accounts[n % accounts.length] ?? '';
      const collection = await post<{ id: string; net: number }>(
        `/sandbox/virtual-account/${account}/incoming-transfer`,
        { amount: 10_00 + (n % 100), sender_name: `Payer ${n}` },
        201,
      );
      if (collection) acknowledged.collections.set(collection.id, collection.net);
      else acknowledged.notAcknowledged += 1;
    }
  };
  const worker = async () => {
    while (plannedEvents < TARGET_EVENTS) {
      const n = next++;
      const job = pick(n);
      plannedEvents += EVENTS_OF[job].length;
      await run(job, n);
    }
  };

  // The faults, while the work runs.
  const faults: string[] = [];
  let loadDone = false;
  const killer = (async () => {
    const rotation: ReplicatedService[] = ['identity', 'customer-kyb', 'notification', 'payments'];
    let kills = 0;
    let postgresRestarted = false;
    let kafkaRestarted = false;
    while (!loadDone) {
      await sleep(KILL_EVERY_MS);
      if (loadDone) break;
      const service = rotation[kills % rotation.length] ?? 'payments';
      await platform.restartReplica(service);
      kills += 1;
      faults.push(`kill ${service}-2`);
      const progress = plannedEvents / TARGET_EVENTS;
      if (!postgresRestarted && progress > 0.33) {
        postgresRestarted = true;
        await state.cluster?.stop('immediate');
        await sleep(2_000);
        await state.cluster?.resume();
        faults.push('restart postgres');
      }
      if (!kafkaRestarted && progress > 0.66) {
        kafkaRestarted = true;
        await state.broker?.stop('SIGTERM');
        await sleep(2_000);
        await state.broker?.resume();
        faults.push('restart kafka');
      }
      console.log(
        `soak: ${plannedEvents} events planned, ${owner.receiver.requests.length - before} delivered, faults: ${faults.length}`,
      );
    }
  })();
  const loadStarted = Date.now();
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, () => worker()));
  } finally {
    // Also when a worker failed: no kill may run into the tear-down.
    loadDone = true;
  }
  const loadSeconds = (Date.now() - loadStarted) / 1000;
  await killer;

  // Drain: every expected event delivered, or the limit.
  const expected = new Set<string>();
  for (const id of acknowledged.payouts.keys()) for (const event of EVENTS_OF.payout) expected.add(`${event} ${id}`);
  for (const id of acknowledged.customers) for (const event of EVENTS_OF.customer) expected.add(`${event} ${id}`);
  for (const id of acknowledged.collections.keys()) expected.add(`collection.successful ${id}`);
  const drainStarted = Date.now();
  const deliveredKeys = () => {
    const counts = new Map<string, number>();
    for (const request of owner.receiver.requests) {
      const key = eventKey(request);
      if (key && expected.has(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  };
  let delivered = deliveredKeys();
  while (delivered.size < expected.size && Date.now() - drainStarted < DRAIN_LIMIT_MS) {
    await sleep(2_000);
    delivered = deliveredKeys();
  }
  const drainSeconds = (Date.now() - drainStarted) / 1000;

  // Effects exactly once.
  const rail = await Promise.all(
    chunk([...acknowledged.payouts.keys()], 8).map(async (ids) => {
      const calls: number[] = [];
      for (const id of ids) calls.push((await api.railPayout(id)).submit_calls);
      return calls;
    }),
  );
  const submitCalls = rail.flat();
  const wallets = await api.adminWallets(owner.businessId);
  const ngn = wallets.find((wallet) => wallet.currency === 'NGN');
  const gbp = wallets.find((wallet) => wallet.currency === 'GBP');
  const payoutDebits = [...acknowledged.payouts.values()].reduce((sum, { amount, fee }) => sum + amount + fee, 0);
  const collected = [...acknowledged.collections.values()].reduce((sum, net) => sum + net, 0);
  const listed = await platform.api('/api/external/customer?paginate=true&page=1', token);
  const customerList = (await listed.json()) as { meta?: { total: number } };
  if (!customerList.meta)
    throw new Error(`the customer list answered ${listed.status}: ${JSON.stringify(customerList)}`);
  const customerTotal = customerList.meta.total;
  const ledger = await api.checkLedger();
  const alive = await Promise.all(platform.publicUrls.map(async (url) => (await fetch(`${url}/readyz`)).status));

  const perEventDeliveries = [...delivered.values()];
  const slowest = slowestDelivery(owner.receiver.requests.slice(before));
  const figures = {
    machine: machine(),
    target_events: TARGET_EVENTS,
    load_seconds: Math.round(loadSeconds),
    drain_seconds: Math.round(drainSeconds),
    requests_acknowledged: acknowledged.payouts.size + acknowledged.customers.size + acknowledged.collections.size,
    requests_not_acknowledged: acknowledged.notAcknowledged,
    payouts: acknowledged.payouts.size,
    customers: acknowledged.customers.size,
    collections: acknowledged.collections.size,
    events_expected: expected.size,
    events_delivered: delivered.size,
    events_lost: expected.size - delivered.size,
    events_delivered_twice_or_more: perEventDeliveries.filter((count) => count > 1).length,
    deliveries_received: owner.receiver.requests.length - before,
    slowest_delivery_ms: slowest,
    kills: faults.filter((fault) => fault.startsWith('kill')).length,
    faults,
    payouts_submitted_to_rail_not_once: submitCalls.filter((calls) => calls !== 1).length,
    ngn_expected: NGN_FUNDING - payoutDebits,
    ngn_ledger_balance: ngn?.ledger_balance,
    gbp_expected: collected,
    gbp_ledger_balance: gbp?.ledger_balance,
    customers_expected: acknowledged.customers.size + VIRTUAL_ACCOUNTS,
    customers_listed: customerTotal,
    ledger_ok: ledger.ok,
    gateways_ready: alive,
    answers: Object.fromEntries([...answers.entries()].sort()),
    answers_500: [...answers.entries()].filter(([key]) => key.startsWith('500')).reduce((sum, [, n]) => sum + n, 0),
    unavailable_without_retry_after: unavailableWithoutRetryAfter.length,
  };
  console.log(JSON.stringify(figures, null, 2));
  await writeFile(
    fileURLToPath(new URL('../results/soak.json', import.meta.url)),
    `${JSON.stringify(figures, null, 2)}\n`,
  );
  const problems = [
    figures.events_lost > 0 && `${figures.events_lost} events lost`,
    figures.payouts_submitted_to_rail_not_once > 0 &&
      `${figures.payouts_submitted_to_rail_not_once} payouts not submitted once`,
    figures.ngn_expected !== figures.ngn_ledger_balance && 'NGN wallet differs from the acknowledged payouts',
    figures.gbp_expected !== figures.gbp_ledger_balance && 'GBP wallet differs from the acknowledged transfers',
    figures.customers_expected !== figures.customers_listed && 'customer count differs from the acknowledged creates',
    !figures.ledger_ok && 'ledger check failed',
    alive.some((status) => status !== 200) && 'a gateway is not ready',
    figures.answers_500 > 0 && `${figures.answers_500} answers were 500`,
    figures.unavailable_without_retry_after > 0 && '503 without Retry-After',
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(problems.join('; '));
}

function chunk<T>(items: T[], parts: number): T[][] {
  const out: T[][] = Array.from({ length: parts }, () => []);
  items.forEach((item, index) => out[index % parts]?.push(item));
  return out;
}

/** The longest time from an event's occurrence (its body's timestamp) to its first delivery. */
function slowestDelivery(requests: readonly ReceivedWebhook[]): number {
  let slowest = 0;
  for (const request of requests) {
    const data = (request.json as { data?: Record<string, unknown> } | undefined)?.data;
    const at = data?.changed_at ?? data?.updated_at;
    if (typeof at !== 'string') continue;
    slowest = Math.max(slowest, request.receivedAt.getTime() - Date.parse(at));
  }
  return slowest;
}

const state: { platform?: Platform; cluster?: PostgresCluster; broker?: KafkaBroker; owner?: ReceivingBusiness } = {};
await runBench(
  () => main(state),
  async () => {
    const step = async (name: string, work: (() => Promise<unknown>) | undefined) => {
      const at = Date.now();
      await work?.().catch((error: unknown) => console.error(`soak: ${name}: ${String(error)}`));
      console.log(`soak: ${name} stopped in ${((Date.now() - at) / 1000).toFixed(1)} s`);
    };
    const { platform, owner, broker, cluster } = state;
    await step('platform', platform && (() => platform.stop()));
    await step('receiver', owner && (() => owner.stop()));
    await step('kafka', broker && (() => broker.destroy()));
    await step('postgres', cluster && (() => cluster.destroy()));
  },
  { limitMs: 90 * 60_000 },
);
