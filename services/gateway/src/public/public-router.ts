import { callerMetadata } from '@corridor/grpc';
import { Router, type RequestHandler } from 'express';
import { authenticate, type Authenticated, type AuthenticateDependencies } from '../auth/authenticate.js';
import { jsonBody } from '../http/common.js';
import { HttpError } from '../http/errors.js';
import { expressPath, tracedAs } from '../http/route-table.js';
import { idempotentCallSettings } from './idempotency-key.js';
import { PUBLIC_ROUTES, type PublicRoute } from './routes.js';

/** Token, revocation, rate limit, then the route's scope; nothing else runs for a refused caller. */
function authorize(route: PublicRoute, deps: AuthenticateDependencies): RequestHandler {
  return async (req, res, next) => {
    const auth = await authenticate(req, res, deps);
    const { scopes } = auth.caller;
    if (route.scope && !scopes.includes(route.scope)) {
      const has = scopes.length > 0 ? scopes.join(' ') : 'no scopes';
      throw new HttpError(
        403,
        'SCOPE_MISSING',
        `this endpoint requires the scope ${route.scope}; request a token with scope=${route.scope} (this token has ${has})`,
      );
    }
    res.locals.auth = auth;
    next();
  };
}

/**
 * Mounts every route of the table behind authentication and its scope. A body is read only for
 * routes that take one, and only once the caller is authorized. Every POST may carry an
 * Idempotency-Key, which the owning service claims (DESIGN.md "Idempotent by construction").
 */
export function publicApiRouter(deps: AuthenticateDependencies & { bodyLimit: string }): Router {
  const router = Router();
  for (const route of PUBLIC_ROUTES) {
    const body = route.requestBody ? jsonBody(deps.bodyLimit) : [];
    router[route.method](
      expressPath(route.path),
      tracedAs(route.path),
      authorize(route, deps),
      ...body,
      async (req, res) => {
        const auth = res.locals.auth as Authenticated;
        const { caller } = auth;
        const metadata = callerMetadata({
          businessId: caller.businessId,
          credentialId: caller.clientId,
          scopes: caller.scopes,
          environment: caller.environment,
          requestId: res.locals.requestId as string,
        });
        const call = route.method === 'post' ? idempotentCallSettings(req, res, route.path, metadata) : { metadata };
        await route.handle({ req, res, auth, clients: deps.clients, metadata, call });
      },
    );
  }
  return router;
}
