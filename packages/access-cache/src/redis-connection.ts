import { createClient, type RedisClientType } from 'redis';

/**
 * The Redis connection of a process that serves requests from it (gateway, dashboard): a command
 * fails at once while disconnected, so a request is answered (503) instead of queued behind the
 * outage; the client keeps reconnecting in the background and `redisReadiness` reports it down
 * meanwhile. `onProblem` hears each connection error and a failed first connect.
 */
export function connectRedis(url: string, onProblem: (error: unknown, what: string) => void): RedisClientType {
  const redis = createClient({
    url,
    disableOfflineQueue: true,
    socket: { reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000), connectTimeout: 2_000 },
  }) as RedisClientType;
  redis.on('error', (error: Error) => onProblem(error, 'redis connection problem'));
  redis.connect().catch((error: unknown) => onProblem(error, 'redis not reachable at start'));
  return redis;
}

/** A readiness check of that connection: connected and answering PING. */
export function redisReadiness(redis: RedisClientType) {
  return {
    name: 'redis',
    async check(): Promise<void> {
      if (!redis.isReady) throw new Error('not connected');
      await redis.ping();
    },
  };
}
