import { IDEMPOTENCY_KEY_RETENTION_MS, pruneIdempotencyKeys } from '@corridor/idempotency';
import { deadLetterServiceRegistration, EventConsumer } from '@corridor/bus';
import { startService } from '@corridor/runtime';
import { BusinessClock, sandboxClockCopyRegistration } from '@corridor/sandbox-clock';
import type { Telemetry } from '@corridor/telemetry';
import { readFileSync } from 'node:fs';
import { loadNotificationConfig } from './config.js';
import type { NotificationContext } from './context.js';
import { notificationDatabase } from './database.js';
import type { DeliveryRuntime } from './deliveries/attempt-delivery.js';
import { deliveryClock } from './deliveries/delivery-clock.js';
import { DeliveryRepository } from './deliveries/delivery-repository.js';
import { DeliveryWorker } from './deliveries/delivery-worker.js';
import { WebhookSender } from './deliveries/send-webhook.js';
import { consumerLag } from './events/consumer-lag.js';
import { webhookEventConsumer } from './events/webhook-event-consumer.js';
import { observeGauges } from './metrics.js';
import { notificationServiceRegistration } from './notification.grpc.js';
import { WebhookSecrets } from './secrets/webhook-secrets.js';

/** A claim outlives the longest attempt by this much before another worker may take it over. */
const LEASE_MARGIN_MS = 30_000;

export async function bootstrap({ telemetry }: { telemetry: Telemetry }): Promise<void> {
  const config = loadNotificationConfig();
  const service = await startService({
    name: 'notification',
    log: { level: config.LOG_LEVEL },
    database: notificationDatabase(config.DATABASE_URL),
    kafkaBrokers: config.KAFKA_BROKERS,
    eventConsumer: { processedEventRetentionMs: config.PROCESSED_EVENT_RETENTION_MS },
    telemetry,
  });
  const { logger, orm, kafka, clock: now } = service;

  if (config.WEBHOOK_ALLOW_CIDRS.length > 0 || config.WEBHOOK_EXTRA_CA_FILE) {
    logger.warn(
      { cidrs: config.WEBHOOK_ALLOW_CIDRS, extraCaFile: config.WEBHOOK_EXTRA_CA_FILE },
      'test-only webhook allow list or extra CA in effect',
    );
  }
  const secrets = new WebhookSecrets(config.NOTIFICATION_SECRET_KEY);
  const sender = new WebhookSender({
    allowCidrs: config.WEBHOOK_ALLOW_CIDRS,
    ...(config.WEBHOOK_EXTRA_CA_FILE ? { extraCa: readFileSync(config.WEBHOOK_EXTRA_CA_FILE, 'utf8') } : {}),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    connectTimeoutMs: config.WEBHOOK_CONNECT_TIMEOUT_MS,
    now,
  });
  const clock = new BusinessClock(now, config.CORRIDOR_ENVIRONMENT);
  const runtime: DeliveryRuntime = {
    sender,
    secrets,
    scheduleMs: config.WEBHOOK_RETRY_SCHEDULE_MS,
    leaseMs: config.WEBHOOK_CONNECT_TIMEOUT_MS + config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS,
    now,
    ...deliveryClock(clock, () => orm.em.fork()),
    logger,
    health: {
      disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
      disableAfterEvents: config.WEBHOOK_DISABLE_AFTER_EVENTS,
    },
  };
  const worker = new DeliveryWorker({
    orm,
    runtime,
    concurrency: config.WEBHOOK_CONCURRENCY,
    perEndpoint: config.WEBHOOK_ENDPOINT_CONCURRENCY,
    pollIntervalMs: config.WEBHOOK_POLL_INTERVAL_MS,
    retentionDays: config.WEBHOOK_RETENTION_DAYS,
    logger,
  });

  const context: NotificationContext = {
    now,
    environment: config.CORRIDOR_ENVIRONMENT,
    listenInProduction: config.WEBHOOK_LISTEN_IN_PRODUCTION,
    secrets,
    webhookUrls: { allowCidrs: config.WEBHOOK_ALLOW_CIDRS },
    deliveries: runtime,
    wakeWorker: () => worker.wake(),
  };

  // One set of options for the consumer and the retry of its dead letters (decision 0023).
  const consuming = webhookEventConsumer({
    kafka,
    orm,
    groupId: config.KAFKA_GROUP_ID,
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    environment: config.CORRIDOR_ENVIRONMENT,
    scheduleMs: config.WEBHOOK_RETRY_SCHEDULE_MS,
    now,
    logger,
    wakeWorker: () => worker.wake(),
  });
  const { topics } = consuming;
  const consumer = new EventConsumer(consuming);
  observeGauges({
    pendingDeliveries: () => new DeliveryRepository(orm.em.fork()).countPending(),
    consumerLag: consumerLag(kafka, config.KAFKA_GROUP_ID, topics),
  });

  // No new deliveries, then let the attempts under way finish; whatever is due stays in PostgreSQL.
  service.onStop('event consumer', () => consumer.stop(), 'before-server');
  service.onStop('delivery worker', () => worker.stop(), 'before-server');
  service.onStop('webhook sender', () => sender.close());
  // Keys are kept 24 h (decision 0012), then deleted in bounded batches.
  service.every('idempotency key retention', 60_000, async () => {
    await pruneIdempotencyKeys(service.orm.em.fork(), service.clock(), IDEMPOTENCY_KEY_RETENTION_MS);
  });
  await service.serve({
    address: config.NOTIFICATION_GRPC_ADDRESS,
    services: [
      notificationServiceRegistration({ orm, context }),
      deadLetterServiceRegistration(consuming),
      // A moved clock makes retries due: the worker looks at once.
      sandboxClockCopyRegistration({ em: () => orm.em.fork(), clock }, async () => worker.wake()),
    ],
    startWork: async () => {
      worker.start();
      await consumer.start();
    },
    logFields: { topics },
  });
}
