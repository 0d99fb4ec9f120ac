import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { invalidArgument, permissionDenied, unauthenticated } from '@corridor/grpc';
import { ipAllowed } from '@corridor/ip-allowlist';
import { requestedTokenScopes } from '@corridor/scopes';
import type { Clock } from '@corridor/runtime';
import { dateOf, sql } from '@corridor/db';
import type { EntityManager } from '@mikro-orm/core';
import { couldBeClientId } from '../credentials/manage-credentials.js';
import type { IdentitySecrets } from '../secrets/identity-secrets.js';
import type { ActiveSigningKey } from './signing-keys.js';

export interface TokenSettings {
  environment: 'sandbox' | 'production';
  issuer: string;
  audience: string;
  lifetimeSeconds: number;
  now: Clock;
}

export interface TokenRequest {
  clientId: string;
  clientSecret: string;
  scope: string | undefined;
  clientIp: string;
}

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  scopes: string[];
}

/** Claims every Corridor access token carries besides the registered ones. */
export interface AccessTokenClaims {
  client_id: string;
  scope: string;
  /** The credential generation the token was minted from; rotation makes it stale. */
  gen: number;
  env: 'sandbox' | 'production';
}

const INVALID_CLIENT = 'client authentication failed: unknown client_id or wrong client_secret';

/**
 * What a grant needs of the credential and its business, in one statement read as a row: two
 * entity loads were two round trips and MikroORM's hydration, most of identity's CPU per token
 * (issue 14). Writes to both still go through the entities.
 */
interface GrantRow {
  client_id: string;
  business_id: string;
  secret_hash: Buffer;
  scopes: string[];
  generation: number;
  revoked_at: Date | null;
  last_used_at: Date | null;
  api_enabled: boolean;
  ip_allowlist: string[];
}
const GRANT = `
  select c.client_id, c.business_id, c.secret_hash, c.scopes, c.generation, c.revoked_at, c.last_used_at,
    b.api_enabled, b.ip_allowlist
  from credential c join business b on b.id = c.business_id
  where c.client_id = ?`;

/** last_used_at is written at most once a minute: a burst of tokens stays one read each. */
export const LAST_USED_RESOLUTION_MS = 60_000;

async function noteUse(em: EntityManager, grant: GrantRow, now: Date): Promise<void> {
  const last = grant.last_used_at ? dateOf(grant.last_used_at).getTime() : undefined;
  if (last !== undefined && now.getTime() - last < LAST_USED_RESOLUTION_MS) return;
  // The condition again in the statement: of replicas minting at once, one writes.
  await sql(
    em,
    `update credential set last_used_at = ? where client_id = ? and (last_used_at is null or last_used_at < ?)`,
    [now, grant.client_id, new Date(now.getTime() - LAST_USED_RESOLUTION_MS)],
  );
}

/** The client-credentials grant (RFC 6749 section 4.4; seed 4.1 and part 5). */
export async function issueToken(
  em: EntityManager,
  secrets: IdentitySecrets,
  key: ActiveSigningKey,
  settings: TokenSettings,
  request: TokenRequest,
): Promise<IssuedToken> {
  const [grant] = couldBeClientId(request.clientId) ? await sql<GrantRow>(em, GRANT, [request.clientId]) : [];
  // Unknown id, wrong secret and revoked credentials answer alike: nothing to learn by probing.
  if (!grant || grant.revoked_at || !secrets.clientSecretMatches(request.clientSecret, grant.secret_hash)) {
    throw unauthenticated('INVALID_CLIENT', INVALID_CLIENT);
  }
  if (!grant.api_enabled) throw permissionDenied('API_DISABLED', 'this business no longer has API services');
  if (settings.environment === 'production' && !ipAllowed(request.clientIp, grant.ip_allowlist)) {
    throw permissionDenied(
      'IP_NOT_ALLOWED',
      `requests from ${request.clientIp} are not on this business's IP allow-list`,
    );
  }
  const requested = requestedTokenScopes(request.scope, grant.scopes);
  if (!requested.ok) throw invalidArgument(requested.problem, { scope: [requested.problem] }, 'INVALID_SCOPE');

  const issuedAt = Math.floor(settings.now().getTime() / 1000);
  const claims: AccessTokenClaims = {
    client_id: grant.client_id,
    scope: requested.scopes.join(' '),
    gen: grant.generation,
    env: settings.environment,
  };
  const accessToken = await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'EdDSA', kid: key.keyId, typ: 'at+jwt' })
    .setIssuer(settings.issuer)
    .setAudience(settings.audience)
    .setSubject(grant.business_id)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + settings.lifetimeSeconds)
    .setJti(randomUUID())
    .sign(key.privateKey);
  await noteUse(em, grant, settings.now());
  return { accessToken, expiresIn: settings.lifetimeSeconds, scopes: requested.scopes };
}
