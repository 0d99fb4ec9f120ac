import { ratio, type PhaseResult } from './phase.js';

/** One of issue 14's targets: a ratio between two phases of the same run, and the least it may be. */
export interface Goal {
  name: string;
  value: number;
  /** The ratio must be at least this (or, for `atMost`, at most). */
  bound: number;
  atMost?: boolean;
  met: boolean;
}

const p99 = (phase: PhaseResult) => phase.measurement.latencyP99Ms;

function goal(name: string, value: number, bound: number, atMost = false): Goal {
  const rounded = Number.isFinite(value) ? Number(value.toFixed(3)) : 0;
  return { name, value: rounded, bound, atMost, met: atMost ? rounded <= bound : rounded >= bound };
}

/** Issue 14's request-path targets, each a ratio in this run. */
export function requestGoals(phases: {
  express: PhaseResult;
  healthz: PhaseResult;
  whoami: PhaseResult;
  whoamiUntraced: PhaseResult;
  customerRead: PhaseResult;
  token: PhaseResult;
  grpcBare: PhaseResult;
  grpcCorridor: PhaseResult;
}): Goal[] {
  const { express, healthz, whoami, whoamiUntraced, customerRead, token, grpcBare, grpcCorridor } = phases;
  return [
    goal('gateway /healthz req/s ÷ bare express', ratio(healthz, express), 0.9),
    goal('whoami traced ÷ untraced req/s', ratio(whoami, whoamiUntraced), 0.9),
    goal('whoami req/s ÷ /healthz', ratio(whoami, healthz), 0.85),
    goal('whoami p99 ÷ /healthz p99', p99(whoami) / Math.max(p99(healthz), 1), 1.2, true),
    goal('GET /customer/{id} req/s ÷ whoami', ratio(customerRead, whoami), 0.5),
    goal('POST /oauth/token req/s ÷ whoami', ratio(token, whoami), 0.3),
    goal('gRPC no-op via @corridor/grpc ÷ bare grpc-js', ratio(grpcCorridor, grpcBare), 0.8),
  ];
}

/** The most a target's ratio can be on this machine, from the CPU its parts cost alone in this run. */
export interface Ceiling {
  name: string;
  /** The highest ratio the parts' CPU allows. */
  value: number;
  bound: number;
  parts: string;
}

const cpu = (phase: PhaseResult) => phase.measurement.cpuMicrosPerRequest ?? 0;

function ceiling(name: string, reference: number, parts: number[], bound: number, described: string): Ceiling {
  const cost = parts.reduce((sum, part) => sum + part, 0);
  return { name, value: cost > 0 ? Number((reference / cost).toFixed(3)) : 0, bound, parts: described };
}

/**
 * A request costs at least the CPU of the parts it cannot do without, each measured alone in this
 * run (a whole machine's CPU per request, cpu.ts): so its rate can be at most the reference's CPU
 * per request ÷ the parts' sum times the reference's rate, whatever is made faster around them.
 * Where that is under a target's bound, the target needs a part left out (a guarantee), not speed.
 */
export function requestCeilings(phases: {
  healthz: PhaseResult;
  whoami: PhaseResult;
  whoamiUntraced: PhaseResult;
  whoamiUnsampled: PhaseResult;
  grpcBare: PhaseResult;
  guard: PhaseResult;
  customerStatement: PhaseResult;
  grant: PhaseResult;
}): Ceiling[] {
  const { healthz, whoami, whoamiUntraced, whoamiUnsampled, grpcBare, guard, customerStatement, grant } = phases;
  return [
    ceiling(
      'whoami traced ÷ untraced req/s',
      cpu(whoamiUntraced),
      [cpu(whoamiUnsampled)],
      0.9,
      'a request through the instrumentation with no span recorded (the least that tracing on costs)',
    ),
    ceiling(
      'whoami req/s ÷ /healthz',
      cpu(healthz),
      [cpu(healthz), cpu(guard)],
      0.85,
      '/healthz + the Redis guard (revocation and exact rate limits)',
    ),
    // Decision 0044: the ceiling above leaves out whoami's server span, which "tracing on" keeps.
    ceiling(
      'whoami req/s ÷ /healthz, tracing on',
      cpu(healthz),
      [cpu(healthz), cpu(guard), Math.max(0, cpu(whoami) - cpu(whoamiUntraced))],
      0.85,
      '/healthz + the Redis guard + what tracing costs whoami (traced − untraced): the ceiling with its span kept',
    ),
    ceiling(
      'GET /customer/{id} req/s ÷ whoami',
      cpu(whoami),
      [cpu(whoami), cpu(grpcBare), cpu(customerStatement)],
      0.5,
      'whoami + a bare gRPC no-op + the read statement',
    ),
    ceiling(
      'POST /oauth/token req/s ÷ whoami',
      cpu(whoami),
      [cpu(whoami), cpu(grpcBare), cpu(grant)],
      0.3,
      "whoami (an HTTP request checked against Redis, as the token endpoint's limiter does) + a bare gRPC no-op + identity's grant",
    ),
  ];
}

