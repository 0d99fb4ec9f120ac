import { baseConfigShape, ConfigError, env, grpcClientConfigShape, parseConfig, z } from '@corridor/config';

export const dashboardConfigShape = {
  ...baseConfigShape,
  ...grpcClientConfigShape,
  /** Address the listener binds; 0.0.0.0 in a cluster, loopback on a laptop. */
  DASHBOARD_BIND_HOST: z.string().min(1).default('127.0.0.1'),
  DASHBOARD_PORT: env.port(8090),
  /**
   * The public origin members reach (scheme://host[:port]). Forms must come from it (Origin check),
   * and cookies are Secure with the __Host- prefix unless it is plain-HTTP loopback.
   */
  DASHBOARD_ORIGIN: z.url().default('http://127.0.0.1:8090'),
  /** The same environment's public API, shown to members (seed 1: dashboard and API base URL belong together). */
  API_BASE_URL: z.url().default('http://127.0.0.1:8080'),
  IDENTITY_GRPC_ADDRESS: env.grpcTarget('127.0.0.1:50051'),
  CUSTOMER_GRPC_ADDRESS: env.grpcTarget('127.0.0.1:50052'),
  NOTIFICATION_GRPC_ADDRESS: env.grpcTarget('127.0.0.1:50053'),
  PAYMENTS_GRPC_ADDRESS: env.grpcTarget('127.0.0.1:50054'),
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  /** Prefix of every Redis key; the gateways of this environment must use the same one (shared access cache). */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, ".", "_" and "-" only')
    .default('corridor'),
  /** Which proxies' X-Forwarded-For is believed for the member's address (sign-in limits, audit log). */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value) => (value === 'false' ? false : value === 'true' ? true : value)),
  /** A session ends after this long without a request (sliding). */
  SESSION_IDLE_SECONDS: env.positiveInt(30 * 60),
  /** A session ends this long after sign-in, however active. */
  SESSION_ABSOLUTE_SECONDS: env.positiveInt(12 * 60 * 60),
  /** Failed sign-ins one address may make per window before it must wait. */
  SIGN_IN_FAILURES_PER_ADDRESS: env.positiveInt(20),
  SIGN_IN_FAILURE_WINDOW_SECONDS: env.positiveInt(15 * 60),
};

export type DashboardConfig = ReturnType<typeof parseDashboardConfig>;

/** Plain HTTP is allowed on loopback only: anywhere else session cookies would travel in clear. */
export function cookiesAreSecure(origin: string): boolean {
  const { protocol, hostname } = new URL(origin);
  if (protocol === 'https:') return true;
  return !(hostname === '127.0.0.1' || hostname === 'localhost');
}

export function parseDashboardConfig(source: NodeJS.ProcessEnv = process.env) {
  const config = parseConfig(dashboardConfigShape, source);
  const origin = new URL(config.DASHBOARD_ORIGIN);
  if (origin.origin !== config.DASHBOARD_ORIGIN.replace(/\/$/, '')) {
    throw new ConfigError([
      `DASHBOARD_ORIGIN: must be an origin only, like https://dashboard.example.com (got ${JSON.stringify(config.DASHBOARD_ORIGIN)})`,
    ]);
  }
  if (cookiesAreSecure(config.DASHBOARD_ORIGIN) && origin.protocol !== 'https:') {
    throw new ConfigError([
      `DASHBOARD_ORIGIN: must be https:// unless it is http://127.0.0.1 or http://localhost (got ${JSON.stringify(config.DASHBOARD_ORIGIN)})`,
    ]);
  }
  if (config.SESSION_IDLE_SECONDS > config.SESSION_ABSOLUTE_SECONDS) {
    throw new ConfigError([
      `SESSION_IDLE_SECONDS: must not exceed SESSION_ABSOLUTE_SECONDS (got ${config.SESSION_IDLE_SECONDS})`,
    ]);
  }
  return { ...config, DASHBOARD_ORIGIN: origin.origin };
}

/** parseDashboardConfig for the entry point: a bad variable stops the process with its name (exit 78, as loadConfig). */
export function loadDashboardConfig(source: NodeJS.ProcessEnv = process.env): DashboardConfig {
  try {
    return parseDashboardConfig(source);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`dashboard: refusing to start, ${error.message}\n`);
    process.exit(78);
  }
}
