import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import {
  createTestCertificates,
  eventually,
  WebhookReceiver,
  type ReceivedWebhook,
} from '../../packages/testing/dist/index.js';
import { signWebhook, verifyWebhook } from '../../packages/webhook-signature/dist/index.js';
import { CollectionsApi, collectionHookOf } from '../../test/dist/support/collections.js';
import { Platform } from '../../test/dist/support/platform.js';
import { receiverEnv } from '../../test/dist/support/receiving-business.js';
import { collector, type Collector } from './collections-under-load.js';
import { numberFromEnv } from './env.js';
import { runBench } from './lifecycle.js';

/**
 * Issue 11's benchmark: incoming transfers per second end to end. Each is a sandbox transfer POSTed
 * to a virtual account through the gateway (gRPC → payments → ledger credit → outbox → Kafka), and
 * counts once its `collection.successful` webhook has reached the businesses' HTTPS receiver on
 * 127.0.0.1 (notification: delivery row → signed POST). The baseline, in the same run and against
 * the same receiver, is this process POSTing a signed body of the same size with the same
 * concurrency (as bench:webhooks): what the receiver and TLS allow at all.
 */

const TRANSFERS = numberFromEnv('BENCH_TRANSFERS', 1_000, 32, 20_000);
/** One registration each: notification sends at most 4 webhooks at once per registration. */
const BUSINESSES = numberFromEnv('BENCH_BUSINESSES', 8, 1, 32);
const CONCURRENCY = 32;
const WARM_UP = 64;
/** ₦100.00: an amount the sandbox treats as ordinary (no magic ending, decision 0014). */
const AMOUNT = 100_00;
const LIMIT_MS = 300_000;
const RATE_LIMITS = { per_minute: 100_000, per_hour: 6_000_000 };

interface Answered {
  collector: Collector;
  sentAt: number;
  answeredAt: number;
  net: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const transactionOf = (hook: ReceivedWebhook) =>
  (hook.json as { event?: string; data?: { transaction_id?: string } } | undefined)?.data?.transaction_id ?? '';

const certificates = await createTestCertificates();
const receiver = await WebhookReceiver.start({ certificates });
const platform = new Platform({ notificationEnv: receiverEnv(certificates, [0, 1000, 2000, 4000, 8000]) });
const api = new CollectionsApi(platform);
const gateway = new Agent({ connections: CONCURRENCY });
let stopping: Promise<unknown> | undefined;
const cleanUp = () => (stopping ??= Promise.allSettled([platform.stop(), receiver.stop(), gateway.close()]));

/** `count` transfers, CONCURRENCY in flight, round-robin over the collectors; each one must be 201. */
async function transfer(collectors: Collector[], count: number): Promise<Map<string, Answered>> {
  const answered = new Map<string, Answered>();
  const body = JSON.stringify({ amount: AMOUNT, sender_name: 'Bench Payer' });
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const one = collectors[next++ % collectors.length];
        if (!one) throw new Error('no collector');
        const sentAt = Date.now();
        const response = await request(
          `${platform.publicUrl}/api/external/sandbox/virtual-account/${one.accountId}/incoming-transfer`,
          {
            method: 'POST',
            headers: { authorization: `Bearer ${one.token}`, 'content-type': 'application/json' },
            body,
            dispatcher: gateway,
          },
        );
        const text = await response.body.text();
        if (response.statusCode !== 201) throw new Error(`incoming transfer: ${response.statusCode} ${text}`);
        const { data } = JSON.parse(text) as { data: { id: string; status: string; net: number } };
        if (data.status !== 'SUCCESSFUL') throw new Error(`a transfer was not collected: ${text}`);
        answered.set(data.id, { collector: one, sentAt, answeredAt: Date.now(), net: data.net });
      }
    }),
  );
  return answered;
}

/** The collection.successful webhooks of these transfers, once each has arrived. */
async function delivered(answered: Map<string, Answered>): Promise<ReceivedWebhook[]> {
  const ours = (hook: ReceivedWebhook) =>
    answered.has(transactionOf(hook)) && collectionHookOf(hook, transactionOf(hook))?.event === 'collection.successful';
  // The first arrival of each: delivery is at least once, so a repeat must not stand in for a missing one.
  return eventually(() => {
    const firsts = new Map<string, ReceivedWebhook>();
    for (const hook of receiver.requests.filter(ours)) {
      if (!firsts.has(transactionOf(hook))) firsts.set(transactionOf(hook), hook);
    }
    if (firsts.size < answered.size) throw new Error(`${answered.size - firsts.size} transfers have no webhook yet`);
    return [...firsts.values()];
  }, LIMIT_MS);
}

