import type { AccessCache } from '@corridor/access-cache';
import type { Credential } from '@corridor/contracts/corridor/identity/v1/credential_pb';
import type { Logger } from '@corridor/logging';

/**
 * A rotation or revocation that gateways enforce, in the gateway admin API's three steps
 * (services/gateway/src/admin/cache-push.ts): drop the cached generation, let identity commit, push
 * the new one. Dropping first means an unreachable Redis refuses the change (AccessCacheUnavailable,
 * a 503 page saying nothing changed) rather than committing a revocation gateways would not apply
 * until the entry expired; pushing after makes old tokens fail on every replica at once (seed 5.1).
 */
export async function changeEnforcedCredential(
  cache: AccessCache,
  logger: Logger,
  credential: { businessId: string; clientId: string },
  commit: () => Promise<Credential>,
): Promise<Credential> {
  await cache.forgetCredential(credential.businessId, credential.clientId);
  const changed = await commit();
  try {
    await cache.storeCredential(changed);
  } catch (error) {
    // Gateways refill a missing entry from identity on the next request, so this only costs a lookup.
    logger.error({ err: error }, 'credential change committed but not pushed to the gateway cache');
  }
  return changed;
}
