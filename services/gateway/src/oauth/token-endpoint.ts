import express, { Router, type Request, type Response } from 'express';
import { DomainError, Status } from '@corridor/grpc';
import type { AccessGuard } from '../auth/access-guard.js';
import { GuardUnavailable } from '../auth/access-guard.js';
import type { Clients } from '../clients.js';

/** RFC 6749 section 5.2 error codes used by the token endpoint. */
type OAuthError =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope';

/**
 * Both error contracts at once: RFC 6749's `error`/`error_description` for OAuth libraries, and
 * Corridor's `status`/`message`/`code` for everything else (decision 0007).
 */
function sendOAuthError(
  res: Response,
  httpStatus: number,
  error: OAuthError | 'rate_limited' | 'temporarily_unavailable',
  description: string,
): void {
  res.status(httpStatus).setHeader('Cache-Control', 'no-store').json({
    error,
    error_description: description,
    status: false,
    message: description,
    code: error.toUpperCase(),
  });
}

interface ClientAuthentication {
  clientId: string;
  clientSecret: string;
  viaBasic: boolean;
}

/** Client authentication (RFC 6749 section 2.3.1): HTTP Basic or body parameters, never both. */
function clientAuthentication(req: Request, body: Record<string, unknown>): ClientAuthentication | string {
  const header = req.get('authorization');
  const inBody = body.client_id !== undefined || body.client_secret !== undefined;
  if (header) {
    if (inBody)
      return 'use one client authentication method: HTTP Basic or client_id/client_secret in the body, not both';
    const match = /^Basic +([A-Za-z0-9+/=]+)$/i.exec(header);
    const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 0) return 'the Authorization header is not valid HTTP Basic credentials (client_id:client_secret)';
    // RFC 6749 2.3.1: both parts are form-urlencoded before Basic encoding.
    const unescape = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return {
      clientId: unescape(decoded.slice(0, colon)),
      clientSecret: unescape(decoded.slice(colon + 1)),
      viaBasic: true,
    };
  }
  if (
    typeof body.client_id !== 'string' ||
    typeof body.client_secret !== 'string' ||
    !body.client_id ||
    !body.client_secret
  ) {
    return 'client_id and client_secret are required';
  }
  return { clientId: body.client_id, clientSecret: body.client_secret, viaBasic: false };
}

export interface TokenEndpointOptions {
  clients: Clients;
  guard: AccessGuard;
  tokenRequestsPerMinute: number;
}

/** POST /oauth/token: the client-credentials grant (seed 4.1, RFC 6749 section 4.4). */
export function tokenEndpoint({ clients, guard, tokenRequestsPerMinute }: TokenEndpointOptions): Router {
  const router = Router();
  router.post(
    '/oauth/token',
    (req, res, next) => {
      if (!req.is('application/x-www-form-urlencoded')) {
        sendOAuthError(
          res,
          415,
          'invalid_request',
          `content type ${req.get('content-type') ?? '(none)'} is not supported; send application/x-www-form-urlencoded`,
        );
        return;
      }
      next();
    },
    express.urlencoded({ extended: false, limit: '16kb' }),
    async (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      for (const [name, value] of Object.entries(body)) {
        if (typeof value !== 'string')
          return sendOAuthError(res, 400, 'invalid_request', `parameter ${name} must appear once`);
      }
      if (body.grant_type === undefined)
        return sendOAuthError(res, 400, 'invalid_request', 'grant_type is required; use client_credentials');
      if (body.grant_type !== 'client_credentials') {
        return sendOAuthError(
          res,
          400,
          'unsupported_grant_type',
          `grant_type ${String(body.grant_type)} is not supported; use client_credentials`,
        );
      }
      const auth = clientAuthentication(req, body);
      if (typeof auth === 'string') {
        const status = auth.startsWith('client_id and client_secret') ? 401 : 400;
        return sendOAuthError(res, status, status === 401 ? 'invalid_client' : 'invalid_request', auth);
      }

      try {
        const { admitted, resetSeconds } = await guard.admitTokenRequest(auth.clientId, tokenRequestsPerMinute);
        if (!admitted) {
          res.setHeader('Retry-After', String(resetSeconds));
          return sendOAuthError(
            res,
            429,
            'rate_limited',
            `too many token requests for this client_id: ${tokenRequestsPerMinute} per minute; retry in ${resetSeconds} s`,
          );
        }
      } catch (error) {
        if (!(error instanceof GuardUnavailable)) throw error;
        return sendOAuthError(
          res,
          503,
          'temporarily_unavailable',
          'Corridor cannot rate-limit token requests right now, so it issues none; retry shortly',
        );
      }

      try {
        const token = await clients.identity.issueToken({
          clientId: auth.clientId,
          clientSecret: auth.clientSecret,
          scope: typeof body.scope === 'string' ? body.scope : undefined,
          clientIp: req.ip ?? '',
        });
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('Pragma', 'no-cache');
        res.json({
          access_token: token.accessToken,
          token_type: 'Bearer',
          expires_in: token.expiresIn,
          scope: token.scopes.join(' '),
        });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (error.status === Status.UNAUTHENTICATED) {
          if (auth.viaBasic) res.setHeader('WWW-Authenticate', 'Basic realm="corridor"');
          return sendOAuthError(res, 401, 'invalid_client', error.message);
        }
        if (error.status === Status.INVALID_ARGUMENT) return sendOAuthError(res, 400, 'invalid_scope', error.message);
        if (error.status === Status.PERMISSION_DENIED)
          return sendOAuthError(res, 403, 'unauthorized_client', error.message);
        throw error; // UNAVAILABLE and friends: the common 503/504 path
      }
    },
  );
  return router;
}
