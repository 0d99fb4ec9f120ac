import { topicName } from '@corridor/contracts/events';
import { offsetClock, startService, type RunningService } from '@corridor/runtime';
import type { Telemetry } from '@corridor/telemetry';
import { identityServiceRegistration } from './identity.grpc.js';
import { MailRelay } from './mail/mail-relay.js';
import { memberServiceRegistration } from './members/member.grpc.js';
import { IdentitySecrets } from './secrets/identity-secrets.js';
import { loadSigningKey } from './tokens/signing-keys.js';
import { loadIdentityConfig, type IdentityConfig } from './config.js';
import type { IdentityContext } from './context.js';
import { identityDatabase } from './database.js';

export async function bootstrap({ telemetry }: { telemetry: Telemetry }): Promise<void> {
  const config = loadIdentityConfig();
  const service = await startService({
    name: 'identity',
    log: { level: config.LOG_LEVEL },
    database: identityDatabase(config.DATABASE_URL),
    kafkaBrokers: config.KAFKA_BROKERS,
    outbox: {
      enabled: config.OUTBOX_RELAY_ENABLED,
      pollIntervalMs: config.OUTBOX_POLL_INTERVAL_MS,
      retentionMs: config.OUTBOX_RETENTION_MS,
    },
    clock: offsetClock(config.CLOCK_OFFSET_SECONDS * 1000),
    telemetry,
  });
  const { logger, orm } = service;
  if (config.CLOCK_OFFSET_SECONDS !== 0) {
    logger.warn({ seconds: config.CLOCK_OFFSET_SECONDS }, 'test-only clock offset in effect');
  }

  const secrets = new IdentitySecrets(config.IDENTITY_SECRET_KEY);
  const context: IdentityContext = {
    environment: config.CORRIDOR_ENVIRONMENT,
    topic: topicName(config.KAFKA_TOPIC_PREFIX, 'identity'),
    now: service.clock,
  };
  startMailRelay(service, config);
  await service.serve({
    address: config.IDENTITY_GRPC_ADDRESS,
    services: [
      identityServiceRegistration({
        orm,
        context,
        secrets,
        signingKey: await loadSigningKey(orm, secrets, context.now),
        tokens: {
          environment: config.CORRIDOR_ENVIRONMENT,
          issuer: config.TOKEN_ISSUER ?? `corridor:${config.CORRIDOR_ENVIRONMENT}`,
          audience: config.TOKEN_AUDIENCE ?? `corridor-api:${config.CORRIDOR_ENVIRONMENT}`,
          lifetimeSeconds: config.TOKEN_LIFETIME_SECONDS,
          now: context.now,
        },
      }),
      memberServiceRegistration({
        orm,
        // Links are `${dashboardUrl}/invitation/<token>`: a trailing slash in the setting is not doubled.
        context: { ...context, secrets, dashboardUrl: config.DASHBOARD_URL.replace(/\/+$/, '') },
      }),
    ],
  });
}

/** Sends the mail outbox through SMTP_URL; without it mails stay queued (a later start with it sends them). */
function startMailRelay(service: RunningService, config: IdentityConfig): void {
  const { logger, orm } = service;
  if (!config.SMTP_URL) {
    logger.warn('SMTP_URL is not set: the mail relay is off, invitation and password-reset mails stay queued');
    return;
  }
  const relay = new MailRelay({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, now: service.clock, logger });
  service.every('mail relay', config.MAIL_POLL_INTERVAL_MS, async (signal) => {
    const sent = await relay.sendDue(orm.em.fork(), signal);
    if (sent > 0) logger.info({ sent }, 'mails sent');
  });
  service.onStop('mail transport', () => relay.close());
}
