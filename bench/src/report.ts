import { cpus, loadavg } from 'node:os';
import type { LoadSettings } from './load.js';
import { ratio, type PhaseResult } from './phase.js';
import type { PaymentsOutcome } from './payments-phases.js';
import { SWAP_AMOUNT } from './payments-under-load.js';
import type { PayoutOutcome } from './payout-phases.js';
import { PAYOUT_AMOUNT } from './payouts-under-load.js';
import type { CollectionBooks } from './collections-under-load.js';
import type { CollectionOutcome, RefundOutcome, SpreadSwapOutcome } from './money-phases.js';
import { DAY_MIX, type DayOutcome } from './platform-day.js';
import type { RequestCost } from './request-costs.js';

/**
 * The load average travels with the figures: on a small shared machine another build running
 * alongside moves every number, and the baseline only absorbs part of that. Read when this module
 * loads, at the start of the run, before the bench's own load counts in it.
 */
const LOAD_AVERAGE_BEFORE = loadavg()[0] ?? 0;

export const machine = () => {
  const all = cpus();
  return {
    cpus: all.length,
    cpu_model: all[0]?.model.trim() ?? 'unknown',
    node: process.version,
    load_average_1m_before: Number(LOAD_AVERAGE_BEFORE.toFixed(2)),
    // The bench's own load is in it: read next to the figure before, not alone.
    load_average_1m_after: Number((loadavg()[0] ?? 0).toFixed(2)),
  };
};

