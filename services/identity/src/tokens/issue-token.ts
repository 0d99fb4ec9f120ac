import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { invalidArgument, permissionDenied, unauthenticated } from '@corridor/grpc';
import { ipAllowed } from '@corridor/ip-allowlist';
import { requestedTokenScopes } from '@corridor/scopes';
import type { Clock } from '@corridor/runtime';
import type { EntityManager } from '@mikro-orm/core';
import { Business } from '../businesses/business.entity.js';
import { Credential } from '../credentials/credential.entity.js';
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

/** The client-credentials grant (RFC 6749 section 4.4; seed 4.1 and part 5). */
export async function issueToken(
  em: EntityManager,
  secrets: IdentitySecrets,
  key: ActiveSigningKey,
  settings: TokenSettings,
  request: TokenRequest,
): Promise<IssuedToken> {
  const credential = couldBeClientId(request.clientId)
    ? await em.findOne(Credential, { clientId: request.clientId })
    : null;
  // Unknown id, wrong secret and revoked credentials answer alike: nothing to learn by probing.
  if (
    !credential ||
    credential.revokedAt ||
    !secrets.clientSecretMatches(request.clientSecret, credential.secretHash)
  ) {
    throw unauthenticated('INVALID_CLIENT', INVALID_CLIENT);
  }
  const business = await em.findOneOrFail(Business, { id: credential.businessId });
  if (!business.apiEnabled) throw permissionDenied('API_DISABLED', 'this business no longer has API services');
  if (settings.environment === 'production' && !ipAllowed(request.clientIp, business.ipAllowlist)) {
    throw permissionDenied(
      'IP_NOT_ALLOWED',
      `requests from ${request.clientIp} are not on this business's IP allow-list`,
    );
  }
  const requested = requestedTokenScopes(request.scope, credential.scopes);
  if (!requested.ok) throw invalidArgument(requested.problem, { scope: [requested.problem] }, 'INVALID_SCOPE');

  const issuedAt = Math.floor(settings.now().getTime() / 1000);
  const claims: AccessTokenClaims = {
    client_id: credential.clientId,
    scope: requested.scopes.join(' '),
    gen: credential.generation,
    env: settings.environment,
  };
  const accessToken = await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'EdDSA', kid: key.keyId, typ: 'at+jwt' })
    .setIssuer(settings.issuer)
    .setAudience(settings.audience)
    .setSubject(credential.businessId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + settings.lifetimeSeconds)
    .setJti(randomUUID())
    .sign(key.privateKey);
  return { accessToken, expiresIn: settings.lifetimeSeconds, scopes: requested.scopes };
}
