import { NotificationService } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { openDatabase } from '@corridor/db';
import { createHealthService, startGrpcServer } from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import type { Telemetry } from '@corridor/telemetry';
import { loadNotificationConfig } from './config.js';
import type { NotificationContext } from './context.js';
import { notificationDatabase } from './database.js';
import { notificationServiceRegistration } from './notification.grpc.js';
import { WebhookSecrets } from './secrets/webhook-secrets.js';

export async function bootstrap({ telemetry }: { telemetry: Telemetry }): Promise<void> {
  const config = loadNotificationConfig();
  const logger = createLogger('notification', { level: config.LOG_LEVEL });

  const orm = await openDatabase(notificationDatabase(config.DATABASE_URL));
  const pending = await orm.migrator.getPending();
  if (pending.length > 0) {
    // Migrations are a deploy step (Helm hook, `migration:up`), never a side effect of start.
    throw new Error(`notification database has pending migrations: ${pending.map((m) => m.name).join(', ')}`);
  }

  if (config.WEBHOOK_ALLOW_CIDRS.length > 0) {
    logger.warn({ cidrs: config.WEBHOOK_ALLOW_CIDRS }, 'test-only webhook allow list in effect');
  }
  const context: NotificationContext = {
    now: () => new Date(),
    secrets: new WebhookSecrets(config.NOTIFICATION_SECRET_KEY),
    webhookUrls: { allowCidrs: config.WEBHOOK_ALLOW_CIDRS },
  };
  const health = createHealthService([NotificationService.typeName]);
  const grpc = await startGrpcServer({
    address: config.NOTIFICATION_GRPC_ADDRESS,
    logger,
    services: [health.registration, notificationServiceRegistration({ orm, context })],
  });
  logger.info({ port: grpc.port }, 'notification listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'notification stopping');
    await grpc.shutdown();
    await orm.close();
    await telemetry.shutdown();
    process.exit(0);
  };
  process.on('SIGTERM', (signal) => void stop(signal));
  process.on('SIGINT', (signal) => void stop(signal));
}
