import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBaselineServer, type BaselineServer } from './baseline-server.js';
import { startRequestParts, type RequestParts } from './ceilings.js';
import { startCorridor, type CorridorUnderLoad } from './corridor-under-load.js';
import { POSTGRES_ADMIN_URL } from '../../packages/testing/dist/index.js';
import { measureBackgroundCpu, withCpuPerRequest } from './cpu.js';
import { numberFromEnv } from './env.js';
import { startExpressBaseline, type ExpressBaseline } from './express-baseline.js';
import { prepareCollections } from './collections-under-load.js';
import {
  ceilingsJson,
  formatCeilings,
  formatGoals,
  formatLedgerShares,
  goalsJson,
  ledgerCeilings,
  moneyGoals,
  type LedgerShare,
  phaseProblems,
  requestCeilings,
  requestGoals,
} from './goals.js';
import { measureCalls, startGrpcPair, type GrpcPair } from './grpc-overhead.js';
import { runBench } from './lifecycle.js';
import { measure, warmUp, type LoadSettings, type Target } from './load.js';
import { netsByBusiness, runCollections, runRefunds, runSpreadSwaps } from './money-phases.js';
import type { Costed } from './payments-phases.js';
import { prepareSpreadSwaps } from './payments-under-load.js';
import { runPaymentsPhases } from './payments-phases.js';
import { runPayoutPhases } from './payout-phases.js';
import { measureLedgerPostings } from './ledger-postings.js';
import { measureTpcbLike } from './pgbench.js';
import { runPlatformDay } from './platform-day.js';
import {
  costsJson,
  formatCostDetails,
  formatCostSummary,
  formatDay,
  formatMoney,
  formatPayments,
  formatPayouts,
  formatTable,
  moneyJson,
  resultsJson,
} from './report.js';
import type { PhaseResult } from './phase.js';
import { withRequestCosts, type CostedProcesses, type RequestCost } from './request-costs.js';
import { Statements, type BenchDatabase } from './statements.js';

// Short and bounded on purpose: the whole run takes about a minute and always ends by itself.
const settings: LoadSettings = {
  seconds: numberFromEnv('BENCH_SECONDS', 10, 1, 60),
  connections: numberFromEnv('BENCH_CONNECTIONS', 32, 1, 256),
};
const WARM_UP_SECONDS = numberFromEnv('BENCH_WARM_UP_SECONDS', 2, 0, 30);
/** Issue 35's goals are "at 16 connections": the money phases' and pgbench's. */
const moneySettings: LoadSettings = {
  seconds: settings.seconds,
  connections: numberFromEnv('BENCH_MONEY_CONNECTIONS', 16, 1, 256),
};
/** Businesses the spread swaps rotate over, and collecting businesses (one webhook registration each). */
const SWAP_BUSINESSES = 16;
const COLLECTORS = 8;
/** Identity allows a business at most 100,000 requests a minute. */
const MONEY_RATE_LIMITS = { per_minute: 100_000, per_hour: 6_000_000 };
/**
 * BENCH_SMOKE=1 (npm test's run): every phase and check, for a second each, nothing recorded. It
 * proves the bench still runs and its phases still answer 2xx, not how fast they do.
 */
const SMOKE = process.env.BENCH_SMOKE === '1';
/** pgbench's scale: 10 (a million accounts, 10 branches) as bench:ledger; 1 in a smoke run, made in a second. */
const PGBENCH_SCALE = SMOKE ? 1 : 10;
/** Requests of the platform's day closed-loop, to find its saturation rate. */
const DAY_SATURATION_REQUESTS = SMOKE ? 40 : 200;
const RESULTS_FILE = fileURLToPath(new URL('../results/latest.json', import.meta.url));

let baselineServer: BaselineServer | undefined;
let expressBaseline: ExpressBaseline | undefined;
let corridor: CorridorUnderLoad | undefined;
let grpcPair: GrpcPair | undefined;
let parts: RequestParts | undefined;

async function cleanUp(): Promise<void> {
  await Promise.allSettled([
    baselineServer?.stop(),
    expressBaseline?.stop(),
    corridor?.stop(),
    grpcPair?.stop(),
    parts?.stop(),
  ]);
}

const announce = (title: string) =>
  console.log(`… ${title}: ${WARM_UP_SECONDS} s warm-up, then ${settings.seconds} s measured`);

