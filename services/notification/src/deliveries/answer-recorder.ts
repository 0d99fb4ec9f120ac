import type { MikroORM } from '@corridor/db';
import { judgeUrls, type Answer, type DeliveryRuntime } from './attempt-delivery.js';
import { DeliveryRepository } from './delivery-repository.js';

interface Queued {
  answer: Answer;
  recorded: () => void;
  failed: (error: unknown) => void;
}

/** Answers written per statement at most: a worker's slots, with room for a burst of replays. */
const MAX_BATCH = 256;

/**
 * Records the worker's answers in batches (issue 35, decision 0040): the answers that arrive while a
 * write is under way go out together in the next one, so a busy worker makes one round trip for
 * many attempts and an idle one writes each answer at once. Until its answer is written a delivery
 * keeps its lease, so no one attempts it again meanwhile; a write that fails leaves its attempts
 * open, to be closed `interrupted` and made again when their lease lapses (at least once).
 */
export class AnswerRecorder {
  private queued: Queued[] = [];
  private writing: Promise<void> | undefined;
  private batchSize = 0;
  /**
   * The URLs' health, judged from each written batch in the order written (decision 0068), beside
   * the writes rather than before the next one: an answer never waits for a verdict to be written.
   */
  private judging: Promise<void> = Promise.resolve();

  constructor(
    private readonly orm: MikroORM,
    private readonly runtime: Pick<DeliveryRuntime, 'health' | 'logger'>,
  ) {}

  /** Resolves once every batch written so far has been judged (the worker's stop waits for it). */
  judged(): Promise<void> {
    return this.judging;
  }

  /** Answers recorded and not yet written. */
  get backlog(): number {
    return this.queued.length + this.batchSize;
  }

  record(answer: Answer): Promise<void> {
    return new Promise((recorded, failed) => {
      this.queued.push({ answer, recorded, failed });
      // The answers of one turn of the event loop (a batch of replies read together) share a write.
      this.writing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.writeQueued());
    });
  }

  private async writeQueued(): Promise<void> {
    while (this.queued.length > 0) {
      const batch = this.queued.splice(0, MAX_BATCH);
      this.batchSize = batch.length;
      try {
        const answers = batch.map(({ answer }) => answer);
        const written = await new DeliveryRepository(this.orm.em.fork()).finishAttempts(answers);
        for (const { recorded } of batch) recorded();
        // Decision 0068: the URLs are judged once their answers are in (a failure here is logged).
        const deliveries = written.map(({ delivery }) => delivery);
        this.judging = this.judging.then(() => judgeUrls(this.orm.em.fork(), this.runtime, deliveries, answers));
      } catch (error) {
        for (const { failed } of batch) failed(error);
      }
    }
    this.batchSize = 0;
    this.writing = undefined;
  }
}
