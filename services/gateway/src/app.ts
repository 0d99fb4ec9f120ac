import { callerMetadata } from '@corridor/grpc';
import type { Logger } from '@corridor/logging';
import express, { type Express, type RequestHandler } from 'express';
import { requireAdminToken } from './admin/admin-auth.js';
import { businessesRouter } from './admin/businesses.js';
import { credentialsRouter } from './admin/credentials.js';
import { customersRouter } from './admin/customers.js';
import { kycSessionsAdminRouter } from './admin/kyc-sessions.js';
import { paymentsAdminRouter } from './admin/payments.js';
import type { AccessGuard } from './auth/access-guard.js';
import type { TokenKeys } from './auth/token-keys.js';
import type { Clients } from './clients.js';
import { readinessHandler, type DependencyCheck } from './health/readiness.js';
import { jsonBody, requestId } from './http/common.js';
import { refuseHostileQuery } from './http/input-boundary.js';
import { errorHandler, routeNotFound } from './http/errors.js';
import { methodNotAllowed } from './http/route-table.js';
import { tokenEndpoint } from './oauth/token-endpoint.js';
import { apiDocumentationRouter } from './openapi/docs-router.js';
import { publicOperations } from './openapi/document.js';
import { paymentPageRouter } from './pay/payment-page-router.js';
import { verificationPageRouter } from './verify/verification-page-router.js';
import { publicApiRouter } from './public/public-router.js';

export interface AppOptions {
  clients: Clients;
  guard: AccessGuard;
  keys: TokenKeys;
  logger: Logger;
  environment: 'sandbox' | 'production';
  adminToken: string;
  bodyLimit: string;
  /** express "trust proxy": which proxies' X-Forwarded-For is believed for the caller's address. */
  trustProxy: boolean | string;
  tokenRequestsPerMinute: number;
  tokenRequestsPerMinutePerAddress: number;
  readiness: DependencyCheck[];
  /** The origin the verification page's browser uploads to (customer-kyb's presigned URLs). */
  uploadOrigin?: string;
}

/** The request id and environment travel to services as gRPC metadata. */
function forwardRequestContext(environment: string): RequestHandler {
  return (_req, res, next) => {
    res.locals.grpcMetadata = callerMetadata({ requestId: res.locals.requestId as string, environment });
    next();
  };
}

function baseApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestId);
  // Before any route: a query no route can take is refused alike everywhere (issue 18).
  app.use(refuseHostileQuery);
  return app;
}

/** The public listener: the platform-facing API. */
export function publicApp(options: AppOptions): Express {
  const app = baseApp();
  app.set('trust proxy', options.trustProxy);
  // A documented path asked with another method is 405 with Allow, whoever asks (issue 18).
  app.use(methodNotAllowed(publicOperations(options)));
  app.get('/healthz', (_req, res) => void res.json({ status: true, message: 'alive' }));
  app.get('/readyz', readinessHandler(options.readiness));
  app.use(apiDocumentationRouter(options));
  app.use(tokenEndpoint(options));
  // The payer's money-request page: its payment token is the credential, not an API token.
  app.use(paymentPageRouter(options));
  // The person's KYC verification page: the session's token is the credential, as above.
  app.use(verificationPageRouter(options));
  app.use(publicApiRouter(options));
  app.use(routeNotFound);
  app.use(errorHandler(options.logger));
  return app;
}

/** The admin listener: the back office. Never routed from the public listener. */
export function adminApp(options: AppOptions): Express {
  const app = baseApp();
  app.get('/healthz', (_req, res) => void res.json({ status: true, message: 'alive' }));
  app.use(requireAdminToken(options.adminToken));
  app.use(jsonBody(options.bodyLimit));
  app.use(forwardRequestContext(options.environment));
  app.use(businessesRouter(options.clients.identity, options.guard, options.logger));
  app.use(credentialsRouter(options.clients.identity, options.guard, options.logger));
  app.use(customersRouter(options.clients.customer));
  app.use(kycSessionsAdminRouter(options.clients.kycSessions));
  app.use(paymentsAdminRouter(options.clients.payments));
  app.use(routeNotFound);
  app.use(errorHandler(options.logger));
  return app;
}
