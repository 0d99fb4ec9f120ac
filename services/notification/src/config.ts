import { env, loadConfig, z } from '@corridor/config';
import { isIP } from 'node:net';

/** An address (`127.0.0.1`, `::1`) or a CIDR (`127.0.0.0/8`, `fd00::/8`), as the SSRF guard takes them. */
function isAddressOrCidr(entry: string): boolean {
  const [network = '', prefix, extra] = entry.split('/');
  const family = isIP(network);
  if (family === 0 || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

export const notificationConfigShape = {
  NOTIFICATION_GRPC_ADDRESS: env.address('127.0.0.1:50053'),
  DATABASE_URL: z.url().default('postgres://corridor:corridor@127.0.0.1:5432/corridor_notification'),
  CORRIDOR_ENVIRONMENT: env.environment(),
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
  LOG_LEVEL: env.logLevel(),
};

export type NotificationConfig = ReturnType<typeof loadNotificationConfig>;

export function loadNotificationConfig(source: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig('notification', notificationConfigShape, source);
  if (config.CORRIDOR_ENVIRONMENT === 'production' && config.WEBHOOK_ALLOW_CIDRS.length > 0) {
    // Letting webhooks reach internal addresses in production is the SSRF the guard exists to stop.
    process.stderr.write(
      `notification: refusing to start, invalid configuration:\n  - WEBHOOK_ALLOW_CIDRS: is for tests only and must be empty when CORRIDOR_ENVIRONMENT=production (got ${JSON.stringify(source.WEBHOOK_ALLOW_CIDRS)})\n`,
    );
    process.exit(78);
  }
  return config;
}
