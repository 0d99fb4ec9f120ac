import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Logger } from '@corridor/logging';
import type { Message, Producer } from 'kafkajs';
import pg from 'pg';
import { DEFAULT_OUTBOX_RETENTION_MS, RETENTION_BATCH, RETENTION_SWEEP_INTERVAL_MS } from '../retention.js';
import { captureTraceContext, traceContextFromCarrier } from '../tracing.js';
import { OUTBOX_CHANNEL } from './schema.js';

export interface OutboxRelayOptions {
  /** PostgreSQL connection string of the producing service's database. */
  databaseUrl: string;
  producer: Producer;
  logger: Logger;
  /** Rows claimed and published per transaction. */
  batchSize?: number;
  /** Safety net when a notification is missed (for example across a reconnect). */
  pollIntervalMs?: number;
  /** Published rows older than this are deleted (default 72 h); the topic is the history, not this table. */
  retentionMs?: number;
  /** Rows per retention DELETE, so a large backlog never holds one long lock. */
  retentionBatchSize?: number;
  /** How often the relay looks for published rows past retention (default hourly). */
  retentionSweepIntervalMs?: number;
}

interface OutboxRow {
  id: string;
  event_id: string;
  topic: string;
  message_key: string;
  payload: Buffer;
  trace_context: Record<string, string>;
}

const tracer = trace.getTracer('@corridor/bus');
// Serializes batches across relay replicas of one service so per-key order on Kafka matches
// commit order; SKIP LOCKED keeps a replica from ever waiting on rows another one holds.
const RELAY_LOCK_SQL = `select pg_try_advisory_xact_lock(hashtext('corridor-outbox-relay')) as locked`;

/**
 * Publishes committed outbox rows to Kafka and marks them published. At least once: a crash after
 * the send and before the commit publishes those rows again, and consumers deduplicate on event id.
 */
export class OutboxRelay {
  private readonly pool: pg.Pool;
  private listener: pg.Client | undefined;
  private running = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private nextSweepAt = 0;
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly retentionMs: number;
  private readonly retentionBatchSize: number;
  private readonly retentionSweepIntervalMs: number;

  constructor(private readonly options: OutboxRelayOptions) {
    this.pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
    this.pool.on('error', (error) => options.logger.warn({ err: error }, 'outbox relay pool error'));
    // pg-pool takes its own 'error' listener off a client while it is checked out: a connection cut
    // mid-batch (PostgreSQL restarting) was an unhandled 'error' that ended the process (issue 18).
    // The batch's query fails on its own and the loop retries; this only keeps the process alive.
    this.pool.on('connect', (client) =>
      client.on('error', (error) => options.logger.warn({ err: error }, 'outbox relay connection lost')),
    );
    this.batchSize = options.batchSize ?? 200;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.retentionMs = options.retentionMs ?? DEFAULT_OUTBOX_RETENTION_MS;
    this.retentionBatchSize = options.retentionBatchSize ?? RETENTION_BATCH;
    this.retentionSweepIntervalMs = options.retentionSweepIntervalMs ?? RETENTION_SWEEP_INTERVAL_MS;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.listen();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await this.listener?.end().catch(() => undefined);
    await this.pool.end();
  }

  /** Claims and publishes one batch; returns how many rows it published. Exposed for tests. */
  async publishBatch(): Promise<number> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const { rows: lock } = await client.query<{ locked: boolean }>(RELAY_LOCK_SQL);
      if (!lock[0]?.locked) {
        await client.query('rollback');
        return 0;
      }
      const { rows } = await client.query<OutboxRow>(
        `select id, event_id, topic, message_key, payload, trace_context from outbox
          where published_at is null order by id limit $1 for update skip locked`,
        [this.batchSize],
      );
      if (rows.length > 0) {
        await this.send(rows);
        await client.query('update outbox set published_at = now() where id = any($1::bigint[])', [
          rows.map((r) => r.id),
        ]);
      }
      await client.query('commit');
      return rows.length;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** One producer span per event, child of the request that recorded it; its context rides in the headers. */
  private async send(rows: OutboxRow[]): Promise<void> {
    const spans = [];
    const byTopic = new Map<string, Message[]>();
    for (const row of rows) {
      const parent = traceContextFromCarrier(row.trace_context);
      const span = tracer.startSpan(
        `publish ${row.topic}`,
        {
          kind: SpanKind.PRODUCER,
          attributes: {
            'messaging.system': 'kafka',
            'messaging.operation.type': 'publish',
            'messaging.destination.name': row.topic,
            'messaging.message.id': row.event_id,
            'messaging.kafka.message.key': row.message_key,
          },
        },
        parent,
      );
      spans.push(span);
      const headers = { ...captureTraceContext(trace.setSpan(context.active(), span)), 'event-id': row.event_id };
      const messages = byTopic.get(row.topic) ?? [];
      messages.push({ key: row.message_key, value: row.payload, headers });
      byTopic.set(row.topic, messages);
    }
    try {
      await this.options.producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
      });
    } catch (error) {
      for (const span of spans) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      throw error;
    } finally {
      for (const span of spans) span.end();
    }
  }

  private async listen(): Promise<void> {
    const listener = new pg.Client({ connectionString: this.options.databaseUrl });
    listener.on('notification', () => this.wake?.());
    listener.on('error', (error) => {
      // Polling carries on; the next start of the loop reconnects the listener.
      this.options.logger.warn({ err: error }, 'outbox listener lost its connection');
      this.listener = undefined;
    });
    await listener.connect();
    await listener.query(`listen ${OUTBOX_CHANNEL}`);
    this.listener = listener;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        if (!this.listener) await this.listen();
        const published = await this.publishBatch();
        failures = 0;
        if (published >= this.batchSize) continue; // more waiting: no sleep
        // One retention batch per turn, between publishes: a big backlog never delays new events long.
        if (await this.sweepStep()) continue;
        await this.sleep(this.pollIntervalMs);
      } catch (error) {
        failures += 1;
        this.options.logger.error({ err: error, failures }, 'outbox relay batch failed; retrying');
        await this.sleep(Math.min(200 * 2 ** failures, 10_000));
      }
    }
  }

  /**
   * Deletes at most one batch of published rows past retention, oldest first; returns how many.
   * Unpublished rows are never touched, whatever their age. Exposed for tests.
   */
  async deleteExpiredBatch(): Promise<number> {
    // Database time on both sides: published_at is written by the database's now().
    const { rowCount } = await this.pool.query(
      `delete from outbox where id in (
         select id from outbox where published_at < now() - make_interval(secs => $1)
          order by published_at limit $2 for update skip locked
       )`,
      [this.retentionMs / 1000, this.retentionBatchSize],
    );
    return rowCount ?? 0;
  }

  /** A turn of the retention sweep when one is due; true while expired rows remain. */
  private async sweepStep(): Promise<boolean> {
    if (Date.now() < this.nextSweepAt) return false;
    try {
      if ((await this.deleteExpiredBatch()) >= this.retentionBatchSize) return true;
    } catch (error) {
      // Retention can wait for its next turn; publishing must not back off because of it.
      this.options.logger.warn({ err: error }, 'outbox retention sweep failed');
    }
    this.nextSweepAt = Date.now() + this.retentionSweepIntervalMs;
    return false;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
