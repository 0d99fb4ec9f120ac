import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from './waiting.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** What `npm start` runs each service under: restarts it when it crashes (deploy/local/supervise.mjs). */
const SUPERVISOR = `${REPO_ROOT}deploy/local/supervise.mjs`;

/** A port nobody listens on right now. */
/**
 * Ports handed out here come from below the kernel's ephemeral range (32768–60999 on Linux), in a
 * slice of their own per jest worker, in turn. A port the kernel picked for `listen(0)` was free
 * when asked but could be the local port of any outgoing connection (a Kafka or PostgreSQL client)
 * or another worker's pick by the time the service binds it: with three workers and the cluster
 * check beside them, a gateway once lost its port that way (EADDRINUSE).
 */
const PORT_FLOOR = 10_000;
const SLICE = 2_800;
const slice = Math.min(Math.max(Number(process.env.JEST_WORKER_ID ?? 0), 0), 7);
let nextPort = PORT_FLOOR + slice * SLICE + Math.floor(Math.random() * SLICE);

async function canListen(port: number): Promise<boolean> {
  const server = createServer();
  try {
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    return true;
  } catch {
    return false;
  } finally {
    server.close();
  }
}

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < SLICE; tries += 1) {
    const port = nextPort;
    nextPort = PORT_FLOOR + slice * SLICE + ((nextPort - PORT_FLOOR - slice * SLICE + 1) % SLICE);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${PORT_FLOOR + slice * SLICE}–${PORT_FLOOR + (slice + 1) * SLICE - 1}`);
}

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (or signal name) when the process ends. */
  readonly exited: Promise<number | string>;
  /**
   * Ends the process: SIGTERM by default. Supervised, the signal goes to the supervisor (SIGTERM: a
   * clean stop of the service; SIGKILL: the supervisor, then the service, so neither is left behind).
   */
  kill(signal?: NodeJS.Signals): Promise<number | string>;
  /** The service's own process id: the supervisor's current child when supervised; none between restarts. */
  servicePid(): number | undefined;
}

export interface StartOptions {
  /** Service folder under services/, e.g. "identity"; runs its dist/main.js unless script is given. */
  service: string;
  script?: string;
  args?: string[];
  env: Record<string, string>;
  /** Resolves when the process is ready to be used; omitted: do not wait. */
  ready?: (process: ServiceProcess) => Promise<unknown>;
  readyTimeoutMs?: number;
  /** Run it under deploy/local/supervise.mjs, as `npm start` does: a crash is restarted. */
  supervised?: boolean;
  /**
   * The repository root whose services/<service> it runs from: this tree by default, or another
   * build, e.g. a previous release's (deploy/release/build-previous.sh), with its own packages.
   */
  root?: string;
}

/**
 * Every service process still running. A process a failed suite left behind would keep jest (and CI)
 * waiting for ever: they all die with the process that started them (jest's, or the worker's).
 */
const running = new Set<ServiceProcess>();
process.once('exit', () => {
  for (const service of running) void service.kill('SIGKILL');
});

/** Starts a real service process built into dist, as npm start does. */
export async function startService(options: StartOptions): Promise<ServiceProcess> {
  const command = [options.script ?? 'dist/main.js', ...(options.args ?? [])];
  const supervisor = options.supervised ? [SUPERVISOR, options.service, '--', process.execPath] : [];
  const child = spawn(process.execPath, [...supervisor, ...command], {
    cwd: join(options.root ?? REPO_ROOT, 'services', options.service),
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  // The supervisor's last line about its child says whether one runs now (deploy/local/supervise.mjs).
  const childLines = new RegExp(`supervisor: ${options.service} (?:started \\(pid (\\d+)\\)|exited|stopped)`, 'g');
  const servicePid = (): number | undefined => {
    if (!options.supervised) return child.pid;
    const pid = [...output.matchAll(childLines)].at(-1)?.[1];
    return pid === undefined || !alive() ? undefined : Number(pid);
  };
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(service);
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  const service: ServiceProcess = {
    child,
    output: () => output,
    exited,
    async kill(signal = 'SIGTERM') {
      // Read before the supervisor dies: its last child is the one to end with it.
      const orphan = signal === 'SIGKILL' && options.supervised ? servicePid() : undefined;
      if (alive()) child.kill(signal);
      if (orphan !== undefined) killQuietly(orphan, 'SIGKILL');
      // A stop that hangs past the services' own deadline (20 s) ends as a crash would, so a
      // suite's tear-down never waits for ever.
      const escalation = setTimeout(() => alive() && child.kill('SIGKILL'), 30_000);
      escalation.unref();
      return exited.finally(() => clearTimeout(escalation));
    },
    servicePid,
  };
  running.add(service);
  if (options.ready) {
    const ready = options.ready;
    const failedEarly = exited.then((code) => {
      throw new Error(`${options.service} exited (${code}) before it was ready:\n${output}`);
    });
    try {
      // Polling stops with the process too: nothing is left retrying once failedEarly has spoken.
      const polling = eventually(
        async () => {
          if (alive()) await ready(service);
        },
        options.readyTimeoutMs ?? 30_000,
        200,
      );
      await Promise.race([polling, failedEarly]);
    } catch (error) {
      await service.kill('SIGKILL');
      throw error instanceof Error
        ? new Error(`${error.message}\n--- ${options.service} output ---\n${output}`)
        : error;
    }
    failedEarly.catch(() => undefined);
  }
  return service;
}

/** Sends a signal to a process that may have ended already (ESRCH); any other failure is thrown. */
export function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** Ready when the output contains the given log message. */
export const logged = (message: string) => async (process: ServiceProcess) => {
  if (!process.output().includes(message)) throw new Error(`waiting for "${message}"`);
};