/** A fixed-width table for the terminal. */
export function formatTable(
  phases: PhaseResult[],
  baseline: PhaseResult,
  whoami: PhaseResult,
  settings: LoadSettings,
): string {
  const { cpus: count, cpu_model: model, node, load_average_1m_before: load } = machine();
  const header = ['phase', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'non-2xx', 'errors', 'vs baseline', 'vs whoami'];
  const rows = phases.map((phase) => {
    const m = phase.measurement;
    return [
      phase.title,
      m.requestsPerSecond.toLocaleString('en'),
      String(m.latencyP50Ms),
      String(m.latencyP99Ms),
      m.cpuMicrosPerRequest === undefined ? '' : String(m.cpuMicrosPerRequest),
      String(m.non2xx),
      String(m.errors),
      `${(ratio(phase, baseline) * 100).toFixed(1)} %`,
      `${(ratio(phase, whoami) * 100).toFixed(1)} %`,
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ');
  const statuses = phases
    .filter((phase) => phase.measurement.non2xx > 0)
    .map((phase) => `  ${phase.title}: status counts ${JSON.stringify(phase.measurement.statusCodes)}`);
  return [
    `${settings.seconds} s per phase, ${settings.connections} connections, ${node}, ${count} × ${model}, load average before ${load}`,
    '',
    line(header),
    ...rows.map(line),
    ...(statuses.length > 0 ? ['', 'non-2xx answers (these phases measured refusals too):', ...statuses] : []),
  ].join('\n');
}

/** The swaps' figures next to whoami's, and whether the books add up after them. */
export function formatPayments(payments: PaymentsOutcome, whoami: PhaseResult): string {
  const swap = payments.swap.measurement;
  const { check, ledgerBalance, expectedLedgerBalance, moneyConserved } = payments.books;
  const n = (value: number) => value.toLocaleString('en');
  return [
    `swaps: ${n(swap.requestsPerSecond)} swaps/s over ${payments.swap.seconds ?? '?'} s (${n(swap.totalRequests)} swaps), ` +
      `p50 ${swap.latencyP50Ms} ms, p99 ${swap.latencyP99Ms} ms, ${ratio(payments.swap, whoami).toFixed(3)}× whoami's req/s`,
    `wallet reads: ${n(payments.wallet.measurement.requestsPerSecond)} req/s, ` +
      `${ratio(payments.wallet, whoami).toFixed(3)}× whoami's req/s`,
    `swaps answered 201 in all (before load, warm-up, measured): ${n(payments.swapsCreated)}; ` +
      `otherwise: ${payments.swapsNotCreated}; fee per swap: ${payments.feePerSwap}`,
    `ledger check: ok ${check.ok}, ${check.violations.length} violations, ${n(check.accounts_checked)} accounts, ` +
      `${n(check.transfers_checked)} transfers`,
    `USD ledger balance ${n(ledgerBalance)}; funding ${n(payments.funding)} - ${n(payments.swapsCreated)} × ` +
      `(${SWAP_AMOUNT} + ${payments.feePerSwap}) = ${n(expectedLedgerBalance)}`,
    `money conserved: ${moneyConserved ? 'yes' : 'no'}`,
  ].join('\n');
}

/** Payouts created through the gateway and settled by the worker, and whether the books add up. */
export function formatPayouts(payouts: PayoutOutcome, whoami: PhaseResult): string {
  const create = payouts.create.measurement;
  const { settlement } = payouts;
  const { check, ledgerBalance, pendingBalance, expectedLedgerBalance, moneyConserved } = payouts.books;
  const n = (value: number) => value.toLocaleString('en');
  return [
    `payouts created: ${n(create.requestsPerSecond)} payouts/s over ${payouts.create.seconds ?? '?'} s ` +
      `(${n(create.totalRequests)} payouts), p50 ${create.latencyP50Ms} ms, p99 ${create.latencyP99Ms} ms, ` +
      `${ratio(payouts.create, whoami).toFixed(3)}× whoami's req/s`,
    `payouts settled by the worker: ${n(settlement.perSecond)} payouts/s (${n(settlement.settled)} from the first ` +
      `create to none pending in ${settlement.seconds} s); ${n(settlement.backlogAtLastCreate)} unsettled when the ` +
      `last create was answered, settled ${settlement.drainSeconds} s after it` +
      (settlement.drainSeconds > 0
        ? ` (${n(Math.round(settlement.backlogAtLastCreate / settlement.drainSeconds))}/s with no creates arriving)`
        : ''),
    `payouts answered 201 in all (before load, warm-up, measured): ${n(payouts.payoutsCreated)}; ` +
      `otherwise: ${payouts.payoutsNotCreated}; fee per payout: ${payouts.feePerPayout}`,
    `ledger check: ok ${check.ok}, ${check.violations.length} violations, ${n(check.accounts_checked)} accounts, ` +
      `${n(check.transfers_checked)} transfers`,
    `NGN ledger balance ${n(ledgerBalance)}, pending ${n(pendingBalance)}; funding ${n(payouts.funding)} - ` +
      `${n(payouts.payoutsCreated)} × (${PAYOUT_AMOUNT} + ${payouts.feePerPayout}) = ${n(expectedLedgerBalance)}`,
    `money conserved: ${moneyConserved ? 'yes' : 'no'}`,
  ].join('\n');
}

const payoutsJson = (payouts: PayoutOutcome) => ({
  payouts_created: payouts.payoutsCreated,
  payouts_not_created: payouts.payoutsNotCreated,
  fee_per_payout: payouts.feePerPayout,
  settled: payouts.settlement.settled,
  settled_per_second: payouts.settlement.perSecond,
  settle_window_seconds: payouts.settlement.seconds,
  backlog_at_last_create: payouts.settlement.backlogAtLastCreate,
  drain_seconds: payouts.settlement.drainSeconds,
  ngn_ledger_balance: payouts.books.ledgerBalance,
  ngn_ledger_balance_expected: payouts.books.expectedLedgerBalance,
  money_conserved: payouts.books.moneyConserved,
  ledger_check_ok: payouts.books.check.ok,
});

const paymentsJson = (payments: PaymentsOutcome) => ({
  swaps_created: payments.swapsCreated,
  swaps_not_created: payments.swapsNotCreated,
  fee_per_swap: payments.feePerSwap,
  funding: payments.funding,
  usd_ledger_balance: payments.books.ledgerBalance,
  usd_ledger_balance_expected: payments.books.expectedLedgerBalance,
  money_conserved: payments.books.moneyConserved,
  ledger_check: {
    ok: payments.books.check.ok,
    violations: payments.books.check.violations.length,
    accounts_checked: payments.books.check.accounts_checked,
    transfers_checked: payments.books.check.transfers_checked,
  },
});

/** latest.json: objects only (no arrays), so prettier leaves the written file as it is. */
export function resultsJson(
  phases: PhaseResult[],
  baseline: PhaseResult,
  whoami: PhaseResult,
  payments: PaymentsOutcome,
  payouts: PayoutOutcome,
  settings: LoadSettings,
) {
  return {
    measured_at: new Date().toISOString(),
    machine: machine(),
    settings: { seconds_per_phase: settings.seconds, connections: settings.connections },
    phases: Object.fromEntries(
      phases.map((phase) => [
        phase.key,
        {
          title: phase.title,
          ...(phase.seconds === undefined ? {} : { seconds: phase.seconds }),
          requests_per_second: phase.measurement.requestsPerSecond,
          latency_ms: { p50: phase.measurement.latencyP50Ms, p99: phase.measurement.latencyP99Ms },
          ...(phase.measurement.cpuMicrosPerRequest === undefined
            ? {}
            : { cpu_micros_per_request: phase.measurement.cpuMicrosPerRequest }),
          non_2xx: phase.measurement.non2xx,
          errors: phase.measurement.errors,
          total_requests: phase.measurement.totalRequests,
          status_codes: phase.measurement.statusCodes,
          ratio_to_baseline: Number(ratio(phase, baseline).toFixed(4)),
          ratio_to_whoami: Number(ratio(phase, whoami).toFixed(4)),
        },
      ]),
    ),
    payments: paymentsJson(payments),
    payouts: payoutsJson(payouts),
  };
}

const fixed = (value: number | undefined, digits = 2) =>
  value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits);
const total = (record: Record<string, number> | undefined) =>
  record ? Object.values(record).reduce((sum, value) => sum + value, 0) : undefined;

/** One line a phase: statements, round trips, Redis, gRPC and CPU per request, summed over processes. */
export function formatCostSummary(costs: RequestCost[], statementsNote: string | undefined): string {
  const header = ['per request', 'requests', 'PG statements', 'PG round trips', 'Redis cmds', 'gRPC', 'CPU µs'];
  const rows = costs.map((cost) => [
    cost.title,
    cost.requests.toLocaleString('en'),
    fixed(total(cost.statementsPerRequest)),
    fixed(total(cost.roundTripsPerRequest)),
    `${fixed(cost.redisPerRequest)}${cost.redisShared ? '*' : ''}`,
    cost.grpc,
    String(total(cost.cpuMicros) ?? 0),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ');
  return [
    'what a money request costs (pg_stat_statements of the bench databases; Redis: the whole shared server; CPU: kernel accounting):',
    ...(statementsNote ? [`  statements: n/a (${statementsNote})`] : []),
    line(header),
    ...rows.map(line),
    ...(costs.some((cost) => cost.redisShared)
      ? ['  * other clients used the shared Redis meanwhile: their commands are in the count']
      : []),
    '  gRPC: one call gateway → payments per request (not counted: what payments calls besides is not either)',
  ].join('\n');
}

/** Each phase's costs by database and process, and the statements it runs most. */
export function formatCostDetails(costs: RequestCost[]): string {
  const by = (record: Record<string, number> | undefined, unit = '') =>
    Object.entries(record ?? {})
      .sort((a, b) => b[1] - a[1])
      .map(([name, value]) => `${name} ${value}${unit}`)
      .join(', ');
  return costs
    .map((cost) =>
      [
        `${cost.title} (${cost.requests.toLocaleString('en')} requests), per request:`,
        ...(cost.statementsPerRequest
          ? [
              `  PostgreSQL statements by database: ${by(cost.statementsPerRequest) || 'none'}`,
              `  round trips (top level, BEGIN and COMMIT included): ${by(cost.roundTripsPerRequest) || 'none'}`,
            ]
          : []),
        `  CPU µs by process: ${by(cost.cpuMicros)}`,
        ...(cost.top && cost.top.length > 0
          ? [
              '  top statements by calls per request:',
              ...cost.top.map(
                (entry) =>
                  `    ${entry.perRequest.toFixed(2).padStart(6)}  ${entry.service.padEnd(12)}  ${entry.query.slice(0, 110)}`,
              ),
            ]
          : []),
      ].join('\n'),
    )
    .join('\n');
}

/** The money phases issue 35 adds, next to pgbench's TPC-B-like run of the same run. */
export function formatMoney(money: MoneyReport): string {
  const n = (value: number) => value.toLocaleString('en');
  const { pgbench, spread, collections, refunds } = money;
  const of = (rate: number) => (pgbench.tps > 0 ? `${(rate / pgbench.tps).toFixed(3)}× pgbench` : '');
  const c = collections;
  return [
    `money phases at ${money.connections} connections (the table's other phases at its own):`,
    `pgbench tpcb-like: ${n(Math.round(pgbench.tps))} tps, ${pgbench.clients} clients, scale ${pgbench.scale}, ` +
      `latency ${pgbench.latencyAverageMs} ms, ${pgbench.failed} failed`,
    `swaps spread: ${n(spread.swap.measurement.requestsPerSecond)}/s (${of(spread.swap.measurement.requestsPerSecond)}), ` +
      `p50 ${spread.swap.measurement.latencyP50Ms} ms, p99 ${spread.swap.measurement.latencyP99Ms} ms; ` +
      `${n(spread.swapsCreated)} swaps in all; ledger check ${spread.books.check.ok ? 'ok' : 'NOT ok'}; ` +
      `money conserved: ${spread.books.moneyConserved ? 'yes' : 'no'}`,
    `collections end to end: ${n(c.endToEndPerSecond)}/s (${of(c.endToEndPerSecond)}) over ${c.windowSeconds} s; ` +
      `POSTs answered ${n(c.collection.measurement.requestsPerSecond)}/s, p50 ${c.collection.measurement.latencyP50Ms} ms, ` +
      `p99 ${c.collection.measurement.latencyP99Ms} ms; 201 → webhook p50 ${c.afterAnswerP50Ms} ms, p99 ${c.afterAnswerP99Ms} ms`,
    `webhooks: ${n(c.deliveries)} delivered (${c.repeats} repeats, ${c.unsigned} unsigned), ${n(c.deliveriesPerSecond)}/s ` +
      `(bounded by the collections' rate); direct POST of the same body: ${n(c.directPostPerSecond)}/s`,
    `refunds: ${n(refunds.refund.measurement.requestsPerSecond)}/s (${of(refunds.refund.measurement.requestsPerSecond)}), ` +
      `p50 ${refunds.refund.measurement.latencyP50Ms} ms, p99 ${refunds.refund.measurement.latencyP99Ms} ms; ` +
      `${n(refunds.refundsCreated)} refunds, all decided ${refunds.settleSeconds} s after the first measured`,
    `collections and refunds: ledger check ${money.collectionBooks.ledgerCheckOk ? 'ok' : 'NOT ok'}; every GBP wallet = ` +
      `funding + nets - refunds × (amount + fee): ${money.collectionBooks.moneyConserved ? 'yes' : 'no'}`,
  ].join('\n');
}

/** The platform's day: its mix's rate, and each route's latency at half of saturation. */
export function formatDay(day: DayOutcome): string {
  const share = new Map(DAY_MIX.map((entry) => [entry.route, entry.share]));
  const all = DAY_MIX.reduce((sum, entry) => sum + entry.share, 0);
  return [
    `a platform's day: saturation ${day.saturationPerSecond.toLocaleString('en')} req/s closed-loop; open loop at ` +
      `${day.ratePerSecond.toLocaleString('en')} req/s for ${day.seconds} s (latency from when each request was due)`,
    ...Object.entries(day.byRoute).map(
      ([route, figures]) =>
        `  ${route.padEnd(26)} ${String(Math.round(((share.get(route as never) ?? 0) * 100) / all)).padStart(3)} %  ` +
        `${String(figures.requests).padStart(6)} requests  p50 ${String(figures.p50Ms).padStart(6)} ms  ` +
        `p99 ${String(figures.p99Ms).padStart(7)} ms`,
    ),
  ].join('\n');
}

export interface MoneyReport {
  connections: number;
  pgbench: { tps: number; clients: number; scale: number; latencyAverageMs: number; failed: number };
  spread: SpreadSwapOutcome;
  collections: CollectionOutcome;
  refunds: RefundOutcome;
  collectionBooks: CollectionBooks;
}

export const costsJson = (costs: RequestCost[]) =>
  Object.fromEntries(
    costs.map((cost) => [
      cost.key,
      {
        requests: cost.requests,
        statements_per_request: cost.statementsPerRequest ?? null,
        round_trips_per_request: cost.roundTripsPerRequest ?? null,
        redis_commands_per_request: cost.redisShared ? null : cost.redisPerRequest,
        grpc: cost.grpc,
        cpu_micros_per_request: cost.cpuMicros,
        top_statements: Object.fromEntries(
          (cost.top ?? []).map((entry, index) => [
            String(index + 1),
            { service: entry.service, per_request: entry.perRequest, query: entry.query },
          ]),
        ),
      },
    ]),
  );

export function moneyJson(money: MoneyReport, day: DayOutcome) {
  const c = money.collections;
  return {
    pgbench: {
      tps: money.pgbench.tps,
      clients: money.pgbench.clients,
      scale: money.pgbench.scale,
      latency_average_ms: money.pgbench.latencyAverageMs,
    },
    swap_spread: { swaps_created: money.spread.swapsCreated, money_conserved: money.spread.books.moneyConserved },
    collections: {
      end_to_end_per_second: c.endToEndPerSecond,
      window_seconds: c.windowSeconds,
      answered_to_webhook_ms: { p50: c.afterAnswerP50Ms, p99: c.afterAnswerP99Ms },
      deliveries: c.deliveries,
      deliveries_per_second: c.deliveriesPerSecond,
      repeats: c.repeats,
      direct_post_per_second: c.directPostPerSecond,
    },
    refunds: { refunds_created: money.refunds.refundsCreated, settle_seconds: money.refunds.settleSeconds },
    collection_books: {
      ledger_check_ok: money.collectionBooks.ledgerCheckOk,
      money_conserved: money.collectionBooks.moneyConserved,
    },
    platform_day: {
      saturation_per_second: day.saturationPerSecond,
      rate_per_second: day.ratePerSecond,
      seconds: day.seconds,
      routes: Object.fromEntries(
        Object.entries(day.byRoute).map(([route, figures]) => [
          route,
          { requests: figures.requests, p50_ms: figures.p50Ms, p99_ms: figures.p99Ms },
        ]),
      ),
    },
  };
}
