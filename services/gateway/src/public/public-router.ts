import { callerMetadata } from '@corridor/grpc';
import { Router } from 'express';
import { authenticate, type AuthenticateDependencies } from '../auth/authenticate.js';
import { HttpError } from '../http/errors.js';
import { expressPath, PUBLIC_ROUTES } from './routes.js';

/** Mounts every route of the table behind authentication and its scope. */
export function publicApiRouter(deps: AuthenticateDependencies): Router {
  const router = Router();
  for (const route of PUBLIC_ROUTES) {
    router[route.method](expressPath(route.path), async (req, res) => {
      const auth = await authenticate(req, res, deps);
      const { caller } = auth;
      if (route.scope && !caller.scopes.includes(route.scope)) {
        const has = caller.scopes.length > 0 ? caller.scopes.join(' ') : 'no scopes';
        throw new HttpError(
          403,
          'SCOPE_MISSING',
          `this endpoint requires the scope ${route.scope}; request a token with scope=${route.scope} (this token has ${has})`,
        );
      }
      const metadata = callerMetadata({
        businessId: caller.businessId,
        credentialId: caller.clientId,
        scopes: caller.scopes,
        environment: caller.environment,
        requestId: res.locals.requestId as string,
      });
      await route.handle({ req, res, auth, clients: deps.clients, metadata });
    });
  }
  return router;
}
