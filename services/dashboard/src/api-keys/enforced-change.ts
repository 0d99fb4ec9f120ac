import type { AccessCache } from '@corridor/access-cache';
import type { Business } from '@corridor/contracts/corridor/identity/v1/business_pb';
import type { Credential } from '@corridor/contracts/corridor/identity/v1/credential_pb';
import type { Logger } from '@corridor/logging';

/**
 * A change that gateways enforce, in the gateway admin API's three steps
 * (services/gateway/src/admin/cache-push.ts): drop the cached entry, let identity commit, push the
 * new one. Dropping first means an unreachable Redis refuses the change (AccessCacheUnavailable, a
 * 503 page saying nothing changed) rather than committing a revocation or an allow-list gateways
 * would not apply until the entry expired; pushing after makes it apply on every replica at once.
 */
async function changeEnforced<T>(
  logger: Logger,
  forget: () => Promise<void>,
  commit: () => Promise<T>,
  store: (changed: T) => Promise<void>,
): Promise<T> {
  await forget();
  const changed = await commit();
  try {
    await store(changed);
  } catch (error) {
    // Gateways refill a missing entry from identity on the next request, so this only costs a lookup.
    logger.error({ err: error }, 'change committed but not pushed to the gateway cache');
  }
  return changed;
}

/** A rotation or revocation: old tokens fail on every replica at once (seed 5.1). */
export function changeEnforcedCredential(
  cache: AccessCache,
  logger: Logger,
  credential: { businessId: string; clientId: string },
  commit: () => Promise<Credential>,
): Promise<Credential> {
  return changeEnforced(
    logger,
    () => cache.forgetCredential(credential.businessId, credential.clientId),
    commit,
    (changed) => cache.storeCredential(changed),
  );
}

/** A business policy change (the production IP allow-list): the next API call anywhere obeys it. */
export function changeEnforcedBusiness(
  cache: AccessCache,
  logger: Logger,
  businessId: string,
  commit: () => Promise<Business>,
): Promise<Business> {
  return changeEnforced(
    logger,
    () => cache.forgetBusiness(businessId),
    commit,
    (changed) => cache.storeBusiness(changed),
  );
}
