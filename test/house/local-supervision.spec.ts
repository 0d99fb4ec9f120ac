import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/**
 * `npm start`'s supervision (issue 18): the supervisor's restart rules, and deploy/local/services.sh's
 * commands. Running that script for real would take `npm start`'s fixed ports from a developer's
 * stack; test/e2e/supervision.e2e.spec.ts kills supervised services of a platform of its own.
 */
const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

interface Supervisor {
  backoff(streak: number, uptimeMs: number): { streak: number; delayMs: number };
  isCrash(code: number | null, signal: NodeJS.Signals | null): boolean;
}
// A plain .mjs with no types of its own (it runs before anything is built).
const supervisor = (await import(pathToFileURL(join(root, 'deploy/local/supervise.mjs')).href)) as Supervisor;

describe('the supervisor (deploy/local/supervise.mjs)', () => {
  it('waits 0.5 s, then doubles the wait for each quick crash in a row, up to 15 s', () => {
    const delays: number[] = [];
    let streak = 0;
    for (let crash = 0; crash < 8; crash++) {
      const next = supervisor.backoff(streak, 2_000);
      streak = next.streak;
      delays.push(next.delayMs);
    }
    expect(delays).toEqual([500, 1_000, 2_000, 4_000, 8_000, 15_000, 15_000, 15_000]);
  });

  it('starts again from 0.5 s after a child that stayed up 30 s', () => {
    expect(supervisor.backoff(6, 29_999)).toEqual({ streak: 7, delayMs: 15_000 });
    expect(supervisor.backoff(6, 30_000)).toEqual({ streak: 1, delayMs: 500 });
  });

  it('restarts a crash (a signal it did not send, a failure code), not a stop the service chose', () => {
    expect(supervisor.isCrash(null, 'SIGKILL')).toBe(true);
    expect(supervisor.isCrash(null, 'SIGTERM')).toBe(true);
    expect(supervisor.isCrash(1, null)).toBe(true);
    expect(supervisor.isCrash(0, null)).toBe(false);
    // EX_CONFIG: the service refused its configuration; a restart cannot change it.
    expect(supervisor.isCrash(78, null)).toBe(false);
  });
});

describe('deploy/local/services.sh', () => {
  const script = join(root, 'deploy/local/services.sh');

  it('parses', async () => {
    await expect(run('bash', ['-n', script])).resolves.toBeDefined();
  });

  // Only arguments that start nothing whatever the script's version: `up` would take npm start's ports.
  it.each([[[]], [['restart']], [['status']]])('answers %j with its usage, which names restart NAME', async (args) => {
    const failure = await run('bash', [script, ...args]).then(
      () => undefined,
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toMatch(/^usage: \S+services\.sh up\|down\|restart NAME$/m);
  });

  it('refuses to restart a service it does not know, naming the ones it does', async () => {
    const failure = await run('bash', [script, 'restart', 'billing']).then(
      () => undefined,
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(
      "no service named 'billing' (one of: identity customer-kyb notification payments gateway dashboard)",
    );
  });
});
