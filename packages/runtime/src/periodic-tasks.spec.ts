import { createLogger } from '@corridor/logging';
import { setTimeout as sleep } from 'node:timers/promises';
import { Writable } from 'node:stream';
import { PeriodicTasks } from './periodic-tasks.js';

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger('test', { level: 'info', destination }) };
}

/** Resolves once `condition` holds, polling every 5 ms; fails after `timeoutMs`. */
async function until(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(5);
  }
}

describe('periodic tasks', () => {
  let tasks: PeriodicTasks;
  let lines: Record<string, unknown>[];

  beforeEach(() => {
    const captured = capturedLogger();
    lines = captured.lines;
    tasks = new PeriodicTasks(captured.logger);
  });

  afterEach(() => tasks.stop());

  it('runs a task again and again, first after one interval, not at once', async () => {
    let runs = 0;
    tasks.every('prune', 40, () => {
      runs += 1;
    });
    await sleep(15);
    expect(runs).toBe(0);
    await until(() => runs >= 3);
  });

  it('never starts a run while the previous one is still going', async () => {
    let running = 0;
    let mostAtOnce = 0;
    let runs = 0;
    tasks.every('slow sweep', 1, async () => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await sleep(30);
      running -= 1;
      runs += 1;
    });
    await until(() => runs >= 4);
    expect(mostAtOnce).toBe(1);
  });

  it('logs a failed run with the task name and keeps running the task', async () => {
    let runs = 0;
    tasks.every('prune idempotency keys', 5, () => {
      runs += 1;
      if (runs === 1) throw new Error('database went away');
    });
    await until(() => runs >= 3);
    const failures = lines.filter((line) => line.msg === 'periodic task failed');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({
      level: 'error',
      task: 'prune idempotency keys',
      err: { message: 'database went away' },
    });
  });

  it('stop waits for the run under way, aborts its signal, and no run starts after it', async () => {
    let runs = 0;
    let finished = 0;
    let sawAbort = false;
    tasks.every('sweep', 5, async (signal) => {
      runs += 1;
      await sleep(40);
      sawAbort = signal.aborted;
      finished += 1;
    });
    await until(() => runs === 1);
    await tasks.stop();
    expect(finished).toBe(1);
    expect(sawAbort).toBe(true);
    await sleep(50);
    expect(runs).toBe(1);
  });

  it('a run that fails because of the shutdown is a warning, not an error', async () => {
    let started = false;
    tasks.every('sweep', 5, async (signal) => {
      started = true;
      await sleep(1_000, undefined, { signal });
    });
    await until(() => started);
    await tasks.stop();
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'warn', task: 'sweep', msg: 'periodic task interrupted by shutdown' }),
    );
  });

  it('refuses a second task of the same name, a bad interval, and a task added after stop', async () => {
    tasks.every('prune', 1_000, () => undefined);
    expect(() => tasks.every('prune', 1_000, () => undefined)).toThrow('already scheduled');
    expect(() => tasks.every('zero', 0, () => undefined)).toThrow('positive whole interval');
    expect(() => tasks.every('fraction', 1.5, () => undefined)).toThrow('positive whole interval');
    await tasks.stop();
    expect(() => tasks.every('late', 1_000, () => undefined)).toThrow('the service is stopping');
  });
});
