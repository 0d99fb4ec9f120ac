import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type { Measurement } from './load.js';

/** Linux counts /proc/stat in USER_HZ ticks, 100 a second on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** CPU time the whole machine has spent busy since boot, in seconds: every state but idle and iowait. */
function busySeconds(): number {
  const [, ...ticks] = (readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '').trim().split(/\s+/);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks.map(Number);
  return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
}

/**
 * A phase's figures with the machine's CPU time per request: everything the request costs (load
 * generator, every process on its path, PostgreSQL, Redis), read from the kernel, whether or not
 * the phase kept both cores busy. Costs add up where rates do not, so the CPU of a request's parts
 * bounds what the whole can reach (issue 14's ceilings, goals.ts).
 */
export async function withCpuPerRequest<T extends Measurement>(run: () => Promise<T>): Promise<T> {
  const before = busySeconds();
  const startedAt = performance.now();
  const measurement = await run();
  const elapsed = (performance.now() - startedAt) / 1000;
  const busy = Math.max(0, busySeconds() - before - background * elapsed);
  const requests = measurement.totalRequests;
  return { ...measurement, cpuMicrosPerRequest: requests > 0 ? Math.round((busy * 1e6) / requests) : 0 };
}

/** Cores the machine keeps busy with no load (idle services, Kafka, PostgreSQL): not a request's cost. */
let background = 0;

/** Reads the machine's busy CPU with nothing asked of it, once before the phases; returns it in cores. */
export async function measureBackgroundCpu(seconds = 2): Promise<number> {
  const before = busySeconds();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  background = (busySeconds() - before) / seconds;
  return background;
}

/** What a process is, in the words of the bench: a Corridor service, PostgreSQL, Redis, Kafka, this bench. */
function processName(pid: string, command: string): string {
  if (Number(pid) === process.pid) return 'the bench (load generator)';
  // A service runs `node dist/main.js` in its own directory (startService).
  const service = command.includes('dist/main.js') ? /services\/([^/]+)$/.exec(readlinkSync(`/proc/${pid}/cwd`)) : null;
  if (service?.[1]) return service[1];
  if (/(^|\/)postgres(\0|$)|^postgres:/.test(command)) return 'PostgreSQL (every backend)';
  if (command.startsWith('redis-server') || command.includes('/redis-server')) return 'Redis';
  if (command.includes('kafka')) return 'Kafka';
  return 'other';
}

/** CPU seconds each kind of process has used so far (/proc/<pid>/stat: utime + stime), summed by name. */
export function cpuByProcess(): Map<string, number> {
  const seconds = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The fields after the command's closing parenthesis: state is the 3rd field, utime the 14th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const used = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
      const name = processName(pid, readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      seconds.set(name, (seconds.get(name) ?? 0) + used);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return seconds;
}

/** Each kind of process's CPU per request between two snapshots, largest first. */
export function formatCpuByProcess(before: Map<string, number>, after: Map<string, number>, requests: number): string {
  const rows = [...after]
    .map(([name, seconds]) => [name, seconds - (before.get(name) ?? 0)] as const)
    .filter(([, seconds]) => seconds > 0)
    .sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((sum, [, seconds]) => sum + seconds, 0);
  const perRequest = (seconds: number) => `${Math.round((seconds * 1e6) / Math.max(requests, 1))} µs`.padStart(8);
  return [
    `CPU by process (the kernel's accounting, per request over ${requests.toLocaleString('en')} requests):`,
    ...rows.map(([name, seconds]) => `  ${perRequest(seconds)}  ${name}`),
    `  ${perRequest(total)}  in all`,
  ].join('\n');
}