/** A money phase's figures the goals read: its rate and its p99 at the money phases' connections. */
export interface MoneyFigure {
  perSecond: number;
  p99Ms: number;
}

/**
 * Issue 35's goals, each a ratio in this run: the money phases against pgbench's TPC-B-like run on
 * the same server with the same connections, the payout worker against the creates, webhook delivery
 * (as the collection phase saw it) against the direct POST, each money route's p99, and whoami ÷
 * /healthz against the most its parts allow (the ceiling). Printed, never failing the run.
 */
export function moneyGoals(figures: {
  pgbenchTps: number;
  swapSpread: MoneyFigure;
  swapOneWallet: MoneyFigure;
  payout: MoneyFigure;
  payoutsSettledPerSecond: number;
  /** The POSTs' rate and p99; `endToEndPerSecond` is what the goal reads. */
  collection: MoneyFigure & { endToEndPerSecond: number };
  refund: MoneyFigure;
  deliveriesPerSecond: number;
  directPostPerSecond: number;
  whoamiOverHealthz: number;
  whoamiCeiling: number;
}): Goal[] {
  const { pgbenchTps: tps } = figures;
  const of = (rate: number) => (tps > 0 ? rate / tps : 0);
  return [
    goal('swaps spread ÷ pgbench tpcb-like', of(figures.swapSpread.perSecond), 0.4),
    goal('swaps on one wallet ÷ pgbench', of(figures.swapOneWallet.perSecond), 0.2),
    goal('payout creates ÷ pgbench', of(figures.payout.perSecond), 0.33),
    goal('collections end to end ÷ pgbench', of(figures.collection.endToEndPerSecond), 0.2),
    goal('refunds ÷ pgbench', of(figures.refund.perSecond), 0.3),
    goal(
      'payouts settled ÷ created per second',
      figures.payout.perSecond > 0 ? figures.payoutsSettledPerSecond / figures.payout.perSecond : 0,
      1,
    ),
    // Bounded by the collections' own rate: the burst capacity is bench:webhooks' to measure.
    goal('webhook deliveries per second (collections)', figures.deliveriesPerSecond, 1500),
    goal(
      'webhook deliveries ÷ direct POST',
      figures.directPostPerSecond > 0 ? figures.deliveriesPerSecond / figures.directPostPerSecond : 0,
      0.3,
    ),
    goal('p99 ms: swap spread', figures.swapSpread.p99Ms, 100, true),
    goal('p99 ms: swap on one wallet', figures.swapOneWallet.p99Ms, 100, true),
    goal('p99 ms: payout create', figures.payout.p99Ms, 100, true),
    goal('p99 ms: incoming collection', figures.collection.p99Ms, 100, true),
    goal('p99 ms: refund', figures.refund.p99Ms, 100, true),
    goal(
      'whoami ÷ /healthz, share of its ceiling',
      figures.whoamiCeiling > 0 ? figures.whoamiOverHealthz / figures.whoamiCeiling : 0,
      0.85,
    ),
  ];
}

