import { randomUUID } from 'node:crypto';
import { eventually, type ReceivedWebhook } from '../../packages/testing/dist/index.js';
import { signWebhook } from '../../packages/webhook-signature/dist/index.js';
import { collectionHookOf } from '../../test/dist/support/collections.js';
import { type Collector, type CollectionsUnderLoad } from './collections-under-load.js';
import type { LoadSettings } from './load.js';
import { SWAP_AMOUNT, type Books, type SpreadSwaps } from './payments-under-load.js';
import { created, measureSwaps, notCreated, type Costed } from './payments-phases.js';
import type { PhaseResult } from './phase.js';
import { closedLoop, percentile, type LoopMeasurement } from './request-loop.js';

const WARM_UP_CONNECTIONS = 8;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface SpreadSwapOutcome {
  swap: PhaseResult;
  swapsCreated: number;
  books: Books;
  problems: string[];
}

/** Swaps spread over the businesses: warm-up, then a fixed number sized from its rate, then the books. */
export async function runSpreadSwaps(
  spread: SpreadSwaps,
  settings: LoadSettings,
  costed: Costed,
): Promise<SpreadSwapOutcome> {
  const title = `POST /swap spread over ${spread.businesses.length} businesses`;
  const { warm, measured, limitSeconds } = await measureSwaps(
    'swap_spread',
    title,
    spread.swapRequest,
    settings,
    costed,
  );
  const swapsCreated = spread.swapsBeforeLoad + created(warm) + created(measured);
  const books = await spread.books(swapsCreated);
  const problems: string[] = [];
  const refused = notCreated(warm) + notCreated(measured);
  if (refused > 0)
    problems.push(`swap_spread: ${refused} swaps not answered 201 (${JSON.stringify(measured.statusCodes)})`);
  if (warm.cutShort || measured.cutShort) problems.push(`swap_spread: hit its ${limitSeconds} s limit`);
  if (!books.check.ok) problems.push(`swap_spread: ledger check ${JSON.stringify(books.check.violations)}`);
  if (!books.moneyConserved)
    problems.push(
      `swap_spread: USD ledger balances sum to ${books.ledgerBalance}, expected ${books.expectedLedgerBalance} ` +
        `(${swapsCreated} swaps × (${SWAP_AMOUNT} + ${spread.feePerSwap}))`,
    );
  return {
    swap: { key: 'swap_spread', title, measurement: measured, seconds: measured.seconds },
    swapsCreated,
    books,
    problems,
  };
}

/** One collection the phase made: whose, and its net. */
export interface Collected {
  transactionId: string;
  collector: Collector;
  net: number;
  answeredAt: number;
}

export interface CollectionOutcome {
  /** The POSTs as the gateway answered them (rate: answered; latency: each POST's). */
  collection: PhaseResult;
  /** Transfers measured ÷ (first POST → last transfer's first webhook arrived). */
  endToEndPerSecond: number;
  windowSeconds: number;
  /** 201 answered → its webhook arrived, ms. */
  afterAnswerP50Ms: number;
  afterAnswerP99Ms: number;
  /** Webhook POSTs that reached the receiver in the window (repeats included) ÷ the window. */
  deliveriesPerSecond: number;
  deliveries: number;
  repeats: number;
  unsigned: number;
  /** This process POSTing a signed body of the same size to the same receiver, as many times, as many at once. */
  directPostPerSecond: number;
  /** Every collection made (warm-up and measured): what the refund phase refunds. */
  made: Collected[];
  problems: string[];
}

const transactionOf = (hook: ReceivedWebhook) =>
  (hook.json as { data?: { transaction_id?: string } } | undefined)?.data?.transaction_id ?? '';

/** `count` transfers through the gateway, `connections` in flight; each answered 201 SUCCESSFUL is collected. */
async function transfers(collections: CollectionsUnderLoad, count: number, connections: number, limitSeconds: number) {
  const sent = new Map<number, Collector>();
  const measurement = await closedLoop(
    (index) => {
      const { collector, request } = collections.transfer(index);
      sent.set(index, collector);
      return request;
    },
    { count, connections, limitSeconds },
  );
  const made: Collected[] = [];
  for (const answer of measurement.answers) {
    if (answer.status !== 201) continue;
    const { data } = JSON.parse(answer.text) as { data: { id: string; status: string; net: number } };
    const collector = sent.get(answer.index);
    if (data.status === 'SUCCESSFUL' && collector)
      made.push({ transactionId: data.id, collector, net: data.net, answeredAt: answer.answeredAt });
  }
  return { measurement, made };
}

