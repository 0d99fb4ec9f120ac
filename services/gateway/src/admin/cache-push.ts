import type { Logger } from '@corridor/logging';

/**
 * After identity committed a change, the gateway pushes it into the shared Redis cache so it
 * applies at once. If Redis is unreachable the change is still committed (and the public API
 * refuses every call meanwhile); the cache's TTL brings identity's truth back within minutes.
 */
export async function pushToCache(logger: Logger, push: () => Promise<void>): Promise<void> {
  try {
    await push();
  } catch (error) {
    logger.error(
      { err: error },
      'change committed but not pushed to the gateway cache; it applies when the cache entry expires',
    );
  }
}
