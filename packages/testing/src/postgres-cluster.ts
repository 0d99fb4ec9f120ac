import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes.js';

const run = promisify(execFile);

/**
 * A PostgreSQL server of one test's own (initdb into a temporary folder, on a free loopback port),
 * from the binaries deploy/local/postgres.sh uses: a fault suite may stop it with `-m immediate` and
 * start it again without touching the shared server on 5432 that every other suite uses.
 */

/** Data folders of clusters still running: stopped with jest, whatever state a failed suite left. */
const running = new Set<PostgresCluster>();
process.once('exit', () => {
  for (const cluster of running) cluster.killSync();
});

/** pg_ctl and initdb: $PG_BINDIR, else the newest /usr/lib/postgresql/<version>/bin (as postgres.sh). */
function postgresBinaries(): string {
  const candidates = [
    process.env.PG_BINDIR,
    ...(existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .sort((a, b) => Number(a) - Number(b))
          .reverse()
          .map((version) => `/usr/lib/postgresql/${version}/bin`)
      : []),
  ];
  const found = candidates.find((dir) => dir && existsSync(join(dir, 'pg_ctl')) && existsSync(join(dir, 'initdb')));
  if (!found) throw new Error('no PostgreSQL server binaries (pg_ctl, initdb): run deploy/local/postgres.sh up once');
  return found;
}

/** PostgreSQL refuses to run as root: as root, its tools run as the `postgres` OS user. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export class PostgresCluster {
  private constructor(
    private readonly dir: string,
    private readonly bin: string,
    readonly port: number,
  ) {}

  /** A superuser's URL of the `postgres` database, for `createTestDatabase` and a Platform. */
  get adminUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private get data(): string {
    return join(this.dir, 'data');
  }

  /** The server's log so far, for failure messages. */
  log(): string {
    const file = join(this.dir, 'server.log');
    return existsSync(file) ? readFileSync(file, 'utf8').slice(-20_000) : '';
  }

  /** initdb on a fresh folder and a free port, then starts the server; on failure removes it all. */
  static async start(): Promise<PostgresCluster> {
    const dir = mkdtempSync(join(tmpdir(), 'corridor-postgres-'));
    const cluster = new PostgresCluster(dir, postgresBinaries(), await freePort());
    try {
      if (process.getuid?.() === 0) {
        const [uid = 0, gid = 0] = ['-u', '-g'].map((flag) =>
          Number(execFileSync('id', [flag, 'postgres']).toString()),
        );
        chownSync(dir, uid, gid);
      }
      // Trust on loopback only: a throwaway server no one else can reach.
      await cluster.tool('initdb', [
        '-D',
        cluster.data,
        '-U',
        'postgres',
        '--encoding=UTF8',
        '--no-locale',
        '--auth=trust',
      ]);
      await cluster.resume();
      return cluster;
    } catch (error) {
      await cluster.destroy();
      throw new Error(`private PostgreSQL did not start: ${String(error)}\n${cluster.log()}`);
    }
  }

  private async tool(name: string, args: string[]): Promise<void> {
    const [command, argv] = asPostgres(join(this.bin, name), args);
    await run(command, argv, { cwd: this.dir });
  }

  /** Starts the server on its folder and port (again after `stop`); resolves once it accepts connections. */
  async resume(): Promise<void> {
    // fsync off: nothing here outlives the test, and an immediate stop loses no committed row without an OS crash.
    const options = `-p ${this.port} -c listen_addresses=127.0.0.1 -k ${this.dir} -c fsync=off -c max_connections=200`;
    await this.tool('pg_ctl', [
      '-D',
      this.data,
      '-l',
      join(this.dir, 'server.log'),
      '-o',
      options,
      '-w',
      '-t',
      '60',
      'start',
    ]);
    running.add(this);
  }

  /** Stops the server; `immediate` (the default) is a crash: every connection is cut, nothing is shut down cleanly. */
  async stop(mode: 'immediate' | 'fast' = 'immediate'): Promise<void> {
    await this.tool('pg_ctl', ['-D', this.data, '-m', mode, '-w', 'stop']);
    running.delete(this);
  }

  /** For process exit: no promise can run then. */
  killSync(): void {
    const [command, argv] = asPostgres(join(this.bin, 'pg_ctl'), ['-D', this.data, '-m', 'immediate', 'stop']);
    try {
      execFileSync(command, argv, { cwd: this.dir, stdio: 'ignore' });
    } catch {
      // already stopped
    }
  }

  /** Stops the server if it runs and deletes its data: call in afterAll. */
  async destroy(): Promise<void> {
    if (running.has(this)) await this.stop().catch(() => this.killSync());
    running.delete(this);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
