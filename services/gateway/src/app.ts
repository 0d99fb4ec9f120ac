import type { Logger } from '@corridor/logging';
import { traceHttpRequests } from '@corridor/telemetry/route';
import express, { type Express } from 'express';
import { adminApiRouter } from './admin/admin-router.js';
import type { AccessGuard } from './auth/access-guard.js';
import type { TokenKeys } from './auth/token-keys.js';
import type { Clients } from './clients.js';
import { readinessHandler, type DependencyCheck } from './health/readiness.js';
import { requestId } from './http/common.js';
import { refuseHostileQuery } from './http/input-boundary.js';
import { errorHandler, retryAfterWhenUnavailable, routeNotFound } from './http/errors.js';
import { methodNotAllowed } from './http/route-table.js';
import { tokenEndpoint } from './oauth/token-endpoint.js';
import { apiDocumentationRouter } from './openapi/docs-router.js';
import { publicOperations } from './openapi/document.js';
import { paymentPageRouter } from './pay/payment-page-router.js';
import { verificationPageRouter } from './verify/verification-page-router.js';
import { PUBLIC_API_PREFIX, publicApiRouter } from './public/public-router.js';

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
  /** The dashboard's origin, for the invitation links the admin API answers in the sandbox. */
  dashboardUrl: string;
}

function baseApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // First, so everything a request does is in its span (and its trace id in every log line).
  app.use(traceHttpRequests);
  app.use(requestId);
  app.use(retryAfterWhenUnavailable);
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
  // The API first, behind its prefix: every layer express tries before a route costs each request,
  // and these two are what platforms call (issue 35). The document's path is no route of the API's.
  app.use(tokenEndpoint(options));
  app.use(PUBLIC_API_PREFIX, publicApiRouter(options));
  app.use(apiDocumentationRouter(options));
  // The payer's money-request page: its payment token is the credential, not an API token.
  app.use(paymentPageRouter(options));
  // The person's KYC verification page: the session's token is the credential, as above.
  app.use(verificationPageRouter(options));
  app.use(routeNotFound);
  app.use(errorHandler(options.logger));
  return app;
}

/** The admin listener: the back office. Never routed from the public listener. */
export function adminApp(options: AppOptions): Express {
  const app = baseApp();
  app.get('/healthz', (_req, res) => void res.json({ status: true, message: 'alive' }));
  app.use(adminApiRouter(options));
  app.use(routeNotFound);
  app.use(errorHandler(options.logger));
  return app;
}
