import { readFileSync } from 'node:fs';
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
