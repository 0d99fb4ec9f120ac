import type { Logger } from '@corridor/logging';

/** One run of a maintenance task; `signal` is aborted when the service starts stopping. */
export type PeriodicTask = (signal: AbortSignal) => Promise<void> | void;

interface ScheduledTask {
  timer: NodeJS.Timeout | undefined;
  running: Promise<void> | undefined;
}

/**
 * Maintenance work on timers (pruning idempotency keys, sweeps). A task's next run is scheduled
 * `intervalMs` after its previous run ends, so a slow run never overlaps the next one; a failure is
 * logged and the task runs again at its next turn.
 */
export class PeriodicTasks {
  private readonly tasks = new Map<string, ScheduledTask>();
  private readonly shutdown = new AbortController();

  constructor(private readonly logger: Logger) {}

  every(name: string, intervalMs: number, task: PeriodicTask): void {
    if (this.shutdown.signal.aborted) throw new Error(`cannot schedule "${name}": the service is stopping`);
    if (this.tasks.has(name)) throw new Error(`a periodic task named "${name}" is already scheduled`);
    if (!Number.isSafeInteger(intervalMs) || intervalMs <= 0) {
      throw new RangeError(`periodic task "${name}" needs a positive whole interval in ms, got ${intervalMs}`);
    }
    const scheduled: ScheduledTask = { timer: undefined, running: undefined };
    const scheduleNext = () => {
      // Unreferenced: a timer alone never keeps the process alive (the gRPC server does).
      scheduled.timer = setTimeout(run, intervalMs).unref();
    };
    const run = () => {
      scheduled.timer = undefined;
      scheduled.running = this.runOnce(name, task).finally(() => {
        scheduled.running = undefined;
        if (!this.shutdown.signal.aborted) scheduleNext();
      });
    };
    this.tasks.set(name, scheduled);
    scheduleNext();
  }

  /** No run starts after this; resolves once the runs under way have ended. */
  async stop(): Promise<void> {
    this.shutdown.abort();
    for (const scheduled of this.tasks.values()) clearTimeout(scheduled.timer);
    await Promise.all([...this.tasks.values()].map((scheduled) => scheduled.running));
  }

  private async runOnce(name: string, task: PeriodicTask): Promise<void> {
    const signal = this.shutdown.signal;
    try {
      await task(signal);
    } catch (error) {
      if (signal.aborted) this.logger.warn({ err: error, task: name }, 'periodic task interrupted by shutdown');
      else this.logger.error({ err: error, task: name }, 'periodic task failed');
    }
  }
}
