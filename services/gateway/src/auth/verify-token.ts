import { decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type { TokenKeys } from './token-keys.js';

/** What the gateway knows about the caller once the token checks out. */
export interface Caller {
  businessId: string;
  clientId: string;
  scopes: string[];
  generation: number;
  environment: string;
  expiresAt: number;
}

/** Why a bearer token was refused; each has its own message (issue 3 item 3). */
export type TokenProblem = 'missing' | 'malformed' | 'expired' | 'bad_signature' | 'wrong_environment' | 'revoked';

export class TokenRejected extends Error {
  constructor(
    readonly problem: TokenProblem,
    message: string,
  ) {
    super(message);
    this.name = 'TokenRejected';
  }
}

const MALFORMED = 'the bearer token is malformed: it is not a Corridor access token (a JWT from POST /oauth/token)';

function stringClaim(claims: Record<string, unknown>, name: string): string {
  const value = claims[name];
  if (typeof value !== 'string') throw new TokenRejected('malformed', MALFORMED);
  return value;
}

interface VerifiedToken {
  caller: Caller;
  keyId: string;
}

/**
 * Tokens whose signature already checked out. A platform sends the same token for an hour, and the
 * Ed25519 verification was a fifth of the gateway's CPU per request; the signature cannot change,
 * so it is checked once. Expiry is still checked on every request, an entry dies with its key, and
 * revocation never depended on this (it is the generation check in Redis).
 */
const verified = new Map<string, VerifiedToken>();
const VERIFIED_MAX = 10_000;

function remember(token: string, entry: VerifiedToken): void {
  if (verified.size >= VERIFIED_MAX) {
    // Oldest first: Map iteration follows insertion order.
    const oldest = verified.keys().next();
    if (!oldest.done) verified.delete(oldest.value);
  }
  verified.set(token, entry);
}

/** Verifies a bearer token locally: format, environment, signature, expiry. */
export async function verifyAccessToken(token: string, keys: TokenKeys, nowSeconds: number): Promise<Caller> {
  const known = verified.get(token);
  if (known && keys.publishes(known.keyId)) {
    if (known.caller.expiresAt > nowSeconds) return known.caller;
    verified.delete(token);
  }
  return verifySignedToken(token, keys, nowSeconds);
}

async function verifySignedToken(token: string, keys: TokenKeys, nowSeconds: number): Promise<Caller> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  let unverified: ReturnType<typeof decodeJwt>;
  try {
    header = decodeProtectedHeader(token);
    unverified = decodeJwt(token);
  } catch {
    throw new TokenRejected('malformed', MALFORMED);
  }
  // Checked before the signature so a token from the other environment says so, rather than
  // failing as a bad signature (each environment has its own keys).
  const audiences = Array.isArray(unverified.aud) ? unverified.aud : [unverified.aud];
  if (unverified.iss !== keys.issuer || !audiences.includes(keys.audience)) {
    const from = typeof unverified.env === 'string' ? ` (it was issued for ${unverified.env})` : '';
    throw new TokenRejected(
      'wrong_environment',
      `the token belongs to another environment${from}; this API is ${keys.audience}: use credentials and a token of this environment`,
    );
  }
  const key = header.kid ? await keys.key(header.kid) : undefined;
  if (!key) throw new TokenRejected('bad_signature', 'the token signature is invalid: it was not signed by Corridor');
  try {
    const { payload } = await jwtVerify(token, key, {
      issuer: keys.issuer,
      audience: keys.audience,
      algorithms: ['EdDSA'],
      typ: 'at+jwt',
      currentDate: new Date(nowSeconds * 1000),
      requiredClaims: ['sub', 'exp', 'client_id', 'gen'],
    });
    const claims = payload as Record<string, unknown>;
    const generation = claims.gen;
    if (typeof generation !== 'number') throw new TokenRejected('malformed', MALFORMED);
    const scope = typeof claims.scope === 'string' ? claims.scope : '';
    const caller: Caller = {
      businessId: stringClaim(claims, 'sub'),
      clientId: stringClaim(claims, 'client_id'),
      scopes: scope.split(' ').filter(Boolean),
      generation,
      environment: stringClaim(claims, 'env'),
      expiresAt: Number(payload.exp),
    };
    remember(token, { caller, keyId: header.kid ?? '' });
    return caller;
  } catch (error) {
    if (error instanceof TokenRejected) throw error;
    if (error instanceof errors.JWTExpired) {
      const at = typeof unverified.exp === 'number' ? ` at ${new Date(unverified.exp * 1000).toISOString()}` : '';
      throw new TokenRejected('expired', `the access token expired${at}; request a new one from POST /oauth/token`);
    }
    if (error instanceof errors.JWSSignatureVerificationFailed) {
      throw new TokenRejected('bad_signature', 'the token signature is invalid: it was not signed by Corridor');
    }
    throw new TokenRejected('malformed', MALFORMED);
  }
}
