import { once } from 'node:events';
import type { Server } from 'node:http';
import { createLogger } from '@corridor/logging';
import type { Telemetry } from '@corridor/telemetry';
import { createClient as createRedisClient, type RedisClientType } from 'redis';
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

  const redis = createRedisClient({
    url: config.REDIS_URL,
    // Fail a command at once while disconnected instead of queueing the request behind it.
    disableOfflineQueue: true,
    // Keep retrying in the background; /readyz reports Redis down meanwhile.
    socket: { reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000), connectTimeout: 2_000 },
  }) as RedisClientType;
  redis.on('error', (error: Error) => logger.warn({ err: error }, 'redis connection problem'));
  redis.connect().catch((error: unknown) => logger.warn({ err: error }, 'redis not reachable at start'));

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
      {
        name: 'redis',
        async check() {
          if (!redis.isReady) throw new Error('not connected');
          await redis.ping();
        },
      },
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
