import {
  createIdempotentProducer,
  createKafka,
  OutboxRelay,
  pruneProcessedEvents,
  pruneResolvedDeadLetters,
  RETENTION_SWEEP_INTERVAL_MS,
  type Kafka,
  type Producer,
} from '@corridor/bus';
import { openDatabase, pingDatabase, type MikroORM, type ServiceDatabaseOptions } from '@corridor/db';
import { createHealthService, startGrpcServer, type HealthService, type ServiceRegistration } from '@corridor/grpc';
import { createLogger, type Logger, type LoggerOptions } from '@corridor/logging';
import { systemClock, type Clock } from './clock.js';
import { PeriodicTasks, type PeriodicTask } from './periodic-tasks.js';

/** How long a stop may take before the process exits anyway: inside Kubernetes' default 30 s grace. */
const STOP_DEADLINE_MS = 20_000;

export interface StartServiceOptions {
  /** The service's name: its logs' `service`, its Kafka client id, and the `<name> listening` line. */
  name: string;
  /** Level (and, in tests, destination) of the service's logger. */
  log?: LoggerOptions;
  database: ServiceDatabaseOptions;
  kafkaBrokers: string[];
  /**
   * Publishes the outbox to Kafka (producing services); absent for a service that only consumes.
   * Published rows older than `retentionMs` (default 72 h) are deleted in batches (decision 0017).
   */
  outbox?: { enabled: boolean; pollIntervalMs: number; retentionMs?: number };
  /**
   * Consuming services (an EventConsumer's processed_event and dead_letter tables): prunes
   * processed_event rows older than `processedEventRetentionMs` (decision 0017) and resolved dead
   * letters past theirs (decision 0023), in batches, every `sweepIntervalMs` (default hourly) by the
   * service's clock.
   */
  eventConsumer?: { processedEventRetentionMs: number; sweepIntervalMs?: number };
  /** The service's one clock, handed to its context; the system's when absent. */
  clock?: Clock;
  /** Flushed last at shutdown (the service's instrument.ts). */
  telemetry?: { shutdown(): Promise<void> };
  /** Signals that stop the process, which then exits 0 (1 if a step failed); [] in tests. */
  signals?: readonly NodeJS.Signals[];
}

/**
 * When a step registered with `onStop` runs. 'before-server': while gRPC still answers, to stop taking
 * new work (consumers, workers); 'after-server': once gRPC calls and the relay are done (clients, pools).
 */
export type StopPhase = 'before-server' | 'after-server';

export interface ServeOptions {
  /** host:port of the gRPC server; port 0 picks a free one. */
  address: string;
  /**
   * The service's gRPC services. grpc.health.v1 is added: "" and each of them SERVING while the
   * database answers (readiness), `liveness` SERVING while the process runs.
   */
  services: ServiceRegistration[];
  /** Started once the port is bound, before the listening line: consumers, workers. A port clash fails first. */
  startWork?: () => Promise<void>;
  /** Extra fields of the listening line. */
  logFields?: Record<string, unknown>;
}

export interface RunningService {
  readonly logger: Logger;
  /** The service's database, checked to have no pending migration. */
  readonly orm: MikroORM;
  readonly clock: Clock;
  /** A client of the cluster (connects nothing by itself), for the service's consumers. */
  readonly kafka: Kafka;
  /** Adds a step to the shutdown; steps of one phase run in the order they were added. */
  onStop(name: string, stop: () => Promise<void> | void, phase?: StopPhase): void;
  /** Runs `task` every `intervalMs` (after the previous run ends), logging failures, until shutdown. */
  every(name: string, intervalMs: number, task: PeriodicTask): void;
  /** Starts gRPC with health, then `startWork`, logs `<name> listening`, and stops on the signals. */
  serve(options: ServeOptions): Promise<{ port: number; health: HealthService }>;
  /**
   * Closes everything, in this order: periodic tasks, 'before-server' steps, the gRPC server (running
   * calls finish), the outbox relay and producer, 'after-server' steps, the database, telemetry.
   * Every step runs even if one fails; then it rejects naming the failed ones. Called once; again: same promise.
   */
  stop(reason: string): Promise<void>;
}

interface StopStep {
  name: string;
  stop: () => Promise<void> | void;
}

/**
 * The start-up every gRPC service shares: logger, database (refusing to start with pending
 * migrations: they are a deploy step, never a side effect of start), Kafka, the outbox relay.
 * The service then builds its context from the handle and calls `serve`.
 */
