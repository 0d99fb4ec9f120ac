import type { Logger } from '@corridor/logging';
import { GuardUnavailable } from '../auth/access-guard.js';
import { HttpError } from '../http/errors.js';
import type { RouteResponse } from '../http/route-table.js';

/**
 * Admin changes that gateways enforce (rotation, revocation, api_enabled, allow-list, limits) go in
 * three steps: drop the cached entry, let identity commit, push the new state. Dropping first means
 * an unreachable Redis refuses the change before anything is committed, rather than committing a
 * revocation that gateways would not apply until the cache entry expires.
 */
export async function forgetBeforeChange(forget: () => Promise<void>): Promise<void> {
  try {
    await forget();
  } catch (error) {
    if (!(error instanceof GuardUnavailable)) throw error;
    throw new HttpError(
      503,
      'CACHE_UNAVAILABLE',
      'nothing was changed: the gateways cannot be told about it right now (Redis is unreachable); retry shortly',
    );
  }
}

/**
 * After identity committed, pushes the new state so it applies to the next request on every
 * replica. Should Redis fail between the two steps, the entry is missing and the next request
 * refills it from identity, or at worst the old entry expires within the cache TTL.
 */
export async function pushToCache(logger: Logger, push: () => Promise<void>): Promise<void> {
  try {
    await push();
  } catch (error) {
    logger.error(
      { err: error },
      'change committed but not pushed to the gateway cache; it applies when the cache entry is refilled',
    );
  }
}

/** The 503 of a route whose change gateways enforce, when Redis cannot be told first. */
export const CACHE_UNAVAILABLE: RouteResponse = {
  description:
    'Nothing was changed: Redis, where every gateway reads what it enforces, is unreachable (CACHE_UNAVAILABLE); or a service Corridor depends on is unavailable (SERVICE_UNAVAILABLE, with Retry-After). Retry shortly',
};
