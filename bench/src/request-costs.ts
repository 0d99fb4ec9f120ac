import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { query } from '../../packages/testing/dist/index.js';
import type { BenchDatabase, Statements, StatementCounts } from './statements.js';

/** Linux counts /proc/<pid>/stat in USER_HZ ticks, 100 a second. */
const TICKS_PER_SECOND = 100;

/** The processes a money request runs through, by name: the platform's services and its databases' backends. */
export interface CostedProcesses {
  /** The platform's services (name → pid), read when a phase starts: a restarted service has a new pid. */
  services(): Map<string, number | undefined>;
  /** The bench's databases, for their PostgreSQL backends. */
  databases: BenchDatabase[];
  adminUrl: string;
}

/** What one request of a phase cost, on average over the phase's requests. */
export interface RequestCost {
  key: string;
  title: string;
  requests: number;
  /** Per request, by service database; undefined when pg_stat_statements is not loaded. */
  statements?: StatementCounts;
  statementsPerRequest?: Record<string, number>;
  roundTripsPerRequest?: Record<string, number>;
  /** The top statements by calls per request. */
  top?: { service: string; perRequest: number; query: string }[];
  /** Redis commands per request: the whole server's (INFO commandstats). */
  redisPerRequest: number;
  /** Other clients used the shared Redis during the phase: `redisPerRequest` counts their commands too. */
  redisShared?: boolean;
  /** CPU µs per request by process. */
  cpuMicros: Record<string, number>;
  /** gRPC calls per request, by hop, where the phase knows them. */
  grpc: string;
}

function cpuSecondsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined; // the process ended
  }
}

function redisPid(): number | undefined {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('redis-server')) return Number(pid);
    } catch {
      // ended between the listing and the read
    }
  }
  return undefined;
}

/** CPU seconds used so far by each named process (the bench itself, the services, the databases' backends, Redis). */
async function cpuSnapshot(processes: CostedProcesses): Promise<Map<string, Map<number, number>>> {
  const named = new Map<string, number[]>();
  const add = (name: string, pid: number | undefined) => {
    if (pid !== undefined) named.set(name, [...(named.get(name) ?? []), pid]);
  };
  add('the bench (load, receiver)', process.pid);
  for (const [name, pid] of processes.services()) add(name, pid);
  const service = new Map(processes.databases.map((database) => [database.name, database.service]));
  const backends = await query<{ pid: number; datname: string }>(
    processes.adminUrl,
    'select pid, datname from pg_stat_activity where datname = any($1)',
    [[...service.keys()]],
  );
  for (const { pid, datname } of backends) add(`PostgreSQL: ${service.get(datname) ?? datname}`, pid);
  add('Redis (shared)', redisPid());
  const seconds = new Map<string, Map<number, number>>();
  for (const [name, pids] of named) {
    const byPid = new Map<number, number>();
    for (const pid of pids) {
      const used = cpuSecondsOf(pid);
      if (used !== undefined) byPid.set(pid, used);
    }
    seconds.set(name, byPid);
  }
  return seconds;
}

const REDIS_URL = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

/** One inline command to Redis; its bulk-string answer. */
function redisCommand(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(REDIS_URL.port || 6379), REDIS_URL.hostname || '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (chunk: string) => {
      text += chunk;
      const header = /^\$(\d+)\r\n/.exec(text);
      if (header?.[1] && Buffer.byteLength(text) >= header[0].length + Number(header[1])) {
        socket.end();
        resolve(text.slice(header[0].length));
      }
    });
    socket.on('error', reject);
  });
}

/** INFO commandstats: calls of every command so far, summed (the whole server's). */
async function redisCalls(): Promise<number> {
  let calls = 0;
  for (const match of (await redisCommand('INFO commandstats')).matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm))
    calls += Number(match[1]);
  return calls;
}

