import { callerMetadata, type CallSettings } from '@corridor/grpc';
import { recordHttpRoute } from '@corridor/telemetry/route';
import type { Logger } from '@corridor/logging';
import type { Metadata } from '@grpc/grpc-js';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { authenticate, type Authenticated, type AuthenticateDependencies } from '../auth/authenticate.js';
import { jsonBody } from '../http/common.js';
import { HttpError } from '../http/errors.js';
import { expressPath } from '../http/route-table.js';
import { idempotentCallSettings } from './idempotency-key.js';
import { PUBLIC_ROUTES } from './routes.js';
import type { PublicRoute, RouteContext } from '../floor/route-context.js';

/** Where the public API lives: every route of PUBLIC_ROUTES is under it, and the router is mounted there. */
export const PUBLIC_API_PREFIX = '/api/external';

type PublicApiDependencies = AuthenticateDependencies & { bodyLimit: string; logger: Logger };

/** Token, revocation, rate limit, then the route's scope; nothing else runs for a refused caller. */
async function authorize(route: PublicRoute, req: Request, res: Response, deps: AuthenticateDependencies) {
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
  return auth;
}

/**
 * The route's context. The caller's gRPC metadata is made when a route first reads it (whoami calls
 * no service); a POST's call settings at once, so a malformed Idempotency-Key is refused before any work.
 */
function routeContext(
  route: PublicRoute,
  req: Request,
  res: Response,
  auth: Authenticated,
  deps: PublicApiDependencies,
): RouteContext {
  let metadata: Metadata | undefined;
  const metadataOf = () =>
    (metadata ??= callerMetadata({
      businessId: auth.caller.businessId,
      credentialId: auth.caller.clientId,
      scopes: auth.caller.scopes,
      environment: auth.caller.environment,
      requestId: res.locals.requestId as string,
    }));
  const posted: CallSettings | undefined =
    route.method === 'post' ? idempotentCallSettings(req, res, route.path, metadataOf()) : undefined;
  return {
    req,
    res,
    auth,
    clients: deps.clients,
    logger: deps.logger,
    get metadata() {
      return metadataOf();
    },
    get call() {
      return posted ?? { metadata: metadataOf() };
    },
  };
}

/**
 * Mounts every route of the table, under PUBLIC_API_PREFIX, behind authentication and its scope. A
 * body is read only for routes that take one, and only once the caller is authorized. Every POST may
 * carry an Idempotency-Key, which the owning service claims (DESIGN.md "Idempotent by construction").
 * A route without a body is one handler, not a chain: every layer express steps through costs each
 * request (issue 35).
 */
export function publicApiRouter(deps: PublicApiDependencies): Router {
  const router = Router();
  for (const route of PUBLIC_ROUTES) {
    if (!route.path.startsWith(`${PUBLIC_API_PREFIX}/`))
      throw new Error(`${route.path} is outside ${PUBLIC_API_PREFIX}`);
    const path = expressPath(route.path.slice(PUBLIC_API_PREFIX.length));
    if (!route.requestBody) {
      router[route.method](path, async (req, res) => {
        recordHttpRoute(route.path);
        const auth = await authorize(route, req, res, deps);
        await route.handle(routeContext(route, req, res, auth, deps));
      });
      continue;
    }
    const authorized: RequestHandler = async (req, res, next) => {
      recordHttpRoute(route.path);
      res.locals.auth = await authorize(route, req, res, deps);
      next();
    };
    router[route.method](path, authorized, ...jsonBody(deps.bodyLimit), async (req, res) => {
      await route.handle(routeContext(route, req, res, res.locals.auth as Authenticated, deps));
    });
  }
  return router;
}
