import { once } from 'node:events';
import { AccessCache, connectRedis, redisReadiness } from '@corridor/access-cache';
import { createLogger } from '@corridor/logging';
import type { Telemetry } from '@corridor/telemetry';
import { dashboardApp } from './app.js';
import { createClients } from './clients.js';
import { cookiesAreSecure, loadDashboardConfig } from './config.js';
import { DashboardCookies } from './http/cookies.js';
import { grpcHealthCheck } from './http/readiness.js';
import { SessionStore } from './sessions/session-store.js';
import { SignInAddressLimit } from './sign-in/address-limit.js';

export async function bootstrap({ telemetry }: { telemetry: Telemetry }): Promise<void> {
  const config = loadDashboardConfig();
  const logger = createLogger('dashboard', { level: config.LOG_LEVEL });

  const redis = connectRedis(config.REDIS_URL, (error, what) => logger.warn({ err: error }, what));

  const clients = createClients(config);
  const environment = config.CORRIDOR_ENVIRONMENT;
  const prefix = config.REDIS_KEY_PREFIX;
  const app = dashboardApp(
    {
      clients,
      sessions: new SessionStore(redis, prefix, environment, {
        idleSeconds: config.SESSION_IDLE_SECONDS,
        absoluteSeconds: config.SESSION_ABSOLUTE_SECONDS,
      }),
      signInLimit: new SignInAddressLimit(
        redis,
        prefix,
        environment,
        config.SIGN_IN_FAILURES_PER_ADDRESS,
        config.SIGN_IN_FAILURE_WINDOW_SECONDS,
      ),
      // The same keys as the gateways of this environment (same prefix), so rotation reaches them.
      accessCache: new AccessCache(redis, environment, prefix),
      cookies: new DashboardCookies(cookiesAreSecure(config.DASHBOARD_ORIGIN)),
      environment,
      origin: config.DASHBOARD_ORIGIN,
      apiBaseUrl: config.API_BASE_URL.replace(/\/$/, ''),
      logger,
    },
    {
      trustProxy: config.TRUST_PROXY,
      readiness: [redisReadiness(redis), grpcHealthCheck('identity', clients.identityHealth)],
    },
  );

  const server = app.listen(config.DASHBOARD_PORT, config.DASHBOARD_BIND_HOST);
  await once(server, 'listening');
  logger.info({ port: config.DASHBOARD_PORT, environment, origin: config.DASHBOARD_ORIGIN }, 'dashboard listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'dashboard stopping');
    await new Promise((resolve) => server.close(resolve));
    clients.close();
    await redis.quit().catch(() => undefined);
    await telemetry.shutdown();
    process.exit(0);
  };
  process.on('SIGTERM', (signal) => void stop(signal));
  process.on('SIGINT', (signal) => void stop(signal));
}