export async function startService(options: StartServiceOptions): Promise<RunningService> {
  const { name } = options;
  const logger = createLogger(name, options.log);
  const orm = await openDatabase(options.database);
  let producer: Producer | undefined;
  let relay: OutboxRelay | undefined;
  const kafka = createKafka(name, options.kafkaBrokers, logger);
  try {
    const pending = await orm.migrator.getPending();
    if (pending.length > 0) {
      throw new Error(`${name} database has pending migrations: ${pending.map((m) => m.name).join(', ')}`);
    }
    if (options.outbox?.enabled) {
      producer = createIdempotentProducer(kafka);
      await producer.connect();
      relay = new OutboxRelay({
        databaseUrl: options.database.databaseUrl,
        producer,
        logger,
        pollIntervalMs: options.outbox.pollIntervalMs,
        ...(options.outbox.retentionMs === undefined ? {} : { retentionMs: options.outbox.retentionMs }),
      });
      await relay.start();
    }
  } catch (error) {
    // Nothing half-open is left behind (a test process, a retrying caller).
    await producer?.disconnect().catch(() => undefined);
    await orm.close();
    throw error;
  }

  const periodic = new PeriodicTasks(logger);
  const clock = options.clock ?? systemClock;
  const eventConsumer = options.eventConsumer;
  if (eventConsumer) {
    const interval = eventConsumer.sweepIntervalMs ?? RETENTION_SWEEP_INTERVAL_MS;
    periodic.every('processed event retention', interval, async (signal) => {
      const deleted = await pruneProcessedEvents(orm.em.fork(), {
        now: clock(),
        retentionMs: eventConsumer.processedEventRetentionMs,
        signal,
      });
      if (deleted > 0) logger.info({ deleted }, 'processed events past retention deleted');
    });
    // Unresolved dead letters stay until a retry resolves them.
    periodic.every('dead letter retention', interval, async (signal) => {
      const deleted = await pruneResolvedDeadLetters(orm.em.fork(), { now: clock(), signal });
      if (deleted > 0) logger.info({ deleted }, 'resolved dead letters past retention deleted');
    });
  }
  const steps: Record<StopPhase, StopStep[]> = { 'before-server': [], 'after-server': [] };
  let server: { shutdown(): Promise<void> } | undefined;
  let stopping: Promise<void> | undefined;
  /** The shutdown step under way, named when the deadline cuts it short. */
  let stoppingStep = '';

  const runStop = async (reason: string): Promise<void> => {
    logger.info({ signal: reason }, `${name} stopping`);
    const sequence: StopStep[] = [
      { name: 'periodic tasks', stop: () => periodic.stop() },
      ...steps['before-server'],
      { name: 'gRPC server', stop: () => server?.shutdown() },
      { name: 'outbox relay', stop: () => relay?.stop() },
      { name: 'Kafka producer', stop: () => producer?.disconnect() },
      ...steps['after-server'],
      { name: 'database', stop: () => orm.close() },
      { name: 'telemetry', stop: () => options.telemetry?.shutdown() },
    ];
    const failed: string[] = [];
    for (const step of sequence) {
      stoppingStep = step.name;
      try {
        await step.stop();
      } catch (error) {
        failed.push(step.name);
        logger.error({ err: error, step: step.name }, `${name} could not stop ${step.name}`);
      }
    }
    if (failed.length > 0) throw new Error(`${name} stopped with failures: ${failed.join(', ')}`);
  };

  const service: RunningService = {
    logger,
    orm,
    clock,
    kafka,
    onStop(stepName, stop, phase = 'after-server') {
      if (stopping) throw new Error(`cannot add "${stepName}" to the shutdown: ${name} is already stopping`);
      steps[phase].push({ name: stepName, stop });
    },
    every: (taskName, intervalMs, task) => periodic.every(taskName, intervalMs, task),
    async serve(serveOptions) {
      if (server) throw new Error(`${name} is already serving`);
      const health = createHealthService(
        serveOptions.services.map((registration) => registration.service.typeName),
        {
          readiness: [{ name: 'database', check: () => pingDatabase(orm) }],
          onChange: (ready, failed) =>
            ready
              ? logger.info(`${name} ready: its dependencies answer again`)
              : logger.warn(
                  { err: failed?.error, dependency: failed?.name },
                  `${name} not ready: ${failed?.name} unavailable`,
                ),
        },
      );
      const grpc = await startGrpcServer({
        address: serveOptions.address,
        logger,
        services: [health.registration, ...serveOptions.services],
      });
      server = grpc;
      await serveOptions.startWork?.();
      const relayField = options.outbox ? { relay: relay !== undefined } : {};
      logger.info({ port: grpc.port, ...relayField, ...serveOptions.logFields }, `${name} listening`);
      for (const signal of options.signals ?? ['SIGTERM', 'SIGINT']) {
        process.on(signal, () => {
          // A step that never ends (a broker or database that went away mid-shutdown) must not
          // keep the process: Kubernetes would SIGKILL it after its grace period anyway, and a
          // supervisor or a test would wait for ever. Exit 1, naming the step.
          const deadline = setTimeout(() => {
            logger.error({ step: stoppingStep }, `${name} did not stop within ${STOP_DEADLINE_MS} ms`);
            process.exit(1);
          }, STOP_DEADLINE_MS);
          deadline.unref();
          void service.stop(signal).then(
            () => process.exit(0),
            () => process.exit(1),
          );
        });
      }
      return { port: grpc.port, health };
    },
    stop(reason) {
      stopping ??= runStop(reason);
      return stopping;
    },
  };
  return service;
}
