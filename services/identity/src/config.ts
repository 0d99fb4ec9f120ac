import { DEFAULT_OUTBOX_RETENTION_MS } from '@corridor/bus';
import {
  baseConfigShape,
  databaseConfigShape,
  env,
  kafkaConfigShape,
  loadConfig,
  outboxConfigShape,
  z,
} from '@corridor/config';

export const identityConfigShape = {
  ...baseConfigShape,
  IDENTITY_GRPC_ADDRESS: env.address('127.0.0.1:50051'),
  ...databaseConfigShape('corridor_identity'),
  ...kafkaConfigShape,
  ...outboxConfigShape(DEFAULT_OUTBOX_RETENTION_MS),
  /** Master secret: client-secret pepper and signing-key encryption are derived from it. */
  IDENTITY_SECRET_KEY: env.secret(32),
  /** Access token lifetime (seed 5 leaves it open; Stripe-like platforms use an hour). */
  TOKEN_LIFETIME_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3_600),
  /** Defaults: corridor:<environment> and corridor-api:<environment>, so environments reject each other's tokens. */
  TOKEN_ISSUER: z.string().min(1).optional(),
  TOKEN_AUDIENCE: z.string().min(1).optional(),
  /**
   * Test-only: shifts identity's clock by this many seconds, so an end-to-end test can mint a real
   * token that has already expired (-7200 with a 3600 s lifetime). Refused in production.
   */
  CLOCK_OFFSET_SECONDS: z.coerce.number().int().default(0),
  /**
   * Where the mail relay sends identity's mails (invitations, password resets), e.g.
   * smtp://127.0.0.1:2525 or smtps://user:pass@host:465. Unset: the relay is off and mails stay queued.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL, e.g. smtp://127.0.0.1:2525')
    .optional(),
  /** The From of identity's mails. */
  MAIL_FROM: z
    .string()
    .min(3, 'must be a mail address, e.g. Corridor <no-reply@corridor.test>')
    .default('Corridor <no-reply@corridor.test>'),
  /** How often the mail relay looks for due mails. */
  MAIL_POLL_INTERVAL_MS: env.positiveInt(1_000),
  /** The dashboard's origin: the links in invitation and password-reset mails point there. */
  DASHBOARD_URL: z
    .url({ message: 'must be an http(s) URL, e.g. http://127.0.0.1:8090' })
    .regex(/^https?:\/\//, 'must be an http(s) URL, e.g. http://127.0.0.1:8090')
    .default('http://127.0.0.1:8090'),
};

export type IdentityConfig = ReturnType<typeof loadIdentityConfig>;

export function loadIdentityConfig(source: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig('identity', identityConfigShape, source);
  if (config.CORRIDOR_ENVIRONMENT === 'production' && config.CLOCK_OFFSET_SECONDS !== 0) {
    // A shifted clock in production would mint tokens with a wrong lifetime: refuse, as for any bad value.
    process.stderr.write(
      `identity: refusing to start, invalid configuration:\n  - CLOCK_OFFSET_SECONDS: is for tests only and must be 0 when CORRIDOR_ENVIRONMENT=production (got ${JSON.stringify(source.CLOCK_OFFSET_SECONDS)})\n`,
    );
    process.exit(78);
  }
  return config;
}
