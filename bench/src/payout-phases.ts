import { measureCount, type CountedMeasurement, type LoadSettings } from './load.js';
import type { Costed } from './payments-phases.js';
import { PAYOUT_AMOUNT, type PayoutBooks, type PayoutsUnderLoad } from './payouts-under-load.js';
import type { PhaseResult } from './phase.js';

const WARM_UP_CONNECTIONS = 8;
const WARM_UP_PAYOUTS = WARM_UP_CONNECTIONS * 20;
const SAMPLE_MS = 100;

/** How fast payments' worker took the measured payouts from pending to successful. */
export interface Settlement {
  /** Payouts of the measured phase (all settled by the end). */
  settled: number;
  /** From the first measured create to the moment none was unsettled. */
  seconds: number;
  perSecond: number;
  /** Payouts still unsettled when the last create was answered, and how long they took after it. */
  backlogAtLastCreate: number;
  drainSeconds: number;
}

export interface PayoutOutcome {
  create: PhaseResult;
  settlement: Settlement;
  payoutsCreated: number;
  payoutsNotCreated: number;
  feePerPayout: number;
  funding: number;
  books: PayoutBooks;
  /** Why the run must fail; empty when every payout was 201, settled, and the books add up. */
  problems: string[];
}

const created = (measurement: CountedMeasurement) => measurement.statusCodes['201'] ?? 0;
const notCreated = (measurement: CountedMeasurement) =>
  measurement.totalRequests - created(measurement) + measurement.errors;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until no payout is unsettled; when that was seen (ms, performance.now), or undefined past the limit. */
async function allSettled(payouts: PayoutsUnderLoad, limitSeconds: number): Promise<number | undefined> {
  const deadline = performance.now() + limitSeconds * 1000;
  while (performance.now() < deadline) {
    if ((await payouts.unsettled()) === 0) return performance.now();
    await sleep(SAMPLE_MS);
  }
  return undefined;
}

/**
 * Payouts created through the gateway (a fixed number of requests sized from the warm-up's rate,
 * as the swap phase), then the worker's settlement of exactly those: the window runs from the first
 * measured create until the NGN wallet holds nothing pending.
 */
export async function runPayoutPhases(
  payouts: PayoutsUnderLoad,
  settings: LoadSettings,
  costed: Costed = (_key, run) => run(),
): Promise<PayoutOutcome> {
  const title = 'POST /api/external/payout (gateway → payments → ledger reserve)';
  const limitSeconds = settings.seconds * 4 + 30;
  console.log(`… ${title}: ${WARM_UP_PAYOUTS} payouts of warm-up, then about ${settings.seconds} s measured`);
  const warm = await measureCount(payouts.payoutRequest, {
    requests: WARM_UP_PAYOUTS,
    connections: WARM_UP_CONNECTIONS,
    limitSeconds,
  });
  // The measured window starts with nothing left for the worker from the warm-up.
  const warmSettled = await allSettled(payouts, limitSeconds);

  const requests = Math.max(settings.connections, Math.round(warm.requestsPerSecond * settings.seconds));
  const startedAt = performance.now();
  // The costs cover each payout whole: its create, the worker's submission and settlement, its webhooks.
  const { measured, lastCreateAt, backlogAtLastCreate, settledAt } = await costed(
    'payout',
    async () => {
      const answers = await measureCount(payouts.payoutRequest, {
        requests,
        connections: settings.connections,
        limitSeconds,
      });
      const lastCreate = performance.now();
      const backlog = await payouts.unsettled();
      console.log(`… payouts settled by the worker: ${backlog} still unsettled after the last create`);
      return {
        measured: answers,
        lastCreateAt: lastCreate,
        backlogAtLastCreate: backlog,
        settledAt: await allSettled(payouts, limitSeconds),
      };
    },
    (result) => created(result.measured),
  );

  const seconds = ((settledAt ?? performance.now()) - startedAt) / 1000;
  const settlement: Settlement = {
    settled: created(measured),
    seconds: Number(seconds.toFixed(2)),
    perSecond: seconds > 0 ? Math.round(created(measured) / seconds) : 0,
    backlogAtLastCreate,
    drainSeconds: Number((((settledAt ?? performance.now()) - lastCreateAt) / 1000).toFixed(2)),
  };

  const payoutsCreated = payouts.payoutsBeforeLoad + created(warm) + created(measured);
  const payoutsNotCreated = notCreated(warm) + notCreated(measured);
  const books = await payouts.books(payoutsCreated);
  const problems: string[] = [];
  if (payoutsNotCreated > 0)
    problems.push(
      `${payoutsNotCreated} payout requests were not answered 201 (warm-up ${JSON.stringify(warm.statusCodes)}, ` +
        `measured ${JSON.stringify(measured.statusCodes)}, ${warm.errors + measured.errors} errors)`,
    );
  if (warm.cutShort || measured.cutShort) problems.push(`the payout phase hit its ${limitSeconds} s limit`);
  if (warmSettled === undefined || settledAt === undefined)
    problems.push(`payouts were still unsettled ${limitSeconds} s after the creates`);
  if (!books.check.ok) problems.push(`GET /admin/ledger/check: ${JSON.stringify(books.check.violations)}`);
  if (!books.moneyConserved)
    problems.push(
      `NGN ledger balance ${books.ledgerBalance} (pending ${books.pendingBalance}), expected ${payouts.funding} - ` +
        `${payoutsCreated} × (${PAYOUT_AMOUNT} + ${payouts.feePerPayout}) = ${books.expectedLedgerBalance}, nothing pending`,
    );

  return {
    create: { key: 'payout', title, measurement: measured, seconds: measured.seconds },
    settlement,
    payoutsCreated,
    payoutsNotCreated,
    feePerPayout: payouts.feePerPayout,
    funding: payouts.funding,
    books,
    problems,
  };
}
