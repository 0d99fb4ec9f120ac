import { DEFAULT_PROCESSED_EVENT_RETENTION_MS } from '@corridor/bus';
import {
  baseConfigShape,
  databaseConfigShape,
  env,
  eventConsumerConfigShape,
  kafkaConfigShape,
  loadConfig,
  z,
} from '@corridor/config';
import { isIP } from 'node:net';
import { DEFAULT_HEALTH_RULES } from './health/url-health.js';

/** An address (`127.0.0.1`, `::1`) or a CIDR (`127.0.0.0/8`, `fd00::/8`), as the SSRF guard takes them. */
function isAddressOrCidr(entry: string): boolean {
  const [network = '', prefix, extra] = entry.split('/');
  const family = isIP(network);
  if (family === 0 || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

export const notificationConfigShape = {
  ...baseConfigShape,
  NOTIFICATION_GRPC_ADDRESS: env.address('127.0.0.1:50053'),
  ...databaseConfigShape('corridor_notification'),
  ...kafkaConfigShape,
  /** Its group (event topics, processed_event) defaults to `<KAFKA_TOPIC_PREFIX>notification`. */
  ...eventConsumerConfigShape(DEFAULT_PROCESSED_EVENT_RETENTION_MS),
  /** Master secret: the key that encrypts signing secrets at rest is derived from it. */
  NOTIFICATION_SECRET_KEY: env.secret(32),
  /**
   * Test-only: comma-separated CIDRs a webhook URL may resolve to although they are not global
   * (the tests' receivers on 127.0.0.1). Refused in production.
   */
  WEBHOOK_ALLOW_CIDRS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== ''),
    )
    // Checked here, so a typo stops the start rather than failing every registration later.
    .pipe(z.array(z.string().refine(isAddressOrCidr, 'each entry must be an IP address or CIDR (127.0.0.0/8, ::1)'))),
  /**
   * Delay before each attempt, counted from the previous one (seed 6.4 rule 4): attempt 1 immediate,
   * then 1 min, 5 min, 15 min, 1 h. As many entries as attempts; tests scale them down to seconds.
   */
  WEBHOOK_RETRY_SCHEDULE_MS: z
    .string()
    .default('0,60000,300000,900000,3600000')
    .transform((value) => value.split(',').map((entry) => (entry.trim() === '' ? Number.NaN : Number(entry))))
    .pipe(
      z
        .array(z.number('each delay must be a number of milliseconds').int().min(0, 'each delay must be 0 or more'))
        .min(1),
    ),
  /** Whole-attempt limit: receivers are to reply within 30 seconds (seed 6.4 rule 6). */
  WEBHOOK_TIMEOUT_MS: env.positiveInt(30_000),
  /** TCP and TLS connect limit, well under the whole-attempt one: a dead host fails fast. */
  WEBHOOK_CONNECT_TIMEOUT_MS: env.positiveInt(5_000),
  /** Attempts one process makes at once, across every business. */
  WEBHOOK_CONCURRENCY: env.positiveInt(32),
  /** Attempts in flight to one registration at once: a hanging receiver holds at most this many slots. */
  WEBHOOK_ENDPOINT_CONCURRENCY: env.positiveInt(4),
  /** How often the worker looks for due deliveries when nothing woke it. */
  WEBHOOK_POLL_INTERVAL_MS: env.positiveInt(1_000),
  /** Deliveries (and their attempts) that are no longer pending are deleted after this many days. */
  WEBHOOK_RETENTION_DAYS: env.positiveInt(30),
  /**
   * Endpoint health (decision 0068): a URL whose deliveries have all failed, after their retries, for
   * this long (first failure of the unbroken run to the latest) is disabled. 5 days.
   */
  WEBHOOK_DISABLE_AFTER_MS: env.positiveInt(DEFAULT_HEALTH_RULES.disableAfterMs),
  /** ... or for this many deliveries in a row, whichever comes first (decision 0068). */
  WEBHOOK_DISABLE_AFTER_EVENTS: env.positiveInt(DEFAULT_HEALTH_RULES.disableAfterEvents),
  /** Test-only: a PEM file of CAs trusted besides the system's (the tests' receivers). Refused in production. */
  WEBHOOK_EXTRA_CA_FILE: z.string().min(1).optional(),
  /**
   * Serve `corridor listen` (ListenDeliveries, RecordListenAttempt) in production too; off by
   * default: it is a sandbox tool and hands the business's webhooks to whoever holds webhook:read.
   */
  WEBHOOK_LISTEN_IN_PRODUCTION: env.boolean(false),
  /** Port of the Prometheus /metrics listener; 0 turns it off. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
};

export type NotificationConfig = ReturnType<typeof loadNotificationConfig>;

export function loadNotificationConfig(source: NodeJS.ProcessEnv = process.env) {
  const loaded = loadConfig('notification', notificationConfigShape, source);
  const config = { ...loaded, KAFKA_GROUP_ID: loaded.KAFKA_GROUP_ID ?? `${loaded.KAFKA_TOPIC_PREFIX}notification` };
  if (config.CORRIDOR_ENVIRONMENT === 'production') {
    // Letting webhooks reach internal addresses, or trusting a CA of our own, in production is the
    // SSRF and interception the guard exists to stop.
    const testOnly = [
      config.WEBHOOK_ALLOW_CIDRS.length > 0
        ? `WEBHOOK_ALLOW_CIDRS (got ${JSON.stringify(source.WEBHOOK_ALLOW_CIDRS)})`
        : '',
      config.WEBHOOK_EXTRA_CA_FILE ? `WEBHOOK_EXTRA_CA_FILE (got ${JSON.stringify(config.WEBHOOK_EXTRA_CA_FILE)})` : '',
    ].filter(Boolean);
    if (testOnly.length > 0) {
      process.stderr.write(
        `notification: refusing to start, invalid configuration:\n${testOnly
          .map((name) => `  - ${name}: is for tests only and must be unset when CORRIDOR_ENVIRONMENT=production\n`)
          .join('')}`,
      );
      process.exit(78);
    }
  }
  return config;
}