async function phase(key: string, title: string, target: Target): Promise<PhaseResult> {
  announce(title);
  await warmUp(target, WARM_UP_SECONDS);
  return { key, title, measurement: await withCpuPerRequest(() => measure(target, settings)) };
}

/** A phase of calls this process makes itself (no HTTP): a gRPC no-op, or a part of a request called directly. */
async function callPhase(key: string, title: string, call: () => Promise<unknown>): Promise<PhaseResult> {
  announce(title);
  if (WARM_UP_SECONDS > 0) await measureCalls(call, { seconds: WARM_UP_SECONDS, connections: 8 });
  return { key, title, measurement: await withCpuPerRequest(() => measureCalls(call, settings)) };
}

/** The money phases' names in the cost tables. */
const COST_TITLES: Record<string, string> = {
  swap_spread: 'swap, spread over businesses',
  swap: 'swap, one wallet',
  payout: 'payout (create, worker, webhooks)',
  collection: 'collection end to end',
  refund: 'refund (create, worker)',
};

/**
 * One webhook delivery: notification's share of the collection phase (its database's statements,
 * its process and its backends' CPU), divided by the webhooks the receiver got.
 */
function deliveryCost(collection: RequestCost, deliveries: number): RequestCost {
  const scale = collection.requests / Math.max(deliveries, 1);
  const only = (record: Record<string, number> | undefined, names: string[]) =>
    record &&
    Object.fromEntries(
      Object.entries(record)
        .filter(([name]) => names.includes(name))
        .map(([name, value]) => [name, Number((value * scale).toFixed(2))]),
    );
  const statementsPerRequest = only(collection.statementsPerRequest, ['notification']);
  const roundTripsPerRequest = only(collection.roundTripsPerRequest, ['notification']);
  return {
    key: 'webhook_delivery',
    title: "webhook delivery (notification's share)",
    requests: deliveries,
    ...(statementsPerRequest ? { statementsPerRequest } : {}),
    ...(roundTripsPerRequest ? { roundTripsPerRequest } : {}),
    top: (collection.top ?? [])
      .filter((entry) => entry.service === 'notification')
      .map((entry) => ({ ...entry, perRequest: Number((entry.perRequest * scale).toFixed(2)) })),
    redisPerRequest: NaN,
    cpuMicros: only(collection.cpuMicros, ['notification', 'PostgreSQL: notification']) ?? {},
    grpc: 'none',
  };
}

/** A failed run shows what the services logged as errors (their output is kept in memory, not in files). */
function printServiceErrors(platform: CorridorUnderLoad['platform']): void {
  const services = {
    gateway: platform.gateway,
    payments: platform.paymentsService.process,
    notification: platform.notification,
    'customer-kyb': platform.customerKyb,
  };
  for (const [name, service] of Object.entries(services)) {
    const errors = (service?.output() ?? '').split('\n').filter((line) => /"level":(50|60)|\bERROR\b/.test(line));
    if (errors.length > 0)
      console.error(`${name}: ${errors.length} error lines, the last:\n${errors.slice(-5).join('\n')}`);
  }
}

const statementsNote = (statements: Statements) =>
  `PostgreSQL did not load pg_stat_statements (${statements.reason}); deploy/local/postgres.sh sets ` +
  'shared_preload_libraries: restart the server when nothing else uses it (bash deploy/local/infra.sh down, then up)';

