import { IDEMPOTENCY_KEY_RETENTION_MS, pruneIdempotencyKeys } from '@corridor/idempotency';
import { topicName } from '@corridor/contracts/events';
import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { createClient } from '@corridor/grpc';
import { startService } from '@corridor/runtime';
import { BusinessClock, sandboxClockCopyRegistration } from '@corridor/sandbox-clock';
import type { Telemetry } from '@corridor/telemetry';
import { loadCustomerKybConfig } from './config.js';
import type { CustomerContext } from './context.js';
import { customerServiceRegistration } from './customer.grpc.js';
import { customerKybDatabase } from './database.js';
import { kycSessionServiceRegistration } from './kyc-session.grpc.js';
import { sweepKycSessions } from './kyc-sessions/session-outcomes.js';
import { ObjectStorage } from './files/object-storage.js';

export async function bootstrap({ telemetry }: { telemetry: Telemetry }): Promise<void> {
  const config = loadCustomerKybConfig();
  const service = await startService({
    name: 'customer-kyb',
    log: { level: config.LOG_LEVEL },
    database: customerKybDatabase(config.DATABASE_URL),
    kafkaBrokers: config.KAFKA_BROKERS,
    outbox: {
      enabled: config.OUTBOX_RELAY_ENABLED,
      pollIntervalMs: config.OUTBOX_POLL_INTERVAL_MS,
      retentionMs: config.OUTBOX_RETENTION_MS,
    },
    telemetry,
  });

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
  // Closed once the gRPC calls that use them have finished.
  service.onStop('identity client', () => identity.close());
  service.onStop('object storage', () => storage.close());

  const context: CustomerContext = {
    environment: config.CORRIDOR_ENVIRONMENT,
    topic: topicName(config.KAFKA_TOPIC_PREFIX, 'customer'),
    now: service.clock,
    clock: new BusinessClock(service.clock, config.CORRIDOR_ENVIRONMENT),
    identity,
    storage,
    files: { maxBytes: config.FILE_MAX_BYTES, uploadUrlTtlSeconds: config.FILE_UPLOAD_URL_TTL_SECONDS },
  };
  // Keys are kept 24 h (decision 0012), then deleted in bounded batches.
  service.every('idempotency key retention', 60_000, async () => {
    await pruneIdempotencyKeys(service.orm.em.fork(), service.clock(), IDEMPOTENCY_KEY_RETENTION_MS);
  });
  const kycSettings = { ttlMs: config.KYC_SESSION_TTL_MS, sandboxVerdictMs: config.SANDBOX_KYC_VERDICT_MS };
  // Sessions expire (and the sandbox's verdicts come) whether or not anyone reads them (seed 3.4).
  const sweep = async () => {
    await sweepKycSessions(service.orm.em.fork(), context);
  };
  service.every('kyc session sweep', config.KYC_SWEEP_INTERVAL_MS, sweep);
  await service.serve({
    address: config.CUSTOMER_GRPC_ADDRESS,
    services: [
      customerServiceRegistration({ orm: service.orm, context }),
      kycSessionServiceRegistration({ orm: service.orm, context, settings: kycSettings }),
      // A moved clock expires what it made due at once, not at the next sweep.
      sandboxClockCopyRegistration({ em: () => service.orm.em.fork(), clock: context.clock }, sweep),
    ],
  });
}
