import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDatabase } from '../../packages/db/dist/index.js';
import { createTestDatabase, query } from '../../packages/testing/dist/index.js';
import { paymentsDatabase } from '../../services/payments/dist/database.js';
import { checkLedger, LedgerAccounts, type NewTransfer } from '../../services/payments/dist/ledger/index.js';
import { runWriters, type LoadMeasurement } from './ledger-load.js';
import { moneyPosting, type MoneyPosting, type Scenario } from './ledger-scenarios.js';
import { findPgbench, runPgbench, type PgbenchResult } from './pgbench.js';

/**
 * What the ledger alone does for each money route, at the money phases' connections: through
 * payments' own code (applyTransfers, MikroORM, the pg driver) and as a pgbench script calling
 * ledger_apply with the same transfers (PostgreSQL alone, no Node at all).
 */
export type LedgerPostings = Record<MoneyPosting, LoadMeasurement & { title: string; pgbench: PgbenchResult }>;

const POSTINGS: MoneyPosting[] = ['swap_spread', 'swap_one_wallet', 'payout_reserve', 'collection_credit'];
/** Sub-accounts of each system account, as payments runs (LEDGER_SYSTEM_SHARDS' default). */
const SYSTEM_SHARDS = 8;

/**
 * Each money route's ledger posting (ledger_apply through applyTransfers, one database transaction
 * per call, closed loop like pgbench) on a payments database of its own, made, migrated, checked
 * after each posting and dropped here: the most a route through the API can do on this server
 * (decision 0070), since every request of it makes that posting and more.
 */
export async function measureLedgerPostings(settings: {
  writers: number;
  warmUpSeconds: number;
  seconds: number;
}): Promise<LedgerPostings> {
  const database = await createTestDatabase('bench_postings');
  const orm = await openMigratedDatabase({ ...paymentsDatabase(database.url), poolMax: settings.writers });
  const scripts = await mkdtemp(join(tmpdir(), 'bench-posting-'));
  try {
    const pgbench = { path: await findPgbench(), scripts };
    const ledger = { orm, accounts: new LedgerAccounts(() => orm.em.fork(), SYSTEM_SHARDS) };
    const results: Partial<LedgerPostings> = {};
    for (const posting of POSTINGS) {
      const scenario = await moneyPosting(ledger, posting, settings.writers, SYSTEM_SHARDS);
      console.log(`… ${scenario.title}: ${settings.writers} writers, ${settings.seconds} s`);
      const measurement = await runWriters(orm, scenario.next, settings);
      if (measurement.failures > 0)
        throw new Error(
          `${scenario.title}: ${measurement.failures} calls failed; the first: ${measurement.firstFailure}`,
        );
      const byScript = await postingByPgbench(pgbench, database.url, scenario, settings);
      const check = await checkLedger(orm.em.fork());
      if (!check.ok) throw new Error(`${scenario.title}: the ledger check found ${check.violations.length} violations`);
      results[posting] = { ...measurement, title: scenario.title, pgbench: byScript };
    }
    return results as LedgerPostings;
  } finally {
    await orm.close();
    await database.drop();
    await rm(scripts, { recursive: true, force: true });
  }
}

/** ledger_apply's argument for `transfers`, as applyTransfers sends it. */
const payloadOf = (transfers: NewTransfer[]) =>
  transfers.map((transfer) => ({
    id: transfer.id,
    phase: transfer.phase,
    debit_account_id: transfer.debitAccountId,
    credit_account_id: transfer.creditAccountId,
    currency: transfer.currency,
    amount: transfer.amount.toString(),
    transaction_id: null,
  }));

/**
 * The same posting with no Node in the way: pgbench's client `c` calls ledger_apply with writer
 * `c`'s transfers (a table of them), each id made new by a random number, one transaction per call.
 */
async function postingByPgbench(
  pgbench: { path: string; scripts: string },
  databaseUrl: string,
  scenario: Scenario,
  settings: { writers: number; seconds: number },
): Promise<PgbenchResult> {
  const table = `bench_${scenario.key}`;
  const calls = Array.from({ length: settings.writers }, (_, client) =>
    payloadOf(scenario.next(client, 0).map((transfer) => ({ ...transfer, id: `${transfer.id}:pgbench` }))),
  );
  await query(databaseUrl, `create table ${table} (client int primary key, transfers jsonb not null)`);
  await query(
    databaseUrl,
    `insert into ${table} select ordinality - 1, value from jsonb_array_elements($1::jsonb) with ordinality`,
    [JSON.stringify(calls)],
  );
  const script = join(pgbench.scripts, `${scenario.key}.sql`);
  await writeFile(
    script,
    [
      '\\set n random(1, 1000000000000)',
      "select ledger_apply((select jsonb_agg(t.value || jsonb_build_object('id', (t.value->>'id') || ':' || :n) " +
        `order by t.ordinality) from ${table} c, jsonb_array_elements(c.transfers) with ordinality t where c.client = :client_id));`,
      '',
    ].join('\n'),
  );
  console.log(
    `… ${scenario.title}, pgbench -f (ledger_apply alone): ${settings.writers} clients, ${settings.seconds} s`,
  );
  return runPgbench(pgbench.path, databaseUrl, ['-f', script], {
    clients: settings.writers,
    threads: 2,
    seconds: settings.seconds,
  });
}
