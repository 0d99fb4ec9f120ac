import { callerMetadata } from '@corridor/grpc';
import { Router, type RequestHandler } from 'express';
import { authenticate, type Authenticated, type AuthenticateDependencies } from '../auth/authenticate.js';
import { jsonBody } from '../http/common.js';
import { HttpError } from '../http/errors.js';
import { idempotentCallSettings } from './idempotency-key.js';
import { expressPath, PUBLIC_ROUTES, type PublicRoute } from './routes.js';

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
    router[route.method](expressPath(route.path), authorize(route, deps), ...body, async (req, res) => {
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
    });
  }
  return router;
}

/** A documented operation: what methodNotAllowed needs of a route. */
export interface DocumentedMethod {
  method: string;
  path: string;
}

/** {id} is one path segment, as express reads :id. */
const pathPattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}/?$`);

const templates = (path: string) => (path.match(/\{/g) ?? []).length;

/**
 * A known path asked with a method it does not have (RFC 9110 15.5.6): 405 with `Allow` naming the
 * methods it has, and OPTIONS answered 204 with the same `Allow`. Unknown paths fall through to 404.
 * Mounted before the routes: a path that is also a value of a sibling template (…/document/presigned-url
 * beside …/document/{document}) has only its own methods, as OpenAPI matches concrete paths first.
 */
export function methodNotAllowed(routes: readonly DocumentedMethod[]): RequestHandler {
  const paths = [...new Set(routes.map((route) => route.path))].map((path) => ({
    pattern: pathPattern(path),
    path,
    methods: routes.filter((route) => route.path === path).map((route) => route.method.toUpperCase()),
  }));
  return (req, res, next) => {
    const matching = paths.filter(({ pattern }) => pattern.test(req.path));
    const mostConcrete = Math.min(...matching.map(({ path }) => templates(path)));
    const methods = new Set(
      matching.filter(({ path }) => templates(path) === mostConcrete).flatMap((path) => path.methods),
    );
    if (methods.has('GET')) methods.add('HEAD');
    if (methods.size === 0 || (methods.has(req.method) && req.method !== 'OPTIONS')) {
      next();
      return;
    }
    const allow = [...methods, 'OPTIONS'].join(', ');
    res.set('allow', allow);
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next(new HttpError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.path}; use ${allow}`));
  };
}
