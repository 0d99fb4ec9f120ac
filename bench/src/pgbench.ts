import { execFile } from 'node:child_process';
import { access, constants, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase } from '../../packages/testing/dist/index.js';

const run = promisify(execFile);

export interface PgbenchResult {
  /** pgbench's "tps = …", without the initial connection time. */
  tps: number;
  latencyAverageMs: number;
  transactions: number;
  failed: number;
}

const executable = (path: string) =>
  access(path, constants.X_OK).then(
    () => true,
    () => false,
  );

/**
 * pgbench: $PGBENCH, else Debian's versioned directory (postgresql-client keeps its tools off PATH
 * behind pg_wrapper, which may be missing), newest version first, else PATH.
 */
export async function findPgbench(): Promise<string> {
  const candidates: string[] = [];
  if (process.env.PGBENCH) candidates.push(process.env.PGBENCH);
  const versions = await readdir('/usr/lib/postgresql').catch(() => [] as string[]);
  versions.sort((a, b) => Number(b) - Number(a));
  candidates.push(...versions.map((version) => `/usr/lib/postgresql/${version}/bin/pgbench`));
  candidates.push(
    ...(process.env.PATH ?? '')
      .split(':')
      .filter(Boolean)
      .map((dir) => join(dir, 'pgbench')),
  );
  for (const candidate of candidates) if (await executable(candidate)) return candidate;
  throw new Error('pgbench not found: install postgresql-client (Debian) or set PGBENCH to its path');
}

/** Connection flags and PGPASSWORD from a postgres:// URL, so the password never shows in `ps`. */
function connection(databaseUrl: string): { args: string[]; env: NodeJS.ProcessEnv } {
  const url = new URL(databaseUrl);
  return {
    args: ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username)],
    env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) },
  };
}

const figure = (output: string, pattern: RegExp, name: string): number => {
  const match = pattern.exec(output);
  if (!match?.[1]) throw new Error(`pgbench printed no ${name}:\n${output}`);
  return Number(match[1]);
};

/** `pgbench -i -s <scale>`: the four TPC-B tables, 100,000 accounts per unit of scale. */
export async function initialisePgbench(pgbench: string, databaseUrl: string, scale: number): Promise<void> {
  const { args, env } = connection(databaseUrl);
  const database = new URL(databaseUrl).pathname.slice(1);
  await run(pgbench, [...args, '-i', '-q', '-s', String(scale), database], { env });
}

/** The built-in TPC-B-like script: closed loop, `clients` connections, for `seconds`. */
export const runTpcbLike = (
  pgbench: string,
  databaseUrl: string,
  options: { clients: number; threads: number; seconds: number },
): Promise<PgbenchResult> => runPgbench(pgbench, databaseUrl, ['-b', 'tpcb-like'], options);

/** pgbench with `script` (its `-f` file or `-b` builtin arguments): closed loop, for `seconds`. */
export async function runPgbench(
  pgbench: string,
  databaseUrl: string,
  script: string[],
  options: { clients: number; threads: number; seconds: number },
): Promise<PgbenchResult> {
  const { args, env } = connection(databaseUrl);
  const database = new URL(databaseUrl).pathname.slice(1);
  const { stdout } = await run(
    pgbench,
    [
      ...args,
      ...script,
      '-c',
      String(options.clients),
      '-j',
      String(options.threads),
      '-T',
      String(options.seconds),
      '-n',
      database,
    ],
    { env },
  );
  const transactions = figure(stdout, /^number of transactions actually processed: (\d+)/m, 'transaction count');
  // pgbench 15 reports failed transactions; older versions have no such line.
  const failed = /^number of failed transactions: (\d+)/m.test(stdout)
    ? figure(stdout, /^number of failed transactions: (\d+)/m, 'failed count')
    : 0;
  // A run that committed nothing prints no rate at all.
  if (transactions === 0) return { tps: 0, latencyAverageMs: 0, transactions, failed };
  return {
    tps: figure(stdout, /^tps = ([\d.]+)/m, 'tps'),
    latencyAverageMs: figure(stdout, /^latency average = ([\d.]+) ms/m, 'latency average'),
    transactions,
    failed,
  };
}

/** The longest a run is stretched to when a shorter one committed nothing. */
const LONGEST_RUN_SECONDS = 8;

/**
 * pgbench's TPC-B-like run on a database of its own on the shared server, made, initialised at
 * `scale`, run and dropped here: the yardstick `pnpm bench`'s money phases are divided by.
 */
export async function measureTpcbLike(options: {
  clients: number;
  seconds: number;
  scale: number;
}): Promise<PgbenchResult & { scale: number; clients: number }> {
  const pgbench = await findPgbench();
  const database = await createTestDatabase('bench_pgbench');
  try {
    await initialisePgbench(pgbench, database.url, options.scale);
    // A short run on a loaded machine can end before its clients commit anything (the smoke run's
    // 1 s beside other work): run it again, twice as long each time, rather than divide by zero.
    for (let seconds = options.seconds; ; seconds *= 2) {
      const result = await runTpcbLike(pgbench, database.url, { clients: options.clients, threads: 2, seconds });
      if (result.transactions > 0 || seconds * 2 > LONGEST_RUN_SECONDS) {
        return { ...result, scale: options.scale, clients: options.clients };
      }
    }
  } finally {
    await database.drop();
  }
}
