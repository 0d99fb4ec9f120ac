import type { MikroORM } from '@corridor/db';
import type { Logger } from '@corridor/logging';
import { attemptDelivery, observeInterrupted, type DeliveryRuntime } from './attempt-delivery.js';
import { DeliveryRepository } from './delivery-repository.js';
import type { Delivery } from './delivery.js';

export interface DeliveryWorkerOptions {
  orm: MikroORM;
  runtime: DeliveryRuntime;
  /** Attempts this process makes at once (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Attempts in flight per registration (WEBHOOK_ENDPOINT_CONCURRENCY). */
  perEndpoint: number;
  /** Look for due deliveries at least this often (WEBHOOK_POLL_INTERVAL_MS). */
  pollIntervalMs: number;
  /** Ended deliveries older than this are deleted (decision 0010). */
  retentionDays: number;
  logger: Logger;
}

const RETENTION_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const RETENTION_BATCH = 1_000;

/**
 * Makes every due attempt: claims due deliveries from PostgreSQL (decision 0010), attempts each
 * without waiting for the others, and claims again as slots free up, when woken (a new delivery, a
 * queued replay) or at the poll interval. All of its state is in the database, so any number of
 * replicas can run it and a restart resumes every delivery at its due time.
 */
export class DeliveryWorker {
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private loop: Promise<void> | undefined;
  private lastSweep = 0;

  constructor(private readonly options: DeliveryWorkerOptions) {}

  start(): void {
    this.loop = this.run();
  }

  /** Something became due: look now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stops claiming and waits for the attempts under way; unclaimed work stays due in the database. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.loop;
    await Promise.allSettled(this.inFlight);
  }

  private async run(): Promise<void> {
    const { concurrency, pollIntervalMs, logger } = this.options;
    while (!this.stopping) {
      this.woken = false;
      const free = concurrency - this.inFlight.size;
      let claimed: Delivery[] = [];
      try {
        if (free > 0) claimed = await this.claim(free);
        await this.sweepIfDue();
      } catch (error) {
        logger.error({ err: error }, 'claiming due webhook deliveries failed; retrying at the next poll');
      }
      for (const delivery of claimed) this.track(this.attempt(delivery));
      // A full claim may have left more due rows behind: look again at once.
      if (claimed.length > 0 && claimed.length === free) continue;
      if (!this.woken) await this.sleep(pollIntervalMs);
    }
  }

  private async claim(limit: number): Promise<Delivery[]> {
    const { orm, runtime, perEndpoint, logger } = this.options;
    const { deliveries, interrupted } = await new DeliveryRepository(orm.em.fork()).claimDue({
      now: runtime.now(),
      limit,
      perEndpoint,
      leaseMs: runtime.leaseMs,
    });
    for (const attempt of interrupted) {
      observeInterrupted(attempt);
      logger.warn(
        { deliveryId: attempt.deliveryId, event: attempt.eventType, attempt: attempt.number, trigger: attempt.trigger },
        'webhook attempt interrupted: the process making it stopped before recording the answer',
      );
    }
    return deliveries;
  }

  private async attempt(delivery: Delivery): Promise<void> {
    const { orm, runtime, logger } = this.options;
    const trigger = delivery.replayRequestedAt !== null ? 'replay' : 'scheduled';
    try {
      const claimedUntil = delivery.leaseUntil ?? undefined;
      const { attempt } = await attemptDelivery(orm.em.fork(), runtime, delivery, trigger, claimedUntil);
      logger.info(
        {
          deliveryId: delivery.id,
          event: delivery.eventType,
          attempt: attempt.number,
          trigger,
          outcome: attempt.outcome,
          statusCode: attempt.statusCode,
          errorClass: attempt.errorClass,
        },
        'webhook attempt',
      );
    } catch (error) {
      // Not answered in the log: the lease lapses, the attempt is closed interrupted and made again.
      logger.error({ err: error, deliveryId: delivery.id }, 'webhook attempt could not be made or recorded');
    }
  }

  private track(work: Promise<void>): void {
    const tracked = work.finally(() => {
      this.inFlight.delete(tracked);
      this.wake(); // a slot is free
    });
    this.inFlight.add(tracked);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        done();
      };
    });
  }

  /** Deletes ended deliveries past retention, a batch at a time, at most hourly. */
  private async sweepIfDue(): Promise<void> {
    const { orm, runtime, retentionDays, logger } = this.options;
    const now = runtime.now();
    if (now.getTime() - this.lastSweep < RETENTION_SWEEP_INTERVAL_MS) return;
    this.lastSweep = now.getTime();
    const cutoff = new Date(now.getTime() - retentionDays * 24 * 3600 * 1000);
    let deleted = 0;
    for (;;) {
      const batch = await new DeliveryRepository(orm.em.fork()).deleteEnded({
        completedBefore: cutoff,
        limit: RETENTION_BATCH,
      });
      deleted += batch;
      if (batch < RETENTION_BATCH || this.stopping) break;
    }
    if (deleted > 0) logger.info({ deleted, cutoff }, 'webhook deliveries past retention deleted');
  }
}
