import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { eventually } from './kafka.js';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (or signal name) when the process ends. */
  readonly exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): Promise<number | string>;
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
}

/**
 * Every service process still running. jest runs the suites in its own process on a 2-CPU host, so a
 * process a failed suite left behind would keep jest (and CI) waiting for ever: they all die with it.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts a real service process built into dist, as npm start does. */
export async function startService(options: StartOptions): Promise<ServiceProcess> {
  const script = options.script ?? 'dist/main.js';
  const child = spawn(process.execPath, [script, ...(options.args ?? [])], {
    cwd: `${REPO_ROOT}services/${options.service}`,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  const service: ServiceProcess = {
    child,
    output: () => output,
    exited,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  if (options.ready) {
    const ready = options.ready;
    const failedEarly = exited.then((code) => {
      throw new Error(`${options.service} exited (${code}) before it was ready:\n${output}`);
    });
    try {
      // Polling stops with the process too: nothing is left retrying once failedEarly has spoken.
      const polling = eventually(
        async () => {
          if (child.exitCode === null && child.signalCode === null) await ready(service);
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

/** Ready when the output contains the given log message. */
export const logged = (message: string) => async (process: ServiceProcess) => {
  if (!process.output().includes(message)) throw new Error(`waiting for "${message}"`);
};
