import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startCorridor, type CorridorUnderLoad } from './corridor-under-load.js';
import { numberFromEnv } from './env.js';
import { cpuByProcess, formatCpuByProcess } from './cpu.js';
import { runBench } from './lifecycle.js';
import { measure, warmUp, type Target } from './load.js';

/**
 * `pnpm bench:profile <phase>`: one of pnpm bench's request phases under load with every service
 * started under `--cpu-prof`, then where each process spent its CPU, by package and by function
 * (self time). Issue 14's "profile first", as a command instead of a recipe.
 */

const PHASES = {
  healthz: (corridor: CorridorUnderLoad) => corridor.healthzRequest,
  oauth_token: (corridor: CorridorUnderLoad) => corridor.tokenRequest,
  whoami: (corridor: CorridorUnderLoad) => corridor.whoamiRequest,
  customer_read: (corridor: CorridorUnderLoad) => corridor.customerReadRequest,
  // Timed, so the swaps in flight when time is up are dropped: a profile, not a count of swaps.
  swap: (corridor: CorridorUnderLoad) => corridor.payments.swapRequest,
} satisfies Record<string, (corridor: CorridorUnderLoad) => Target>;
type PhaseName = keyof typeof PHASES;

function phaseFromArguments(): PhaseName {
  const name = process.argv[2] ?? 'whoami';
  if (Object.hasOwn(PHASES, name)) return name as PhaseName;
  console.error(`usage: pnpm bench:profile <${Object.keys(PHASES).join('|')}>`);
  process.exit(2);
}
const phaseName = phaseFromArguments();
const seconds = numberFromEnv('BENCH_SECONDS', 10, 1, 60);
const connections = numberFromEnv('BENCH_CONNECTIONS', 32, 1, 256);
const TOP = numberFromEnv('PROFILE_TOP', 15, 1, 200);
const PROFILE_DIR = fileURLToPath(new URL(`../results/profiles/${phaseName}/`, import.meta.url));

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  /** Microseconds since the previous sample. */
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Where code comes from, in the words a fix is made in: a dependency, a workspace package, Node. */
export function originOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(url);
  if (dependency?.[1]) return dependency[1];
  const workspace = /\/(services|packages)\/([^/]+)\//.exec(url);
  if (workspace) return workspace[1] === 'services' ? `service ${workspace[2]}` : `@corridor/${workspace[2]}`;
  const node = /^node:(?:internal\/)?([^/]+)/.exec(url);
  if (node?.[1]) return `node:${node[1]}`;
  return url;
}

const share = (count: number, total: number) => `${((100 * count) / total).toFixed(1).padStart(5)} %`;

function top(counts: Map<string, number>, total: number): string[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([name, count]) => `  ${share(count, total)}  ${name}`);
}

/** The service a profile is of, from the entry point it ran. */
function serviceOf(profile: CpuProfile): string {
  const main = profile.nodes.map((node) => /services\/([^/]+)\/dist\/main\.js/.exec(node.callFrame.url)).find(Boolean);
  return main?.[1] ?? 'unknown process';
}

/** Only the samples of the last `windowSeconds`: the measured load and the stop, not the start. */
function summarise(profile: CpuProfile, windowSeconds: number): string {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const byOrigin = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const from = profile.endTime - windowSeconds * 1e6;
  let [time, busy, inWindow] = [profile.startTime, 0, 0];
  for (const [index, id] of profile.samples.entries()) {
    time += profile.timeDeltas[index] ?? 0;
    const frame = byNode.get(id)?.callFrame;
    if (time < from || !frame) continue;
    inWindow += 1;
    if (frame.functionName === '(idle)') continue;
    busy += 1;
    const origin = originOf(frame.url, frame.functionName);
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + 1);
    const name = `${frame.functionName || '(anonymous)'} ${origin}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + 1);
  }
  const busyShare = inWindow > 0 ? busy / inWindow : 0;
  return [
    `${serviceOf(profile)}: busy ${(100 * busyShare).toFixed(0)} % of its last ${windowSeconds} s (${busy} samples)`,
    ' by origin (self time, share of busy samples):',
    ...top(byOrigin, busy),
    ' by function:',
    ...top(byFunction, busy),
  ].join('\n');
}

let corridor: CorridorUnderLoad | undefined;

async function main(): Promise<void> {
  await rm(PROFILE_DIR, { recursive: true, force: true });
  await mkdir(PROFILE_DIR, { recursive: true });
  console.log(`starting the platform with --cpu-prof (profiles in ${PROFILE_DIR})…`);
  corridor = await startCorridor({ NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${PROFILE_DIR}` });
  const target = PHASES[phaseName](corridor);
  await warmUp(target, 2);
  const before = cpuByProcess();
  const result = await measure(target, { seconds, connections });
  const after = cpuByProcess();
  console.log(
    `${phaseName}: ${result.requestsPerSecond} req/s, p50 ${result.latencyP50Ms} ms, p99 ${result.latencyP99Ms} ms, ` +
      `non-2xx ${result.non2xx}, errors ${result.errors}`,
  );
  // A profiler's samples count time a process was preempted in a system call as its own (a socket
  // write that wakes PostgreSQL on a busy machine); the kernel's accounting does not.
  console.log(`\n${formatCpuByProcess(before, after, result.totalRequests)}`);
  // Each process writes its profile when it exits.
  await corridor.stop();
  corridor = undefined;
  for (const file of (await readdir(PROFILE_DIR)).filter((name) => name.endsWith('.cpuprofile')).sort()) {
    const profile = JSON.parse(await readFile(`${PROFILE_DIR}${file}`, 'utf8')) as CpuProfile;
    console.log(`\n${summarise(profile, seconds)}`);
  }
}

await runBench(main, async () => corridor?.stop());