/** A money route's rate in this run, next to the rate of the ledger's posting it makes. */
export interface LedgerShare {
  /** The issue 35 goal it bounds, by name. */
  goal: string;
  route: string;
  perSecond: number;
  /** The posting as a pgbench script calling ledger_apply: PostgreSQL alone, the most it can do. */
  postingPerSecond: number;
  /** The same posting through payments' code (applyTransfers), one call at a time per connection. */
  postingThroughPaymentsPerSecond: number;
  posting: string;
}

/**
 * Issue 35's ratio goals against the ledger (decision 0070): a request of a money route makes its
 * posting (bench's ledger-postings.ts) and more, so the route's ratio to pgbench can be at most the
 * posting's own. Where that is under the goal's bound, no cut above the ledger reaches the goal.
 */
export function ledgerCeilings(pgbenchTps: number, shares: LedgerShare[], goals: Goal[]): Ceiling[] {
  return shares.map((share) => ({
    name: share.goal,
    value: pgbenchTps > 0 ? Number((share.postingPerSecond / pgbenchTps).toFixed(3)) : 0,
    bound: goals.find((goal) => goal.name === share.goal)?.bound ?? 0,
    parts: share.posting,
  }));
}

export function formatLedgerShares(shares: LedgerShare[]): string {
  const width = Math.max(...shares.map((share) => share.route.length));
  return [
    "money routes ÷ the ledger's own posting of them (same run, same connections; ledger_apply by pgbench -f, and through payments' applyTransfers):",
    ...shares.map((share) => {
      const of = (rate: number) => (rate > 0 ? share.perSecond / rate : 0).toFixed(3);
      return (
        `  ${share.route.padEnd(width)}  ${share.perSecond.toFixed(0).padStart(5)}/s: ` +
        `${of(share.postingPerSecond)} of ${share.postingPerSecond.toFixed(0)}/s (pgbench -f), ` +
        `${of(share.postingThroughPaymentsPerSecond)} of ${share.postingThroughPaymentsPerSecond.toFixed(0)}/s (applyTransfers)`
      );
    }),
  ].join('\n');
}

export function formatCeilings(
  ceilings: Ceiling[],
  title = "ceilings (the most each ratio can be here, from its parts' CPU per request in this run):",
): string {
  const width = Math.max(...ceilings.map((c) => c.name.length));
  return [
    title,
    ...ceilings.map(
      (c) =>
        `  ${c.name.padEnd(width)}  ≤ ${c.value.toFixed(3).padStart(5)}  (target ≥ ${c.bound}${c.value < c.bound ? ', out of reach' : ''}): ${c.parts}`,
    ),
  ].join('\n');
}

export function formatGoals(goals: Goal[], title = 'issue 14 targets (ratios within this run):'): string {
  const width = Math.max(...goals.map((g) => g.name.length));
  return [
    title,
    ...goals.map(
      (g) =>
        `  ${g.name.padEnd(width)}  ${g.value.toFixed(3).padStart(7)}  ${g.atMost ? '≤' : '≥'} ${g.bound}  ${g.met ? 'met' : 'NOT met'}`,
    ),
  ].join('\n');
}

/** A phase that got refusals or no answers measured something else: the run says so and fails. */
export function phaseProblems(phases: PhaseResult[]): string[] {
  return phases
    .filter((phase) => phase.measurement.non2xx > 0 || phase.measurement.errors > 0)
    .map(
      (phase) =>
        `${phase.key}: ${phase.measurement.non2xx} non-2xx ${JSON.stringify(phase.measurement.statusCodes)}, ` +
        `${phase.measurement.errors} errors`,
    );
}

/** latest.json's goals: objects keyed by name (no arrays, so prettier leaves the file as written). */
export const goalsJson = (goals: Goal[]) =>
  Object.fromEntries(
    goals.map((g) => [g.name, { value: g.value, bound: g.bound, at_most: g.atMost ?? false, met: g.met }]),
  );

/** latest.json's ceilings, keyed by name like its goals. */
export const ceilingsJson = (ceilings: Ceiling[]) =>
  Object.fromEntries(ceilings.map((c) => [c.name, { at_most: c.value, target: c.bound, parts: c.parts }]));
