import type { MikroORM } from '@corridor/db';
import type { Logger } from '@corridor/logging';
import { AnswerRecorder } from './answer-recorder.js';
import { attemptClaimed, observeInterrupted, type DeliveryRuntime } from './attempt-delivery.js';
import { EventHistoryRepository } from '../history/event-history-repository.js';
import { DeliveryRepository } from './delivery-repository.js';
import type { ClaimedDelivery } from './delivery.js';

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
 * Makes every due attempt: claims due deliveries from PostgreSQL (decision 0010), the claim itself
 * recording their attempts as started, attempts each without waiting for the others, records the
 * answers in batches (decision 0040), and claims again as slots free up, when woken (a new delivery,
 * answers recorded, a queued replay) or at the poll interval. All of its state is in the database, so
 * any number of replicas can run it and a restart resumes every delivery at its due time.
 */
export class DeliveryWorker {
  private readonly inFlight = new Set<Promise<void>>();
  /** Answers handed to the recorder and not yet written: stop() waits for them too. */
  private readonly recording = new Set<Promise<void>>();
  private stopping = false;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private loop: Promise<void> | undefined;
  private lastSweep = 0;
  private readonly answers: AnswerRecorder;

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.answers = new AnswerRecorder(options.orm, options.runtime);
  }

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
    await Promise.allSettled(this.recording);
    await this.answers.judged();
  }

  private async run(): Promise<void> {
    const { concurrency, pollIntervalMs, logger } = this.options;
    while (!this.stopping) {
      this.woken = false;
      // A slot is free once its answer is in; answers still to be written hold claims back when
      // they are as many as the slots, so a slow database is not outrun.
      const free = this.answers.backlog >= concurrency ? 0 : concurrency - this.inFlight.size;
      let claimed: ClaimedDelivery[] = [];
      try {
        if (free > 0) claimed = await this.claim(free);
        await this.sweepIfDue();
      } catch (error) {
        logger.error({ err: error }, 'claiming due webhook deliveries failed; retrying at the next poll');
      }
      for (const claim of claimed) this.track(this.attempt(claim));
      // A full claim may have left more due rows behind: look again at once.
      if (claimed.length > 0 && claimed.length === free) continue;
      if (!this.woken) await this.sleep(pollIntervalMs);
    }
  }

  private async claim(limit: number): Promise<ClaimedDelivery[]> {
    const { orm, runtime, perEndpoint, logger } = this.options;
    const { deliveries, interrupted } = await new DeliveryRepository(orm.em.fork()).claimDue({
      now: runtime.now(),
      due: runtime.due(),
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

  private async attempt(claim: ClaimedDelivery): Promise<void> {
    const { runtime, logger } = this.options;
    const { delivery } = claim;
    try {
      const { number, result } = await attemptClaimed(runtime, claim, (answer) => {
        this.record(answer);
        return Promise.resolve();
      });
      logger.info(
        {
          deliveryId: delivery.id,
          event: delivery.eventType,
          attempt: number,
          trigger: claim.attempt.trigger,
          outcome: result.outcome,
          statusCode: result.statusCode,
          errorClass: result.errorClass,
        },
        'webhook attempt',
      );
    } catch (error) {
      // Not answered in the log: the lease lapses, the attempt is closed interrupted and made again.
      logger.error({ err: error, deliveryId: delivery.id }, 'webhook attempt could not be made or recorded');
    }
  }

  /** Hands the answer to the recorder without waiting for the write; wakes the loop once written. */
  private record(answer: Parameters<AnswerRecorder['record']>[0]): void {
    const written = this.answers
      .record(answer)
      .catch((error: unknown) => {
        // Not recorded: the lease lapses, the attempt is closed interrupted and made again.
        this.options.logger.error(
          { err: error, deliveryId: answer.deliveryId },
          'webhook attempt answered but its answer could not be recorded',
        );
      })
      .finally(() => {
        this.recording.delete(written);
        this.wake();
      });
    this.recording.add(written);
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

  /** Deletes ended deliveries and the event history past retention, a batch at a time, at most hourly. */
  private async sweepIfDue(): Promise<void> {
    const { orm, runtime, retentionDays, logger } = this.options;
    const now = runtime.now();
    if (now.getTime() - this.lastSweep < RETENTION_SWEEP_INTERVAL_MS) return;
    this.lastSweep = now.getTime();
    const cutoff = new Date(now.getTime() - retentionDays * 24 * 3600 * 1000);
    const deleted = await this.inBatches(() =>
      new DeliveryRepository(orm.em.fork()).deleteEnded({ completedBefore: cutoff, limit: RETENTION_BATCH }),
    );
    if (deleted > 0) logger.info({ deleted, cutoff }, 'webhook deliveries past retention deleted');
    // Decision 0066: the history keeps an event as long as a delivery of it can be kept.
    const events = await this.inBatches(() =>
      new EventHistoryRepository(orm.em.fork()).deleteOlder({ createdBefore: cutoff, limit: RETENTION_BATCH }),
    );
    if (events > 0) logger.info({ deleted: events, cutoff }, 'webhook events past retention deleted');
  }

  /** Runs a batch delete until a batch is short or the worker stops; returns how many it deleted. */
  private async inBatches(batch: () => Promise<number>): Promise<number> {
    let deleted = 0;
    for (;;) {
      const count = await batch();
      deleted += count;
      if (count < RETENTION_BATCH || this.stopping) return deleted;
    }
  }
}
