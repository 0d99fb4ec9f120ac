import { availableParallelism, loadavg } from 'node:os';

/**
 * A wait's window is written in quiet-machine time: what the thing waited for takes on this 2-core
 * machine with nothing else running. On a loaded machine (jest's workers, a build, an `npm start`
 * stack beside the run) everything runs slower by about the runnable work per core, so the window's
 * clock runs that much slower: it stretches with the load instead of failing a suite for it.
 * MAX_SLOWDOWN bounds the stretch, so a hang is still a failure.
 */
export const MAX_SLOWDOWN = 6;

/** How many times slower than quiet the machine runs now: the last minute's load per core, 1 to MAX_SLOWDOWN. */
export function machineSlowdown(): number {
  const [lastMinute = 0] = loadavg();
  return Math.min(MAX_SLOWDOWN, Math.max(1, lastMinute / availableParallelism()));
}

/**
 * A clock of quiet-machine milliseconds since it was made: each real interval counts divided by
 * the slowdown at its end. `passed(ms)` says whether a window of `ms` quiet milliseconds is over.
 */
export class MachineClock {
  private spentMs = 0;
  private last = Date.now();
  private worstSlowdown = 1;

  /** Quiet-machine milliseconds spent so far. */
  elapsed(): number {
    const now = Date.now();
    const slowdown = machineSlowdown();
    this.worstSlowdown = Math.max(this.worstSlowdown, slowdown);
    this.spentMs += (now - this.last) / slowdown;
    this.last = now;
    return this.spentMs;
  }

  passed(windowMs: number): boolean {
    return this.elapsed() > windowMs;
  }

  /** For a failure's message: the window, and how loaded the machine was meanwhile. */
  describe(windowMs: number): string {
    return `${windowMs} ms of quiet-machine time (the machine ran up to ${this.worstSlowdown.toFixed(1)}× slower meanwhile)`;
  }
}

/**
 * Retries `check` until it stops throwing, or fails with its last error once `timeoutMs` of
 * quiet-machine time has passed (MachineClock).
 */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 15_000, intervalMs = 100): Promise<T> {
  const clock = new MachineClock();
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (clock.passed(timeoutMs)) {
        if (error instanceof Error) error.message += ` (after ${clock.describe(timeoutMs)})`;
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
