import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/**
 * `npm start`'s supervision (issues 18 and 36): the supervisor's restart rules, a supervisor's death
 * taking its service with it, and deploy/local/services.sh's commands. Running that script's `up` for
 * real would take `npm start`'s fixed ports from a developer's stack: its `down` runs here on pid files
 * of a directory of the spec's own (CORRIDOR_RUN_DIR), with tiny children in place of the services;
 * test/e2e/supervision.e2e.spec.ts kills supervised services of a platform of its own.
 */
const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

interface Supervisor {
  childEnvironment(name: string, env: Record<string, string | undefined>): Record<string, string>;
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

const supervise = join(root, 'deploy/local/supervise.mjs');
const preload = join(root, 'deploy/local/exit-with-supervisor.mjs');

/** Alive and not a zombie (a child whose supervisor died is reaped by init, maybe a little later). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

describe('a supervisor that dies', () => {
  let dir: string;
  const started: ChildProcess[] = [];
  const children: number[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'corridor-supervision-'));
  });
  afterEach(() => {
    for (const process of started) process.kill('SIGKILL');
    for (const pid of children) if (alive(pid)) process.kill(pid, 'SIGKILL');
    started.length = 0;
    children.length = 0;
    rmSync(dir, { recursive: true, force: true });
  });

  /** supervise.mjs NAME -- COMMAND, its pid in RUN_DIR/NAME.pid as services.sh writes it; resolves with both pids. */
  async function superviseIn(name: string, command: string[]): Promise<{ supervisor: number; child: number }> {
    const supervisor = spawn(
      process.execPath,
      [supervise, name, '--child-pid-file', join(dir, `${name}.child.pid`), '--', ...command],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    started.push(supervisor);
    writeFileSync(join(dir, `${name}.pid`), `${supervisor.pid}\n`);
    let child: number | undefined;
    expect(await until(() => (child = readPid(join(dir, `${name}.child.pid`))) !== undefined, 10_000)).toBe(true);
    children.push(child!);
    return { supervisor: supervisor.pid!, child: child! };
  }

  it('takes its Node service with it when SIGKILLed (SIGTERM first: the service stops gracefully)', async () => {
    const marker = join(dir, 'stopped');
    const service = `process.on('SIGTERM', () => { require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'SIGTERM'); process.exit(0); }); setInterval(() => {}, 1000);`;
    const { supervisor, child } = await superviseIn('identity', [process.execPath, '-e', service]);
    // Give the preload its moment to start watching before the pipe closes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(alive(child)).toBe(true);
    process.kill(supervisor, 'SIGKILL');
    expect(await until(() => !alive(child), 5_000)).toBe(true);
    expect(readFileSync(marker, 'utf8')).toBe('SIGTERM');
  });

  it('gives its child the preload without dropping NODE_OPTIONS the caller set', () => {
    const env = supervisor.childEnvironment('gateway-2', { NODE_OPTIONS: '--max-old-space-size=256', PATH: '/bin' });
    expect(env).toMatchObject({ CORRIDOR_SUPERVISOR_FD: '3', CORRIDOR_SUPERVISED_AS: 'gateway-2', PATH: '/bin' });
    expect(env.NODE_OPTIONS).toMatch(
      /^--import=file:\/\/\S+\/deploy\/local\/exit-with-supervisor\.mjs --max-old-space-size=256$/,
    );
  });

  it('is not needed: a service started without a supervisor runs as always with the preload', async () => {
    const script =
      "process.stdout.write(String(process.env.CORRIDOR_SUPERVISOR_FD) + ' ' + String(process.env.NODE_OPTIONS))";
    const plain = await run(process.execPath, ['--import', preload, '-e', script]);
    expect(plain.stdout).toBe('undefined undefined');
    // The variable inherited without the fd: it says so and runs.
    const stray = await run(process.execPath, ['--import', preload, '-e', script], {
      env: { ...process.env, CORRIDOR_SUPERVISOR_FD: '3' },
    });
    expect(stray.stdout).toBe('undefined undefined');
    expect(stray.stderr).toContain('not watching');
  });

  const services = join(root, 'deploy/local/services.sh');

  it('leaves no orphan to `services.sh down` (npm stop): it stops the orphan, said, and every replica', async () => {
    // `sleep` is no Node: the preload cannot end it, as an older service's orphan would outlive its supervisor.
    const orphan = await superviseIn('customer-kyb-2', ['sleep', '300']);
    const supervised = await superviseIn('gateway', ['sleep', '300']);
    process.kill(orphan.supervisor, 'SIGKILL');
    expect(await until(() => !alive(orphan.supervisor), 5_000)).toBe(true);
    expect(alive(orphan.child)).toBe(true);
    // An unrelated process that took a dead replica's pid is not the replica's: it is left alone.
    writeFileSync(join(dir, 'identity.child.pid'), `${process.pid}\n`);

    const down = await run('bash', [services, 'down'], { env: { ...process.env, CORRIDOR_RUN_DIR: dir } });
    expect(down.stdout).toContain(
      `customer-kyb-2 runs without its supervisor (an orphan, pid ${orphan.child}): stopping it`,
    );
    expect(down.stdout).toContain(`stopping gateway (pid ${supervised.supervisor})`);
    expect(
      await until(() => !alive(orphan.child) && !alive(supervised.child) && !alive(supervised.supervisor), 5_000),
    ).toBe(true);
    expect(alive(process.pid)).toBe(true);
  });

  it('refuses a replica count it cannot run, before starting anything', async () => {
    const failure = await run('bash', [services, 'restart', 'gateway'], {
      env: { ...process.env, CORRIDOR_RUN_DIR: dir, CORRIDOR_REPLICAS: '2', CORRIDOR_REPLICAS_GATEWAY: '10' },
    }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(
      "CORRIDOR_REPLICAS_GATEWAY (or CORRIDOR_REPLICAS) must be a whole number from 1 to 9 (got '10')",
    );
  });
});
