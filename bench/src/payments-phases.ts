import { measure, measureCount, warmUp, type CountedMeasurement, type LoadSettings, type Target } from './load.js';
import { SWAP_AMOUNT, type Books, type PaymentsUnderLoad } from './payments-under-load.js';
import type { PhaseResult } from './phase.js';

/** Warm-up swaps: counted (each one moves money), and their rate sizes the measured phase. */
const WARM_UP_CONNECTIONS = 8;
const WARM_UP_SWAPS = WARM_UP_CONNECTIONS * 40;

/** What the payments phases did to the books, and whether they add up. */
export interface PaymentsOutcome {
  swap: PhaseResult;
  wallet: PhaseResult;
  /** Swaps answered 201: before load, in the warm-up and measured. */
  swapsCreated: number;
  /** Swap requests answered otherwise (or not at all): each fails the run. */
  swapsNotCreated: number;
  feePerSwap: number;
  funding: number;
  books: Books;
  /** Why the run must fail; empty when the swaps were all 201 and the books add up. */
  problems: string[];
}

/**
 * A phase's measured part run between the snapshots of what its requests cost (request-costs.ts):
 * `requestsOf` says how many requests the costs are divided by.
 */
export type Costed = <T>(key: string, run: () => Promise<T>, requestsOf: (result: T) => number) => Promise<T>;

export const created = (measurement: CountedMeasurement) => measurement.statusCodes['201'] ?? 0;
export const notCreated = (measurement: CountedMeasurement) =>
  measurement.totalRequests - created(measurement) + measurement.errors;

/**
 * A swap phase: WARM_UP_SWAPS at WARM_UP_CONNECTIONS, then a fixed number of swaps sized from the
 * warm-up's rate to last about `settings.seconds` (so every swap the server made is counted),
 * measured between `costed`'s snapshots under `key`.
 */
export async function measureSwaps(
  key: string,
  title: string,
  swapRequest: Target,
  settings: LoadSettings,
  costed: Costed,
): Promise<{ warm: CountedMeasurement; measured: CountedMeasurement; limitSeconds: number }> {
  // A stalled server must not hang the run: far more time than the phase needs at its warm-up rate.
  const limitSeconds = settings.seconds * 4 + 30;
  console.log(`… ${title}: ${WARM_UP_SWAPS} swaps of warm-up, then about ${settings.seconds} s measured`);
  const warm = await measureCount(swapRequest, {
    requests: WARM_UP_SWAPS,
    connections: WARM_UP_CONNECTIONS,
    limitSeconds,
  });
  const requests = Math.max(settings.connections, Math.round(warm.requestsPerSecond * settings.seconds));
  const measured = await costed(
    key,
    () => measureCount(swapRequest, { requests, connections: settings.connections, limitSeconds }),
    created,
  );
  return { warm, measured, limitSeconds };
}

/**
 * Swaps, then wallet reads, then the books. The swap phase is a fixed number of requests, sized
 * from the warm-up's rate to last about `settings.seconds`, so every swap the server made is counted.
 */
export async function runPaymentsPhases(
  payments: PaymentsUnderLoad,
  settings: LoadSettings,
  warmUpSeconds: number,
  costed: Costed = (_key, run) => run(),
): Promise<PaymentsOutcome> {
  const swapTitle = 'POST /api/external/swap on one wallet (gateway → payments → ledger)';
  const { warm, measured, limitSeconds } = await measureSwaps(
    'swap',
    swapTitle,
    payments.swapRequest,
    settings,
    costed,
  );

  const walletTitle = 'GET /api/external/wallet (gateway → payments → PostgreSQL)';
  console.log(`… ${walletTitle}: ${warmUpSeconds} s warm-up, then ${settings.seconds} s measured`);
  await warmUp(payments.walletRequest, warmUpSeconds);
  const wallet = await measure(payments.walletRequest, settings);

  const swapsCreated = payments.swapsBeforeLoad + created(warm) + created(measured);
  const swapsNotCreated = notCreated(warm) + notCreated(measured);
  const books = await payments.books(swapsCreated);

  const problems: string[] = [];
  if (swapsNotCreated > 0)
    problems.push(
      `${swapsNotCreated} swap requests were not answered 201 (warm-up ${JSON.stringify(warm.statusCodes)}, ` +
        `${warm.errors} errors; measured ${JSON.stringify(measured.statusCodes)}, ${measured.errors} errors)`,
    );
  if (warm.cutShort || measured.cutShort)
    problems.push(`the swap phase hit its ${limitSeconds} s limit: swaps in flight were not counted`);
  if (!books.check.ok) problems.push(`GET /admin/ledger/check: ${JSON.stringify(books.check.violations)}`);
  if (!books.moneyConserved)
    problems.push(
      `USD ledger balance ${books.ledgerBalance}, expected ${payments.funding} - ${swapsCreated} × ` +
        `(${SWAP_AMOUNT} + ${payments.feePerSwap}) = ${books.expectedLedgerBalance}`,
    );

  return {
    swap: { key: 'swap', title: swapTitle, measurement: measured, seconds: measured.seconds },
    wallet: { key: 'wallet', title: walletTitle, measurement: wallet },
    swapsCreated,
    swapsNotCreated,
    feePerSwap: payments.feePerSwap,
    funding: payments.funding,
    books,
    problems,
  };
}