/** The first `collection.successful` of each of these collections, once every one has arrived. */
function firstArrivals(collections: CollectionsUnderLoad, made: Collected[], limitMs: number) {
  const ids = new Set(made.map((one) => one.transactionId));
  const ours = (hook: ReceivedWebhook) =>
    ids.has(transactionOf(hook)) && collectionHookOf(hook, transactionOf(hook))?.event === 'collection.successful';
  return eventually(
    () => {
      const firsts = new Map<string, ReceivedWebhook>();
      for (const hook of collections.receiver.requests.filter(ours))
        if (!firsts.has(transactionOf(hook))) firsts.set(transactionOf(hook), hook);
      if (firsts.size < ids.size) throw new Error(`${ids.size - firsts.size} collections have no webhook yet`);
      return { firsts, all: collections.receiver.requests.filter(ours) };
    },
    limitMs,
    50,
  );
}

/** This process POSTing `body` signed, `connections` in flight, `count` times: requests per second. */
async function directPosts(
  collections: CollectionsUnderLoad,
  body: string,
  count: number,
  connections: number,
  ca: string,
) {
  const secret = collections.collectors[0]?.secret ?? '';
  const measurement = await closedLoop(
    () => ({
      url: collections.receiver.url('/direct'),
      method: 'POST',
      headers: signWebhook({ secret, body, timestamp: Math.floor(Date.now() / 1000), webhookId: randomUUID() }),
      body,
    }),
    { count, connections, limitSeconds: 60, ca },
  );
  return measurement.requestsPerSecond;
}

/**
 * Incoming collections end to end (issue 35: rail → ledger → event → webhook 2xx): sandbox transfers
 * into the collectors' GBP accounts through the gateway, each counted once its first
 * `collection.successful` has reached the HTTPS receiver on 127.0.0.1, signed by its business.
 * Then the direct POST of the same body to the same receiver: what delivery could be at most.
 */
export async function runCollections(
  collections: CollectionsUnderLoad,
  settings: LoadSettings,
  ca: string,
  costed: Costed,
): Promise<CollectionOutcome> {
  const title = 'POST …/incoming-transfer (collection → ledger → event → webhook)';
  const limitSeconds = settings.seconds * 4 + 30;
  const warmCount = WARM_UP_CONNECTIONS * 8;
  console.log(`… ${title}: ${warmCount} transfers of warm-up, then about ${settings.seconds} s measured`);
  const warm = await transfers(collections, warmCount, WARM_UP_CONNECTIONS, limitSeconds);
  const [sample] = (await firstArrivals(collections, warm.made, limitSeconds * 1000)).firsts.values();
  collections.receiver.requests.length = 0;

  const count = Math.max(settings.connections, Math.round(warm.measurement.requestsPerSecond * settings.seconds));
  const startedAt = performance.now();
  const startedAtMs = Date.now();
  const measured = await costed(
    'collection',
    async () => {
      const sent = await transfers(collections, count, settings.connections, limitSeconds);
      const arrived = await firstArrivals(collections, sent.made, limitSeconds * 1000).catch(() => undefined);
      return { ...sent, arrived };
    },
    (result) => result.made.length,
  );
  const problems: string[] = [];
  const { measurement, made, arrived } = measured;
  const refused = measurement.totalRequests - made.length + measurement.errors;
  if (refused > 0)
    problems.push(
      `collection: ${refused} transfers not answered 201 SUCCESSFUL (${JSON.stringify(measurement.statusCodes)})`,
    );
  if (warm.made.length !== warmCount)
    problems.push(`collection: ${warmCount - warm.made.length} warm-up transfers failed`);
  if (!arrived) problems.push(`collection: webhooks missing ${limitSeconds} s after the transfers`);
  const firsts = [...(arrived?.firsts.values() ?? [])];
  const lastArrival = Math.max(startedAtMs, ...firsts.map((hook) => hook.receivedAt.getTime()));
  const windowSeconds = (lastArrival - startedAtMs) / 1000;
  // answeredAt is performance.now(); arrivals are wall-clock: both measured from the phase's start.
  const answeredMs = new Map(made.map((one) => [one.transactionId, one.answeredAt - startedAt]));
  const afterAnswer = firsts
    .map((hook) => hook.receivedAt.getTime() - startedAtMs - (answeredMs.get(transactionOf(hook)) ?? NaN))
    .sort((a, b) => a - b);
  const all = arrived?.all ?? [];
  const unsigned = all.filter((hook) => !collections.signed(hook)).length;
  if (unsigned > 0) problems.push(`collection: ${unsigned} webhooks failed their signature check`);

  const body = sample?.rawBody ?? '{}';
  const postCount = Math.max(count, 200);
  console.log(`… direct POST: ${postCount} signed POSTs of a collection.successful body (${body.length} bytes)`);
  const directPostPerSecond = await directPosts(collections, body, postCount, settings.connections, ca);
  collections.receiver.requests.length = 0;

  return {
    collection: { key: 'collection', title, measurement, seconds: measurement.seconds },
    endToEndPerSecond: windowSeconds > 0 ? Math.round(made.length / windowSeconds) : 0,
    windowSeconds: Number(windowSeconds.toFixed(2)),
    afterAnswerP50Ms: Math.round(percentile(afterAnswer, 0.5)),
    afterAnswerP99Ms: Math.round(percentile(afterAnswer, 0.99)),
    deliveriesPerSecond: windowSeconds > 0 ? Math.round(all.length / windowSeconds) : 0,
    deliveries: all.length,
    repeats: all.length - firsts.length,
    unsigned,
    directPostPerSecond: Math.round(directPostPerSecond),
    made: [...warm.made, ...made],
    problems,
  };
}