/** The local ports of the TCP connections these processes hold to Redis's port. */
function redisClientPorts(pids: (number | undefined)[]): Set<number> {
  const inodes = new Set<string>();
  for (const pid of pids) {
    if (pid === undefined) continue;
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        if (inode) inodes.add(inode);
      }
    } catch {
      // the process ended, or a descriptor closed during the listing
    }
  }
  const ports = new Set<number>();
  const redisPort = Number(REDIS_URL.port || 6379);
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [local, remote, inode] = [fields[1], fields[2], fields[9]];
      if (!local || !remote || !inode || !inodes.has(inode)) continue;
      if (parseInt(remote.split(':')[1] ?? '', 16) === redisPort) ports.add(parseInt(local.split(':')[1] ?? '', 16));
    }
  }
  return ports;
}

/**
 * Whether a client of Redis other than the platform's sent a command in the last `seconds`: Redis is
 * shared with other suites and benches, and INFO commandstats counts them too.
 */
async function othersUsedRedis(platformPorts: Set<number>, seconds: number): Promise<boolean> {
  const clients = (await redisCommand('CLIENT LIST')).split('\n').filter((line) => line.startsWith('id='));
  return clients.some((line) => {
    const port = Number(/ addr=[^ ]*:(\d+) /.exec(line)?.[1]);
    const idle = Number(/ idle=(\d+) /.exec(line)?.[1]);
    return !platformPorts.has(port) && !line.includes(' cmd=client|list ') && idle < seconds;
  });
}

/**
 * Runs one phase between two snapshots of what its requests cost: pg_stat_statements reset before
 * and read after (the bench's databases only), Redis's command count, and the CPU of each process a
 * request goes through. Everything the platform did meanwhile counts (the outbox relay, the workers,
 * webhook deliveries): what a request costs in all, not only its synchronous path.
 */
export async function withRequestCosts<T>(
  phase: { key: string; title: string; grpc: string },
  statements: Statements,
  processes: CostedProcesses,
  run: () => Promise<T>,
  requestsOf: (result: T) => number,
): Promise<{ result: T; cost: RequestCost }> {
  await statements.reset();
  const redisBefore = await redisCalls().catch(() => NaN);
  const cpuBefore = await cpuSnapshot(processes);
  const startedAt = performance.now();
  const result = await run();
  const cpuAfter = await cpuSnapshot(processes);
  const redisAfter = await redisCalls().catch(() => NaN);
  const seconds = Math.ceil((performance.now() - startedAt) / 1000);
  const redisShared = await othersUsedRedis(redisClientPorts([...processes.services().values()]), seconds).catch(
    () => true,
  );
  const counts = await statements.read(5);
  const requests = Math.max(requestsOf(result), 1);
  const perRequest = (record: Record<string, number>) =>
    Object.fromEntries(Object.entries(record).map(([name, value]) => [name, Number((value / requests).toFixed(2))]));
  const cpuMicros: Record<string, number> = {};
  // By process id: a backend opened during the phase counts from its start; one that ended is lost.
  for (const [name, byPid] of cpuAfter) {
    let used = 0;
    for (const [pid, seconds] of byPid) used += seconds - (cpuBefore.get(name)?.get(pid) ?? 0);
    if (used > 0) cpuMicros[name] = Math.round((used * 1e6) / requests);
  }
  return {
    result,
    cost: {
      key: phase.key,
      title: phase.title,
      requests,
      grpc: phase.grpc,
      ...(counts
        ? {
            statements: counts,
            statementsPerRequest: perRequest(counts.statements),
            roundTripsPerRequest: perRequest(counts.roundTrips),
            top: counts.top.map((entry) => ({
              service: entry.service,
              perRequest: Number((entry.calls / requests).toFixed(2)),
              query: entry.query,
            })),
          }
        : {}),
      // Less the INFO and CLIENT LIST the snapshots themselves sent.
      redisPerRequest: Number(((redisAfter - redisBefore - 1) / requests).toFixed(2)),
      redisShared,
      cpuMicros,
    },
  };
}
