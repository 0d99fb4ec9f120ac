import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBaselineServer, type BaselineServer } from './baseline-server.js';
import { startRequestParts, type RequestParts } from './ceilings.js';
import { startCorridor, type CorridorUnderLoad } from './corridor-under-load.js';
import { measureBackgroundCpu, withCpuPerRequest } from './cpu.js';
import { numberFromEnv } from './env.js';
import { startExpressBaseline, type ExpressBaseline } from './express-baseline.js';
import { formatCeilings, formatGoals, goalsJson, phaseProblems, requestCeilings, requestGoals } from './goals.js';
import { measureCalls, startGrpcPair, type GrpcPair } from './grpc-overhead.js';
import { runBench } from './lifecycle.js';
import { measure, warmUp, type LoadSettings, type Target } from './load.js';
import { runPaymentsPhases } from './payments-phases.js';
import { runPayoutPhases } from './payout-phases.js';
import { formatPayments, formatPayouts, formatTable, resultsJson, type PhaseResult } from './report.js';

// Short and bounded on purpose: the whole run takes about a minute and always ends by itself.
const settings: LoadSettings = {
  seconds: numberFromEnv('BENCH_SECONDS', 10, 1, 60),
  connections: numberFromEnv('BENCH_CONNECTIONS', 32, 1, 256),
};
const WARM_UP_SECONDS = numberFromEnv('BENCH_WARM_UP_SECONDS', 2, 0, 30);
/**
 * BENCH_SMOKE=1 (npm test's run): every phase and check, for a second each, nothing recorded. It
 * proves the bench still runs and its phases still answer 2xx, not how fast they do.
 */
const SMOKE = process.env.BENCH_SMOKE === '1';
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

async function main(): Promise<void> {
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
  const payments = await runPaymentsPhases(corridor.payments, settings, WARM_UP_SECONDS);
  const payouts = await runPayoutPhases(corridor.payouts, settings);
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
    payments.swap,
    payments.wallet,
    payouts.create,
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
  console.log(
    `\n${formatTable(phases, baseline, whoami, settings)}\n\n${formatGoals(goals)}\n\n${formatCeilings(ceilings)}\n\n` +
      `${formatPayments(payments, whoami)}\n\n${formatPayouts(payouts, whoami)}\n`,
  );
  // A run whose requests were refused or whose books do not add up measured something else: not recorded.
  const problems = [...phaseProblems(phases), ...payments.problems, ...payouts.problems];
  if (problems.length > 0) throw new Error(problems.join('; '));
  if (SMOKE) {
    console.log('smoke run: every phase answered 2xx; nothing recorded');
    return;
  }
  await mkdir(dirname(RESULTS_FILE), { recursive: true });
  const results = {
    ...resultsJson(phases, baseline, whoami, payments, payouts, settings),
    goals: goalsJson(goals),
    ceilings: Object.fromEntries(ceilings.map((c) => [c.name, { at_most: c.value, target: c.bound, parts: c.parts }])),
  };
  await writeFile(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${RESULTS_FILE}`);
}

await runBench(main, cleanUp);
