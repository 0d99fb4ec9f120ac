import { once } from 'node:events';
import type { Server } from 'node:http';
import { connectRedis, redisReadiness } from '@corridor/access-cache';
import { createLogger } from '@corridor/logging';
import type { Telemetry } from '@corridor/telemetry';
import { adminApp, publicApp, type AppOptions } from './app.js';
import { AccessGuard } from './auth/access-guard.js';
import { TokenKeys } from './auth/token-keys.js';
import { createClients } from './clients.js';
import { loadGatewayConfig } from './config.js';
import { grpcHealthCheck } from './health/readiness.js';
import { answerUnparsableRequests } from './http/errors.js';

export async function bootstrap({ telemetry }: { telemetry: Telemetry }): Promise<void> {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', { level: config.LOG_LEVEL });

  const redis = connectRedis(config.REDIS_URL, (error, what) => logger.warn({ err: error }, what));

  const clients = createClients(config);
  const keys = new TokenKeys(clients.identity, logger);
  keys.start();
  const options: AppOptions = {
    clients,
    guard: new AccessGuard(redis, config.CORRIDOR_ENVIRONMENT, config.REDIS_KEY_PREFIX),
    keys,
    logger,
    environment: config.CORRIDOR_ENVIRONMENT,
    adminToken: config.ADMIN_TOKEN,
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    tokenRequestsPerMinute: config.TOKEN_REQUESTS_PER_MINUTE,
    tokenRequestsPerMinutePerAddress: config.TOKEN_REQUESTS_PER_MINUTE_PER_ADDRESS,
    uploadOrigin: config.VERIFICATION_UPLOAD_ORIGIN,
    dashboardUrl: config.DASHBOARD_URL.replace(/\/+$/, ''),
    readiness: [
      redisReadiness(redis),
      grpcHealthCheck('identity', clients.identityHealth),
      grpcHealthCheck('customer-kyb', clients.customerHealth),
      grpcHealthCheck('notification', clients.notificationHealth),
      grpcHealthCheck('payments', clients.paymentsHealth),
      {
        name: 'signing_keys',
        async check() {
          if (!keys.loaded) throw new Error('not loaded from identity yet');
        },
      },
    ],
  };

  const listen = async (app: ReturnType<typeof publicApp>, port: number): Promise<Server> => {
    const server = app.listen(port, config.GATEWAY_BIND_HOST);
    answerUnparsableRequests(server);
    await once(server, 'listening');
    return server;
  };
  const servers = [
    await listen(publicApp(options), config.GATEWAY_PUBLIC_PORT),
    await listen(adminApp(options), config.GATEWAY_ADMIN_PORT),
  ];
  logger.info({ public: config.GATEWAY_PUBLIC_PORT, admin: config.GATEWAY_ADMIN_PORT }, 'gateway listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'gateway stopping');
    keys.stop();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    clients.close();
    await redis.quit().catch(() => undefined);
    await telemetry.shutdown();
    process.exit(0);
  };
  process.on('SIGTERM', (signal) => void stop(signal));
  process.on('SIGINT', (signal) => void stop(signal));
}
