import express, { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import { DomainError, Status } from '@corridor/grpc';
import type { Logger } from '@corridor/logging';
import { hasControlCharacter } from '@corridor/validation';
import type { AccessGuard } from '../auth/access-guard.js';
import { GuardUnavailable } from '../auth/access-guard.js';
import type { Clients } from '../clients.js';
import { httpStatusOf } from '../http/errors.js';
import { tracedAs } from '../http/route-table.js';

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
    const notBasic = 'the Authorization header is not valid HTTP Basic credentials (client_id:client_secret)';
    if (colon < 0) return notBasic;
    // RFC 6749 2.3.1: both parts are form-urlencoded before Basic encoding.
    const unescape = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    let basic: ClientAuthentication;
    try {
      basic = {
        clientId: unescape(decoded.slice(0, colon)),
        clientSecret: unescape(decoded.slice(colon + 1)),
        viaBasic: true,
      };
    } catch {
      return `${notBasic}: a part is not valid form-urlencoding`; // URIError: a stray % in either part
    }
    const malformed = malformedParameter({ client_id: basic.clientId, client_secret: basic.clientSecret });
    return malformed ? `${malformed} (in the Authorization header)` : basic;
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

/**
 * A parameter no client can have sent on purpose: RFC 6749 Appendix A builds client_id, client_secret
 * and scope of printable characters, so a control character (NUL: PostgreSQL cannot even compare it)
 * makes the request malformed, `invalid_request` (5.2), not a failed authentication.
 */
function malformedParameter(parameters: Record<string, string>): string | undefined {
  const name = Object.keys(parameters).find(
    (parameter) => hasControlCharacter(parameter) || hasControlCharacter(parameters[parameter] ?? ''),
  );
  return name === undefined ? undefined : `parameter ${JSON.stringify(name)} must not contain control characters`;
}

export interface TokenEndpointOptions {
  clients: Clients;
  guard: AccessGuard;
  logger: Logger;
  tokenRequestsPerMinute: number;
  tokenRequestsPerMinutePerAddress: number;
}

/** The form parser's own refusals (too large, a charset it cannot decode), in both contracts too. */
const formNotReadable: ErrorRequestHandler = (error, _req, res, next) => {
  const { status, limit, message } = error as { status?: unknown; limit?: number; message?: string };
  if (typeof status !== 'number' || status < 400 || status >= 500) return next(error);
  const description =
    status === 413 ? `request body is larger than the ${limit ?? ''} byte limit` : (message ?? 'bad request');
  sendOAuthError(res, status, 'invalid_request', description);
};

/** POST /oauth/token: the client-credentials grant (seed 4.1, RFC 6749 section 4.4). */
export function tokenEndpoint({
  clients,
  guard,
  logger,
  tokenRequestsPerMinute,
  tokenRequestsPerMinutePerAddress,
}: TokenEndpointOptions): Router {
  const router = Router();
  router.post(
    '/oauth/token',
    tracedAs('/oauth/token'),
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
      const malformed = malformedParameter(body as Record<string, string>);
      if (malformed) return sendOAuthError(res, 400, 'invalid_request', malformed);
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
        // Per address first: made-up client_ids must not reach identity without bound.
        const budgets = [
          { subject: `address:${req.ip ?? ''}`, limit: tokenRequestsPerMinutePerAddress, what: 'from this address' },
          { subject: `client:${auth.clientId}`, limit: tokenRequestsPerMinute, what: 'for this client_id' },
        ];
        for (const { subject, limit, what } of budgets) {
          const { admitted, resetSeconds } = await guard.admitTokenRequest(subject, limit);
          if (!admitted) {
            res.setHeader('Retry-After', String(resetSeconds));
            return sendOAuthError(
              res,
              429,
              'rate_limited',
              `too many token requests ${what}: ${limit} per minute; retry in ${resetSeconds} s`,
            );
          }
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
        if (error.status === Status.UNAVAILABLE || error.status === Status.DEADLINE_EXCEEDED) {
          // Both contracts here too (decision 0007), so OAuth clients read `error` on an outage as well.
          logger.error({ err: error }, 'token request failed: identity did not answer');
          return sendOAuthError(
            res,
            httpStatusOf(error.status),
            'temporarily_unavailable',
            error.status === Status.DEADLINE_EXCEEDED
              ? 'Corridor could not issue a token in time: a service it depends on did not answer; retry shortly'
              : 'Corridor cannot issue tokens right now: a service it depends on is unavailable; retry shortly',
          );
        }
        throw error;
      }
    },
  );
  router.use('/oauth/token', formNotReadable);
  return router;
}