export interface RefundOutcome {
  refund: PhaseResult;
  refundsCreated: number;
  /** From the first measured refund until the worker had decided every one. */
  settleSeconds: number;
  /** Refunds made, by business: what the books take off. */
  byBusiness: Map<string, number>;
  problems: string[];
}

/**
 * Refunds of the collections the collection phase made, each once (seed 4.4): a warm-up of the first
 * ones at 8 connections, the rest measured, then the refund worker's decisions until none is pending.
 */
export async function runRefunds(
  collections: CollectionsUnderLoad,
  made: Collected[],
  settings: LoadSettings,
  costed: Costed,
): Promise<RefundOutcome> {
  const title = 'POST /refund (of a collection: reserve, worker, rail)';
  const limitSeconds = settings.seconds * 4 + 30;
  const warmCount = Math.min(WARM_UP_CONNECTIONS * 10, Math.floor(made.length / 4));
  const [warmUp, rest] = [made.slice(0, warmCount), made.slice(warmCount)];
  console.log(`… ${title}: ${warmUp.length} refunds of warm-up, then the other ${rest.length} measured`);
  const send = (list: Collected[], connections: number) =>
    closedLoop(
      (index) => {
        const one = list[index];
        if (!one) throw new Error(`no collection ${index}`);
        return collections.refund(one.collector, one.transactionId);
      },
      { count: list.length, connections, limitSeconds },
    );
  const waitSettled = async () => {
    const deadline = performance.now() + limitSeconds * 1000;
    while (performance.now() < deadline) {
      if ((await collections.unsettledRefunds()) === 0) return true;
      await sleep(100);
    }
    return false;
  };
  const warm = await send(warmUp, WARM_UP_CONNECTIONS);
  await waitSettled();
  const startedAt = performance.now();
  const measured = await costed(
    'refund',
    async () => {
      const answers = await send(rest, settings.connections);
      return { answers, settled: await waitSettled() };
    },
    (result) => created(result.answers),
  );
  const settleSeconds = (performance.now() - startedAt) / 1000;
  const byBusiness = new Map<string, number>();
  const count = (list: Collected[], answers: LoopMeasurement) => {
    for (const answer of answers.answers)
      if (answer.status === 201) {
        const id = list[answer.index]?.collector.businessId ?? '';
        byBusiness.set(id, (byBusiness.get(id) ?? 0) + 1);
      }
  };
  count(warmUp, warm);
  count(rest, measured.answers);
  const problems: string[] = [];
  const refused = notCreated(warm) + notCreated(measured.answers);
  if (refused > 0)
    problems.push(`refund: ${refused} refunds not answered 201 (${JSON.stringify(measured.answers.statusCodes)})`);
  if (!measured.settled) problems.push(`refund: refunds still pending ${limitSeconds} s after the requests`);
  return {
    refund: { key: 'refund', title, measurement: measured.answers, seconds: measured.answers.seconds },
    refundsCreated: created(warm) + created(measured.answers),
    settleSeconds: Number(settleSeconds.toFixed(2)),
    byBusiness,
    problems,
  };
}

/** The nets collected by business, for the books. */
export function netsByBusiness(made: Collected[]): Map<string, number> {
  const nets = new Map<string, number>();
  for (const one of made) nets.set(one.collector.businessId, (nets.get(one.collector.businessId) ?? 0) + one.net);
  return nets;
}
