import { performance } from 'node:perf_hooks';
import type { MikroORM } from '../../packages/db/dist/index.js';
import { applyTransfers, type NewTransfer } from '../../services/payments/dist/ledger/index.js';

export interface LoadSettings {
  writers: number;
  warmUpSeconds: number;
  seconds: number;
}

/** Writer `writer`'s `sequence`-th call: the linked transfers of one database transaction. */
export type NextCall = (writer: number, sequence: number) => NewTransfer[];

export interface LoadMeasurement {
  /** Database transactions (applyTransfers calls) committed per second of the measured window. */
  commitsPerSecond: number;
  transfersPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** Everything the writers wrote, warm-up included: what the ledger must now hold. */
  transfersCreated: number;
  failures: number;
  firstFailure?: string;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/**
 * Closed loop like pgbench: each writer starts its next call when the last one commits. Calls that
 * commit during the warm-up (connections opening, plpgsql plans being cached) are not counted.
 */
export async function runWriters(orm: MikroORM, next: NextCall, settings: LoadSettings): Promise<LoadMeasurement> {
  const started = performance.now();
  const measureFrom = started + settings.warmUpSeconds * 1000;
  const end = measureFrom + settings.seconds * 1000;
  const latencies: number[] = [];
  let commits = 0;
  let transfers = 0;
  let transfersCreated = 0;
  let failures = 0;
  let firstFailure: string | undefined;

  await Promise.all(
    Array.from({ length: settings.writers }, async (_, writer) => {
      for (let sequence = 0; performance.now() < end; sequence++) {
        const call = next(writer, sequence);
        const callStarted = performance.now();
        try {
          const outcomes = await orm.em.fork().transactional((tx) => applyTransfers(tx, call));
          const created = outcomes.filter((outcome) => outcome.outcome === 'created').length;
          if (created !== call.length) throw new Error(`${call.length - created} of ${call.length} were duplicates`);
          transfersCreated += created;
          const committed = performance.now();
          if (committed >= measureFrom && committed <= end) {
            commits += 1;
            transfers += created;
            latencies.push(committed - callStarted);
          }
        } catch (error) {
          // Every wallet is funded far beyond what 15 s can spend: any refusal is a finding.
          failures += 1;
          firstFailure ??= error instanceof Error ? error.message : String(error);
        }
      }
    }),
  );

  latencies.sort((a, b) => a - b);
  return {
    commitsPerSecond: commits / settings.seconds,
    transfersPerSecond: transfers / settings.seconds,
    latencyP50Ms: percentile(latencies, 0.5),
    latencyP99Ms: percentile(latencies, 0.99),
    transfersCreated,
    failures,
    ...(firstFailure === undefined ? {} : { firstFailure }),
  };
}
