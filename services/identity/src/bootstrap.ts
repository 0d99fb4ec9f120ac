import { createIdempotentProducer, createKafka, OutboxRelay, topicName } from '@corridor/bus';
import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { openDatabase } from '@corridor/db';
import { createHealthService, startGrpcServer } from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import type { Telemetry } from '@corridor/telemetry';
import { identityServiceRegistration } from './identity.grpc.js';
import { IdentitySecrets } from './secrets/identity-secrets.js';
import { loadSigningKey } from './tokens/signing-keys.js';
import { loadIdentityConfig } from './config.js';
import { identityDatabase } from './database.js';

export async function bootstrap({ telemetry }: { telemetry: Telemetry }): Promise<void> {
  const config = loadIdentityConfig();
  const logger = createLogger('identity', { level: config.LOG_LEVEL });

  const orm = await openDatabase(identityDatabase(config.DATABASE_URL));
  const pending = await orm.migrator.getPending();
  if (pending.length > 0) {
    // Migrations are a deploy step (Helm hook, `migration:up`), never a side effect of start.
    throw new Error(`identity database has pending migrations: ${pending.map((m) => m.name).join(', ')}`);
  }

  const kafka = createKafka('identity', config.KAFKA_BROKERS, logger);
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

  const secrets = new IdentitySecrets(config.IDENTITY_SECRET_KEY);
  const clockOffsetMs = config.CLOCK_OFFSET_SECONDS * 1000;
  if (clockOffsetMs !== 0) logger.warn({ seconds: config.CLOCK_OFFSET_SECONDS }, 'test-only clock offset in effect');
  const context = {
    environment: config.CORRIDOR_ENVIRONMENT,
    topic: topicName(config.KAFKA_TOPIC_PREFIX, 'identity'),
    now: () => new Date(Date.now() + clockOffsetMs),
  };
  const health = createHealthService([IdentityService.typeName]);
  const grpc = await startGrpcServer({
    address: config.IDENTITY_GRPC_ADDRESS,
    logger,
    services: [
      health.registration,
      identityServiceRegistration({
        orm,
        context,
        secrets,
        signingKey: await loadSigningKey(orm, secrets),
        tokens: {
          environment: config.CORRIDOR_ENVIRONMENT,
          issuer: config.TOKEN_ISSUER ?? `corridor:${config.CORRIDOR_ENVIRONMENT}`,
          audience: config.TOKEN_AUDIENCE ?? `corridor-api:${config.CORRIDOR_ENVIRONMENT}`,
          lifetimeSeconds: config.TOKEN_LIFETIME_SECONDS,
          now: context.now,
        },
      }),
    ],
  });
  logger.info({ port: grpc.port, relay: Boolean(relay) }, 'identity listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'identity stopping');
    await grpc.shutdown();
    await relay?.stop();
    await producer.disconnect();
    await orm.close();
    await telemetry.shutdown();
    process.exit(0);
  };
  process.on('SIGTERM', (signal) => void stop(signal));
  process.on('SIGINT', (signal) => void stop(signal));
}