/** This process POSTing `body` signed, CONCURRENCY in flight, TRANSFERS times: requests per second. */
async function baseline(body: string, secret: string): Promise<number> {
  const agent = new Agent({ connect: { ca: certificates.caPem }, connections: CONCURRENCY });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < TRANSFERS) {
        next += 1;
        const timestamp = Math.floor(Date.now() / 1000);
        const headers = signWebhook({ secret, body, timestamp, webhookId: randomUUID() });
        const response = await request(receiver.url('/baseline'), { method: 'POST', body, headers, dispatcher: agent });
        await response.body.text();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return TRANSFERS / seconds;
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0] ?? 0;
  console.log(`starting the platform on free ports; ${BUSINESSES} businesses with a verified customer's NGN account…`);
  await platform.start();
  const collectors = await Promise.all(
    Array.from({ length: BUSINESSES }, (_, index) =>
      collector(platform, api, receiver, index, { rateLimits: RATE_LIMITS, currency: 'NGN' }),
    ),
  );
  const byPath = new Map(collectors.map((one) => [one.path, one]));

  console.log(`… warm-up: ${WARM_UP} transfers end to end`);
  const warm = await transfer(collectors, WARM_UP);
  const [sample] = await delivered(warm);
  if (!sample) throw new Error('the warm-up delivered nothing');
  receiver.requests.length = 0;

  console.log(`… baseline: ${TRANSFERS} signed POSTs of a collection.successful body (${sample.rawBody.length} bytes)`);
  const baselineRate = await baseline(sample.rawBody, collectors[0]?.secret ?? '');
  receiver.requests.length = 0;

  console.log(`… measured: ${TRANSFERS} incoming transfers, ${CONCURRENCY} in flight`);
  const started = Date.now();
  const measured = await transfer(collectors, TRANSFERS);
  const lastAnswer = Date.now();
  const hooks = await delivered(measured);
  const lastArrival = Math.max(...hooks.map((hook) => hook.receivedAt.getTime()));
  const seconds = (lastArrival - started) / 1000;
  const rate = TRANSFERS / seconds;
  const postRate = TRANSFERS / ((lastAnswer - started) / 1000);
  const afterAnswer = hooks
    .map((hook) => hook.receivedAt.getTime() - (measured.get(transactionOf(hook))?.answeredAt ?? NaN))
    .sort((a, b) => a - b);
  const unsigned = hooks.filter((hook) => {
    const owner = byPath.get(hook.path);
    try {
      verifyWebhook({ secret: owner?.secret ?? '', rawBody: hook.rawBody, headers: hook.headers });
      return false;
    } catch {
      return true;
    }
  }).length;
  const duplicates = receiver.requests.length - hooks.length;

  // The books: ok, and each wallet holds exactly the nets of its transfers.
  const check = await api.checkLedger();
  const expected = new Map<string, number>();
  for (const one of [...warm.values(), ...measured.values()])
    expected.set(one.collector.businessId, (expected.get(one.collector.businessId) ?? 0) + one.net);
  let conserved = true;
  for (const one of collectors) {
    const wallet = (await api.adminWallets(one.businessId)).find((candidate) => candidate.currency === 'NGN');
    conserved &&= wallet?.ledger_balance === expected.get(one.businessId) && wallet?.pending_balance === 0;
  }

  const ms = (value: number) => `${Math.round(value)} ms`;
  console.log(
    `\nincoming transfers end to end: ${BUSINESSES} businesses, ${CONCURRENCY} transfers in flight ` +
      `(Node ${process.version}, load average ${loadBefore.toFixed(2)} before the run)`,
  );
  console.log(`  baseline (this process POSTing the signed body itself): ${baselineRate.toFixed(0)} req/s`);
  console.log(`  transfers answered 201 by the gateway:                   ${postRate.toFixed(0)}/s`);
  console.log(
    `  end to end (POST → ledger → event → webhook delivered):  ${rate.toFixed(0)}/s over ${seconds.toFixed(2)} s ` +
      `(${(rate / baselineRate).toFixed(3)}× baseline)`,
  );
  console.log(
    `  201 answered → webhook arrived: p50 ${ms(percentile(afterAnswer, 0.5))}, p99 ${ms(percentile(afterAnswer, 0.99))}, ` +
      `max ${ms(afterAnswer.at(-1) ?? 0)}`,
  );
  console.log(
    `  webhooks: ${hooks.length} transfers delivered, ${duplicates} repeats, ${unsigned} failed signature checks`,
  );
  console.log(
    `  ledger check ok: ${check.ok} (${check.violations.length} violations, ${check.transfers_checked} transfers); ` +
      `every wallet = the nets of its transfers: ${conserved ? 'yes' : 'no'}`,
  );
  if (!check.ok || !conserved || unsigned > 0) throw new Error('the books or the signatures do not add up');
}

await runBench(main, cleanUp);
