import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { openMigratedDatabase, type MikroORM } from '../../packages/db/dist/index.js';
import { createTestDatabase, query, type TestDatabase } from '../../packages/testing/dist/index.js';
import { paymentsDatabase } from '../../services/payments/dist/database.js';
import { checkLedger, LedgerAccounts } from '../../services/payments/dist/ledger/index.js';
import { runWriters, type LoadSettings } from './ledger-load.js';
import { appendToReadme, formatRun, type LedgerRun, type PhaseResult } from './ledger-report.js';
import {
  distinctWallets,
  hotFeeAccount,
  hotWallet,
  moneyPosting,
  type Ledger,
  type Scenario,
} from './ledger-scenarios.js';
import { runBench } from './lifecycle.js';
import { findPgbench, initialisePgbench, runTpcbLike } from './pgbench.js';

/**
 * The ledger's throughput (ledger_apply through applyTransfers, one database transaction per call)
 * next to pgbench's TPC-B-like tps on the same PostgreSQL in the same run, with checkLedger after
 * every phase. BENCH_SECONDS shortens a trial run; only a full run is written to the README.
 */
const DEFAULT_SECONDS = 15;
const secondsOverride = process.env.BENCH_SECONDS;
const seconds = secondsOverride ? Number(secondsOverride) : DEFAULT_SECONDS;
if (!Number.isInteger(seconds) || seconds < 1 || seconds > 60)
  throw new Error('BENCH_SECONDS must be a whole number 1–60');

const settings: LoadSettings = { writers: 32, warmUpSeconds: 2, seconds };
const PGBENCH_SCALE = 10;
const PGBENCH_THREADS = 2;
/** Sub-accounts of the wallets' funding accounts: not what is measured, only spread out of the way. */
const FUNDING_SHARDS = 8;
const README = fileURLToPath(new URL('../README.md', import.meta.url));

const databases: TestDatabase[] = [];
let orm: MikroORM | undefined;

async function cleanUp(): Promise<void> {
  await orm?.close().catch(() => undefined);
  orm = undefined;
  await Promise.allSettled(databases.splice(0).map((database) => database.drop()));
}

async function throwaway(prefix: string): Promise<TestDatabase> {
  const database = await createTestDatabase(prefix);
  databases.push(database);
  return database;
}

async function measurePgbench(): Promise<LedgerRun['pgbench']> {
  const pgbench = await findPgbench();
  const database = await throwaway('bench_pgbench');
  console.log(`… ${pgbench} -i -s ${PGBENCH_SCALE}`);
  await initialisePgbench(pgbench, database.url, PGBENCH_SCALE);
  console.log(`… pgbench tpcb-like: ${settings.writers} clients, ${PGBENCH_THREADS} threads, ${settings.seconds} s`);
  const result = await runTpcbLike(pgbench, database.url, {
    clients: settings.writers,
    threads: PGBENCH_THREADS,
    seconds: settings.seconds,
  });
  // Its 160 MB would otherwise compete with the ledger's rows for shared buffers.
  await database.drop();
  databases.splice(databases.indexOf(database), 1);
  return { ...result, scale: PGBENCH_SCALE, threads: PGBENCH_THREADS };
}

async function measurePhase(ledger: Ledger, url: string, scenario: Scenario): Promise<PhaseResult> {
  const [before] = await query<{ n: string }>(url, 'select count(*) as n from ledger_transfer');
  console.log(`… ${scenario.title}: ${settings.warmUpSeconds} s warm-up, then ${settings.seconds} s measured`);
  const measurement = await runWriters(ledger.orm, scenario.next, settings);
  if (measurement.failures > 0)
    throw new Error(`${scenario.title}: ${measurement.failures} calls failed; the first: ${measurement.firstFailure}`);

  const checkStarted = performance.now();
  const check = await checkLedger(ledger.orm.em.fork());
  const checkMs = performance.now() - checkStarted;
  if (!check.ok) {
    console.error(JSON.stringify(check.violations, null, 2));
    throw new Error(`${scenario.title}: checkLedger found ${check.violations.length} violations`);
  }
  // Every call the writers saw commit is in the books, and nothing else is.
  const written = check.transfersChecked - BigInt(before?.n ?? '0');
  if (written !== BigInt(measurement.transfersCreated))
    throw new Error(
      `${scenario.title}: ${measurement.transfersCreated} transfers committed, the ledger holds ${written}`,
    );
  return { scenario, measurement, checkMs };
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const pgbench = await measurePgbench();

  const database = await throwaway('bench_ledger');
  // One connection per writer, as pgbench has one per client (the service itself runs with 20).
  const opened = await openMigratedDatabase({ ...paymentsDatabase(database.url), poolMax: settings.writers });
  orm = opened;
  const ledger: Ledger = { orm: opened, accounts: new LedgerAccounts(() => opened.em.fork(), FUNDING_SHARDS) };
  const [server] = await query<{ server_version: string }>(database.url, 'show server_version');

  const phases: PhaseResult[] = [];
  const scenarios = [
    () => distinctWallets(ledger, settings.writers),
    () => hotWallet(ledger, settings.writers),
    () => hotFeeAccount(ledger, settings.writers, 1),
    () => hotFeeAccount(ledger, settings.writers, 8),
    () => moneyPosting(ledger, 'swap_spread', settings.writers, 8),
  ];
  for (const setUp of scenarios) phases.push(await measurePhase(ledger, database.url, await setUp()));

  const run: LedgerRun = {
    startedAt,
    settings,
    postgresVersion: server?.server_version.split(' ')[0] ?? 'unknown',
    pgbench,
    phases,
  };
  console.log(`\n${formatRun(run)}\n`);
  if (secondsOverride) {
    console.log(`BENCH_SECONDS=${secondsOverride}: a trial run, not written to ${README}`);
  } else {
    await appendToReadme(README, run);
    console.log(`appended to ${README}`);
  }
}

// Ctrl-C still drops the throwaway databases (pgbench, in the same process group, stops too).
await runBench(main, cleanUp, { interrupted: 'dropping the bench databases' });
