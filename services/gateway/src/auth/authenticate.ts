import type { Request, Response } from 'express';
import { DomainError, Status } from '@corridor/grpc';
import { ipAllowed } from '@corridor/ip-allowlist';
import type { Clients } from '../clients.js';
import { HttpError } from '../http/errors.js';
import { type AccessGuard, REVOKED_GENERATION, type WindowUsage } from './access-guard.js';
import type { TokenKeys } from './token-keys.js';
import { TokenRejected, verifyAccessToken, type Caller, type TokenProblem } from './verify-token.js';

export interface Authenticated {
  caller: Caller;
  minute: WindowUsage;
  hour: WindowUsage;
}

export interface AuthenticateDependencies {
  keys: TokenKeys;
  guard: AccessGuard;
  clients: Clients;
  environment: 'sandbox' | 'production';
  now?: () => number;
}

/** The 401 codes, one per reason a token is refused (the OpenAPI document lists the same). */
export const TOKEN_CODES: Record<TokenProblem, string> = {
  missing: 'TOKEN_MISSING',
  malformed: 'TOKEN_MALFORMED',
  expired: 'TOKEN_EXPIRED',
  bad_signature: 'TOKEN_SIGNATURE_INVALID',
  wrong_environment: 'TOKEN_WRONG_ENVIRONMENT',
  revoked: 'TOKEN_REVOKED',
};

function unauthorized(res: Response, problem: TokenProblem, message: string): HttpError {
  // RFC 6750 section 3: tell the client which scheme and why.
  res.setHeader(
    'WWW-Authenticate',
    problem === 'missing' ? 'Bearer realm="corridor"' : 'Bearer realm="corridor", error="invalid_token"',
  );
  return new HttpError(401, TOKEN_CODES[problem], message);
}

export const LEGACY_API_KEY_CODE = 'LEGACY_API_KEY_DEPRECATED';

const LEGACY_KEY_MESSAGE =
  'the x-corridor-api-key header is deprecated and no longer accepted; exchange your client_id and client_secret for a token at POST /oauth/token and send Authorization: Bearer <access_token>';

/** The remaining budget of the tighter window goes in RateLimit-* headers on every response. */
export function setRateLimitHeaders(res: Response, minute: WindowUsage, hour: WindowUsage): void {
  const remaining = (w: WindowUsage) => Math.max(0, w.limit - w.used);
  const tighter = remaining(hour) < remaining(minute) ? hour : minute;
  res.setHeader('RateLimit-Limit', String(tighter.limit));
  res.setHeader('RateLimit-Remaining', String(remaining(tighter)));
  res.setHeader('RateLimit-Reset', String(tighter.resetSeconds));
}

/**
 * Authenticates a public API request once, in the gateway: the token locally, then revocation,
 * business policy and both rate-limit windows in one Redis round trip. No call to identity unless
 * Redis has not cached the credential or business yet.
 */
export async function authenticate(
  req: Request,
  res: Response,
  deps: AuthenticateDependencies,
): Promise<Authenticated> {
  const header = req.get('authorization');
  if (!header) {
    if (req.get('x-corridor-api-key') !== undefined) throw new HttpError(401, LEGACY_API_KEY_CODE, LEGACY_KEY_MESSAGE);
    throw unauthorized(
      res,
      'missing',
      'missing Authorization header: send Authorization: Bearer <access_token> from POST /oauth/token',
    );
  }
  const match = /^Bearer +([^\s]+)$/i.exec(header);
  if (!match?.[1])
    throw unauthorized(res, 'malformed', 'the Authorization header is malformed: expected "Bearer <access_token>"');
  if (!deps.keys.loaded) throw new DomainError(Status.UNAVAILABLE, 'UPSTREAM_UNAVAILABLE', 'signing keys not loaded');

  let caller: Caller;
  try {
    caller = await verifyAccessToken(match[1], deps.keys, Math.floor((deps.now?.() ?? Date.now()) / 1000));
  } catch (error) {
    if (error instanceof TokenRejected) throw unauthorized(res, error.problem, error.message);
    throw error;
  }

  for (let attempt = 0; attempt < 3; attempt += 1) {
    const verdict = await deps.guard.check(caller.clientId, caller.businessId, caller.generation);
    switch (verdict.kind) {
      case 'miss_credential':
        await fillCredential(deps, caller.businessId, caller.clientId);
        continue;
      case 'miss_business':
        await fillBusiness(deps, caller.businessId);
        continue;
      case 'revoked':
        // A token newer than the cache proves the cache is stale (identity signed that generation,
        // and a push after the rotation was lost): refill it rather than refuse the current secret.
        if (verdict.cachedGeneration < caller.generation) {
          await fillCredential(deps, caller.businessId, caller.clientId);
          continue;
        }
        throw unauthorized(
          res,
          'revoked',
          verdict.cachedGeneration === REVOKED_GENERATION
            ? 'the token was revoked: its credentials have been revoked'
            : 'the token was revoked: its credentials were rotated; request a new token with the current client_secret',
        );
      case 'api_disabled':
        throw new HttpError(403, 'API_DISABLED', 'this business no longer has API services');
      default: {
        setRateLimitHeaders(res, verdict.minute, verdict.hour);
        if (deps.environment === 'production' && !ipAllowed(req.ip ?? '', verdict.ipAllowlist)) {
          throw new HttpError(
            403,
            'IP_NOT_ALLOWED',
            `requests from ${req.ip ?? 'this address'} are not on this business's IP allow-list`,
          );
        }
        if (verdict.kind !== 'ok') {
          const window = verdict.kind === 'limited_minute' ? verdict.minute : verdict.hour;
          const name = verdict.kind === 'limited_minute' ? 'minute' : 'hour';
          setRateLimitHeaders(res, window, window);
          res.setHeader('Retry-After', String(window.resetSeconds));
          throw new HttpError(
            429,
            'RATE_LIMITED',
            `rate limit exceeded: ${window.limit} requests per ${name}; retry in ${window.resetSeconds} s`,
          );
        }
        return { caller, minute: verdict.minute, hour: verdict.hour };
      }
    }
  }
  throw new DomainError(Status.UNAVAILABLE, 'UPSTREAM_UNAVAILABLE', 'could not load credential state');
}

/**
 * Cache fills in flight in this process, by entry: concurrent misses of one entry (a burst on a cold
 * cache) share one call to identity instead of making one each (decision 0007: once per entry per TTL).
 */
const fillsInFlight = new Map<string, Promise<void>>();

function sharedFill(entry: string, fill: () => Promise<void>): Promise<void> {
  let pending = fillsInFlight.get(entry);
  if (!pending) {
    pending = fill().finally(() => fillsInFlight.delete(entry));
    fillsInFlight.set(entry, pending);
  }
  return pending;
}

function fillCredential(deps: AuthenticateDependencies, businessId: string, clientId: string): Promise<void> {
  return sharedFill(`credential:${clientId}`, async () => {
    try {
      const { credential } = await deps.clients.identity.getCredential({ clientId });
      if (credential) await deps.guard.storeCredential(credential);
    } catch (error) {
      // Deleted credentials read as revoked rather than as an outage.
      if (error instanceof DomainError && error.status === Status.NOT_FOUND) {
        await deps.guard.storeCredentialGeneration(businessId, clientId, REVOKED_GENERATION);
        return;
      }
      throw error;
    }
  });
}

function fillBusiness(deps: AuthenticateDependencies, businessId: string): Promise<void> {
  return sharedFill(`business:${businessId}`, async () => {
    const { business } = await deps.clients.identity.getBusiness({ id: businessId });
    if (business) await deps.guard.storeBusiness(business);
  });
}