async function main(): Promise<void> {
  const runStartedAt = performance.now();
  console.log('starting the gateway, identity and payments on free ports (own databases and topics)…');
  // Everything is started before the first phase, so all phases run on the same, equally busy machine.
  corridor = await startCorridor();
  baselineServer = await startBaselineServer();
  expressBaseline = await startExpressBaseline();
  grpcPair = await startGrpcPair();
  parts = await startRequestParts({
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    redisKeyPrefix: corridor.redisKeyPrefix,
    customerDatabaseUrl: corridor.customerDatabaseUrl,
    callers: corridor.readingCallers,
    identityDatabaseUrl: corridor.identityDatabaseUrl,
    identitySecretKey: corridor.identitySecretKey,
    credentials: corridor.tokenCredentials,
  });
  console.log(
    `preparing the money phases: ${SWAP_BUSINESSES} swapping businesses, ${COLLECTORS} collecting ones ` +
      '(a verified customer, a GBP account, a webhook registration each)…',
  );
  const { platform, payments: swapping, payouts: paying } = corridor;
  const money = {
    spread: await prepareSpreadSwaps(platform, SWAP_BUSINESSES, MONEY_RATE_LIMITS),
    collections: await prepareCollections(platform, corridor.receiver, COLLECTORS, MONEY_RATE_LIMITS),
  };
  const databases: BenchDatabase[] = [
    { service: 'identity', name: platform.db.name },
    ...(platform.customerDb ? [{ service: 'customer-kyb', name: platform.customerDb.name }] : []),
    ...(platform.notificationDb ? [{ service: 'notification', name: platform.notificationDb.name }] : []),
    ...(platform.paymentsService.db ? [{ service: 'payments', name: platform.paymentsService.db.name }] : []),
  ];
  const statements = await Statements.open(databases);
  if (statements.available && platform.paymentsService.db) {
    // payments' statements inside a function count too: its connections are opened again with track = all.
    await Statements.trackNested(platform.paymentsService.db.name);
    await platform.paymentsService.restart('SIGTERM');
  }
  const processes: CostedProcesses = {
    services: () =>
      new Map([
        ['gateway', platform.gateway.servicePid()],
        ['identity', platform.identity.servicePid()],
        ['customer-kyb', platform.customerKyb?.servicePid()],
        ['notification', platform.notification?.servicePid()],
        ['payments', platform.paymentsService.process?.servicePid()],
      ]),
    databases,
    adminUrl: POSTGRES_ADMIN_URL,
  };
  const costs: RequestCost[] = [];
  const costed: Costed = async (key, run, requestsOf) => {
    const { result, cost } = await withRequestCosts(
      { key, title: COST_TITLES[key] ?? key, grpc: '1 g→p' },
      statements,
      processes,
      run,
      requestsOf,
    );
    costs.push(cost);
    return result;
  };
  const booksAfterTheDay = async (swaps: number, payoutsMade: number): Promise<string[]> => {
    const found: string[] = [];
    const deadline = performance.now() + 60_000;
    while ((await paying.unsettled()) > 0 && performance.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const swapBooks = await swapping.books(swaps);
    const payoutBooks = await paying.books(payoutsMade);
    if (!swapBooks.check.ok) found.push(`after the day: ledger check ${JSON.stringify(swapBooks.check.violations)}`);
    if (!swapBooks.moneyConserved)
      found.push(`after the day: USD ${swapBooks.ledgerBalance}, expected ${swapBooks.expectedLedgerBalance}`);
    if (!payoutBooks.moneyConserved)
      found.push(
        `after the day: NGN ${payoutBooks.ledgerBalance} (pending ${payoutBooks.pendingBalance}), ` +
          `expected ${payoutBooks.expectedLedgerBalance}`,
      );
    return found;
  };

  const idle = await measureBackgroundCpu();
  console.log(`background CPU with no load: ${idle.toFixed(2)} cores (left out of each phase's CPU per request)`);

  const baseline = await phase('baseline', 'node:http hello world (baseline)', { url: baselineServer.url });
  const express = await phase('express', 'bare express 5, own process', { url: expressBaseline.url });
  const healthz = await phase('healthz', 'GET /healthz (gateway, no auth)', corridor.healthzRequest);
  const tokens = await phase('oauth_token', 'POST /oauth/token (gateway → identity)', corridor.tokenRequest);
  const whoami = await phase('whoami', 'GET /api/external/whoami (gateway)', corridor.whoamiRequest);
  const whoamiUntraced = await phase(
    'whoami_untraced',
    'GET /api/external/whoami, a gateway without tracing',
    corridor.untracedWhoamiRequest,
  );
  const whoamiUnsampled = await phase(
    'whoami_unsampled',
    'GET /api/external/whoami, a gateway tracing with no span sampled',
    corridor.unsampledWhoamiRequest,
  );
  const customerRead = await phase(
    'customer_read',
    'GET /api/external/customer/{id} (→ customer-kyb)',
    corridor.customerReadRequest,
  );
  const grpcBare = await callPhase('grpc_bare', 'gRPC no-op, bare grpc-js client and server', grpcPair.bareCall);
  const grpcCorridor = await callPhase('grpc_corridor', 'gRPC no-op through @corridor/grpc', grpcPair.corridorCall);
  const guard = await callPhase('redis_guard', "the gateway's Redis guard, called directly", parts.guardCall);
  const customerStatement = await callPhase(
    'customer_statement',
    "customer-kyb's read statement, called directly",
    parts.customerStatementCall,
  );
  const grant = await callPhase(
    'token_grant',
    "identity's grant (statement, secret, signature), called directly",
    parts.grantCall,
  );

  console.log(
    `… pgbench tpcb-like: ${moneySettings.connections} clients, scale ${PGBENCH_SCALE}, ${settings.seconds} s`,
  );
  const pgbench = await measureTpcbLike({
    clients: moneySettings.connections,
    seconds: settings.seconds,
    scale: PGBENCH_SCALE,
  });
  const postings = await measureLedgerPostings({
    writers: moneySettings.connections,
    warmUpSeconds: WARM_UP_SECONDS,
    seconds: settings.seconds,
  });
  const spread = await runSpreadSwaps(money.spread, moneySettings, costed);
  const payments = await runPaymentsPhases(corridor.payments, moneySettings, WARM_UP_SECONDS, costed);
  const payouts = await runPayoutPhases(corridor.payouts, moneySettings, costed);
  const collections = await runCollections(money.collections, moneySettings, corridor.certificates.caPem, costed);
  const refunds = await runRefunds(money.collections, collections.made, moneySettings, costed);
  const day = await runPlatformDay(
    {
      whoami: corridor.whoamiRequest,
      customerRead: corridor.customerReadRequest,
      customerWriter: corridor.customerWriter,
      payments: corridor.payments,
      payouts: corridor.payouts,
      collections: money.collections,
    },
    { seconds: settings.seconds, connections: moneySettings.connections, saturationRequests: DAY_SATURATION_REQUESTS },
  );
  // The books after every phase that moved money, the day's swaps, payouts and collections included.
  const dayBooks = await booksAfterTheDay(payments.swapsCreated + day.swaps, payouts.payoutsCreated + day.payouts);
  const collectionBooks = await money.collections.books(
    netsByBusiness([...collections.made, ...day.collected]),
    refunds.byBusiness,
  );
  const collectionCost = costs.find((cost) => cost.key === 'collection');
  if (collectionCost) costs.push(deliveryCost(collectionCost, collections.deliveries));
  const phases = [
    baseline,
    express,
    healthz,
    tokens,
    whoami,
    whoamiUntraced,
    whoamiUnsampled,
    customerRead,
    grpcBare,
    grpcCorridor,
    guard,
    customerStatement,
    grant,
    spread.swap,
    payments.swap,
    payments.wallet,
    payouts.create,
    collections.collection,
    refunds.refund,
  ];
  const goals = requestGoals({
    express,
    healthz,
    whoami,
    whoamiUntraced,
    customerRead,
    token: tokens,
    grpcBare,
    grpcCorridor,
  });

  const ceilings = requestCeilings({
    healthz,
    whoami,
    whoamiUntraced,
    whoamiUnsampled,
    grpcBare,
    guard,
    customerStatement,
    grant,
  });
  const whoamiCeiling = ceilings.find((c) => c.name === 'whoami req/s ÷ /healthz')?.value ?? 0;
  const figure = (phase: PhaseResult) => ({
    perSecond: phase.measurement.requestsPerSecond,
    p99Ms: phase.measurement.latencyP99Ms,
  });
  const money35 = moneyGoals({
    pgbenchTps: pgbench.tps,
    swapSpread: figure(spread.swap),
    swapOneWallet: figure(payments.swap),
    payout: figure(payouts.create),
    payoutsSettledPerSecond: payouts.settlement.perSecond,
    collection: { ...figure(collections.collection), endToEndPerSecond: collections.endToEndPerSecond },
    refund: figure(refunds.refund),
    deliveriesPerSecond: collections.deliveriesPerSecond,
    directPostPerSecond: collections.directPostPerSecond,
    whoamiOverHealthz: goals.find((g) => g.name === 'whoami req/s ÷ /healthz')?.value ?? 0,
    whoamiCeiling,
  });
  const posting = (key: keyof typeof postings, what: string) => ({
    postingPerSecond: postings[key].pgbench.tps,
    postingThroughPaymentsPerSecond: postings[key].commitsPerSecond,
    posting: `${postings[key].title}: ${what}`,
  });
  const shares: LedgerShare[] = [
    {
      goal: 'swaps spread ÷ pgbench tpcb-like',
      route: 'POST /swap, spread',
      perSecond: spread.swap.measurement.requestsPerSecond,
      ...posting('swap_spread', '3 linked transfers, 16 businesses'),
    },
    {
      goal: 'swaps on one wallet ÷ pgbench',
      route: 'POST /swap, one wallet',
      perSecond: payments.swap.measurement.requestsPerSecond,
      ...posting('swap_one_wallet', '3 linked transfers, one wallet'),
    },
    {
      goal: 'payout creates ÷ pgbench',
      route: 'POST /payout',
      perSecond: payouts.create.measurement.requestsPerSecond,
      ...posting('payout_reserve', 'amount and fee reserved'),
    },
    {
      goal: 'collections end to end ÷ pgbench',
      route: 'incoming collection',
      perSecond: collections.endToEndPerSecond,
      ...posting('collection_credit', 'amount in, fee out'),
    },
    {
      goal: 'refunds ÷ pgbench',
      route: 'POST /refund',
      perSecond: refunds.refund.measurement.requestsPerSecond,
      ...posting('payout_reserve', "a refund's reserve has the same shape; its worker then posts it"),
    },
  ];
  const moneyCeilings = ledgerCeilings(pgbench.tps, shares, money35);
  const moneyReport = {
    connections: moneySettings.connections,
    pgbench,
    spread,
    collections,
    refunds,
    collectionBooks,
  };
  console.log(
    `\n${formatTable(phases, baseline, whoami, settings)}\n\n${formatGoals(goals)}\n\n${formatCeilings(ceilings)}\n\n` +
      `${formatPayments(payments, whoami)}\n\n${formatPayouts(payouts, whoami)}\n\n${formatMoney(moneyReport)}\n\n` +
      `${formatDay(day)}\n\n${formatCostSummary(costs, statements.available ? undefined : statementsNote(statements))}\n\n` +
      `${formatCostDetails(costs)}\n\n` +
      `${formatGoals(money35, `issue 35 goals (money phases at ${moneySettings.connections} connections; ratios within this run):`)}\n\n` +
      `${formatCeilings(
        moneyCeilings,
        "ceilings from the ledger (each route's posting, ledger_apply run by pgbench -f with no Node, ÷ pgbench tpcb-like; same run, same connections):",
      )}\n\n` +
      `${formatLedgerShares(shares)}\n`,
  );
  // A run whose requests were refused or whose books do not add up measured something else: not recorded.
  const problems = [
    ...phaseProblems(phases),
    ...payments.problems,
    ...payouts.problems,
    ...spread.problems,
    ...collections.problems,
    ...refunds.problems,
    ...day.problems,
    ...dayBooks,
    ...(collectionBooks.ledgerCheckOk ? [] : [`collections: ledger check, ${collectionBooks.violations} violations`]),
    ...collectionBooks.wrongWallets.map((wallet) => `collections: GBP wallet ${wallet}`),
  ];
  console.log(`the run took ${Math.round((performance.now() - runStartedAt) / 1000)} s`);
  if (problems.length > 0) {
    printServiceErrors(platform);
    throw new Error(problems.join('; '));
  }
  if (SMOKE) {
    console.log('smoke run: every phase answered 2xx; nothing recorded');
    return;
  }
  await mkdir(dirname(RESULTS_FILE), { recursive: true });
  const results = {
    ...resultsJson(phases, baseline, whoami, payments, payouts, settings),
    goals: goalsJson(goals),
    issue_35_goals: goalsJson(money35),
    money: moneyJson(moneyReport, day),
    per_request: costsJson(costs),
    ceilings: ceilingsJson(ceilings),
    issue_35_ceilings: ceilingsJson(moneyCeilings),
    ledger_postings: Object.fromEntries(
      shares.map((share) => [
        share.route,
        {
          per_second: share.perSecond,
          posting_pgbench_per_second: share.postingPerSecond,
          posting_apply_transfers_per_second: share.postingThroughPaymentsPerSecond,
        },
      ]),
    ),
  };
  await writeFile(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${RESULTS_FILE}`);
}

await runBench(main, cleanUp);
