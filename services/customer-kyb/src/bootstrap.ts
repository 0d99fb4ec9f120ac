import { createIdempotentProducer, createKafka, OutboxRelay, topicName } from '@corridor/bus';
import { CustomerService } from '@corridor/contracts/corridor/customer/v1/customer_service_pb';
import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { openDatabase } from '@corridor/db';
import { createClient, createHealthService, startGrpcServer } from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import type { Telemetry } from '@corridor/telemetry';
import { loadCustomerKybConfig } from './config.js';
import type { CustomerContext } from './context.js';
import { customerServiceRegistration } from './customer.grpc.js';
import { customerKybDatabase } from './database.js';
import { ObjectStorage } from './files/object-storage.js';

export async function bootstrap({ telemetry }: { telemetry: Telemetry }): Promise<void> {
  const config = loadCustomerKybConfig();
  const logger = createLogger('customer-kyb', { level: config.LOG_LEVEL });

  const orm = await openDatabase(customerKybDatabase(config.DATABASE_URL));
  const pending = await orm.migrator.getPending();
  if (pending.length > 0) {
    // Migrations are a deploy step (Helm hook, `migration:up`), never a side effect of start.
    throw new Error(`customer-kyb database has pending migrations: ${pending.map((m) => m.name).join(', ')}`);
  }

  const kafka = createKafka('customer-kyb', config.KAFKA_BROKERS, logger);
  const producer = createIdempotentProducer(kafka);
  let relay: OutboxRelay | undefined;
  if (config.OUTBOX_RELAY_ENABLED) {
    await producer.connect();
    relay = new OutboxRelay({
      databaseUrl: config.DATABASE_URL,
      producer,
      logger,
      pollIntervalMs: config.OUTBOX_POLL_INTERVAL_MS,
    });
    await relay.start();
  }

  const storage = new ObjectStorage({
    endpoint: config.S3_ENDPOINT,
    publicEndpoint: config.S3_PUBLIC_ENDPOINT,
    region: config.S3_REGION,
    bucket: config.S3_BUCKET,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
  });
  const identity = createClient(IdentityService, {
    address: config.IDENTITY_GRPC_ADDRESS,
    defaultTimeoutMs: config.GRPC_TIMEOUT_MS,
  });
  const context: CustomerContext = {
    environment: config.CORRIDOR_ENVIRONMENT,
    topic: topicName(config.KAFKA_TOPIC_PREFIX, 'customer'),
    now: () => new Date(),
    identity,
    storage,
    files: { maxBytes: config.FILE_MAX_BYTES, uploadUrlTtlSeconds: config.FILE_UPLOAD_URL_TTL_SECONDS },
  };
  const health = createHealthService([CustomerService.typeName]);
  const grpc = await startGrpcServer({
    address: config.CUSTOMER_GRPC_ADDRESS,
    logger,
    services: [health.registration, customerServiceRegistration({ orm, context })],
  });
  logger.info({ port: grpc.port, relay: Boolean(relay) }, 'customer-kyb listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'customer-kyb stopping');
    await grpc.shutdown();
    await relay?.stop();
    await producer.disconnect();
    identity.close();
    storage.close();
    await orm.close();
    await telemetry.shutdown();
    process.exit(0);
  };
  process.on('SIGTERM', (signal) => void stop(signal));
  process.on('SIGINT', (signal) => void stop(signal));
}
