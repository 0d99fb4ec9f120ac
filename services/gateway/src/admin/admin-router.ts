import { callerMetadata } from '@corridor/grpc';
import type { Logger } from '@corridor/logging';
import { Router } from 'express';
import type { AccessGuard } from '../auth/access-guard.js';
import type { Clients } from '../clients.js';
import { jsonBody } from '../http/common.js';
import { expressPath, methodNotAllowed, tracedAs } from '../http/route-table.js';
import { documentedOperations } from '../openapi/assemble.js';
import { requireAdminToken } from './admin-auth.js';
import { ADMIN_DOCUMENT_PATH, adminOpenApiDocument } from './document.js';
import { ADMIN_ROUTES } from './routes.js';

export interface AdminRouterOptions {
  clients: Clients;
  guard: AccessGuard;
  logger: Logger;
  environment: 'sandbox' | 'production';
  adminToken: string;
  bodyLimit: string;
  dashboardUrl: string;
}

/**
 * Every route of ADMIN_ROUTES behind the admin token, checked once for all of them and for the
 * admin document; then a known path asked with another method is 405, and a body is read only for
 * routes that take one. Calls carry the request id and environment, and no business.
 */
export function adminApiRouter(options: AdminRouterOptions): Router {
  const router = Router();
  const document = adminOpenApiDocument();
  const served = JSON.stringify(document);
  router.use(requireAdminToken(options.adminToken));
  router.use(methodNotAllowed(documentedOperations(document)));
  router.get(ADMIN_DOCUMENT_PATH, (_req, res) => void res.type('application/json').send(served));
  for (const route of ADMIN_ROUTES) {
    const body = route.requestBody ? jsonBody(options.bodyLimit) : [];
    router[route.method](expressPath(route.path), tracedAs(route.path), ...body, async (req, res) => {
      const metadata = callerMetadata({ requestId: res.locals.requestId as string, environment: options.environment });
      const { clients, guard, logger, dashboardUrl } = options;
      await route.handle({ req, res, clients, guard, logger, call: { metadata }, dashboardUrl });
    });
  }
  return router;
}
