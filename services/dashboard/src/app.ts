import { fileURLToPath } from 'node:url';
import { traceHttpRequests } from '@corridor/telemetry/route';
import express, { type Express } from 'express';
import { apiKeysRouter } from './api-keys/api-keys-routes.js';
import { auditRouter } from './audit/audit-routes.js';
import { customersRouter } from './customers/customers-routes.js';
import type { DashboardDependencies } from './dependencies.js';
import { pageErrors, routeNotFound } from './http/error-pages.js';
import { readinessHandler, type DependencyCheck } from './http/readiness.js';
import { requestState } from './http/request-state.js';
import { securityHeaders } from './http/security-headers.js';
import { homeRouter } from './home/home-routes.js';
import { kycSessionsRouter } from './kyc-sessions/kyc-sessions-routes.js';
import { invitationRouter } from './invitation/invitation-routes.js';
import { totpRouter } from './invitation/totp-routes.js';
import { moneyRouter } from './money/money-routes.js';
import { passwordResetRouter } from './password-reset/password-reset-routes.js';
import { sandboxRouter } from './sandbox/sandbox-routes.js';
import { refuseForgedPosts } from './sessions/csrf.js';
import { loadSession } from './sessions/session-middleware.js';
import { signInRouter } from './sign-in/sign-in-routes.js';
import { teamRouter } from './team/team-routes.js';
import { webhooksRouter } from './webhooks/webhooks-routes.js';

/** The stylesheet and the progressive-enhancement script, files of the package (src/ and dist/ alike). */
export const ASSETS_DIRECTORY = fileURLToPath(new URL('../assets/', import.meta.url));

export interface AppOptions {
  /** express "trust proxy": which proxies' X-Forwarded-For is believed for the member's address. */
  trustProxy: boolean | string;
  readiness: readonly DependencyCheck[];
}

export function dashboardApp(deps: DashboardDependencies, options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', options.trustProxy);
  app.use(traceHttpRequests);
  app.use(requestState(deps.environment));
  app.use(securityHeaders);
  app.get('/healthz', (_req, res) => void res.json({ status: true, message: 'alive' }));
  app.get('/readyz', readinessHandler(options.readiness));
  app.use('/assets', express.static(ASSETS_DIRECTORY, { index: false, dotfiles: 'ignore', maxAge: '5m' }));
  app.use(express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 200 }));
  app.use(loadSession(deps.sessions, deps.cookies));
  app.use(refuseForgedPosts(deps.origin));
  app.use(signInRouter(deps));
  app.use(invitationRouter(deps));
  app.use(totpRouter(deps));
  app.use(passwordResetRouter(deps));
  app.use(homeRouter(deps));
  app.use(apiKeysRouter(deps));
  app.use(customersRouter(deps));
  app.use(kycSessionsRouter(deps));
  app.use(webhooksRouter(deps));
  app.use(sandboxRouter(deps));
  app.use(moneyRouter(deps));
  app.use(teamRouter(deps));
  app.use(auditRouter(deps));
  app.use(routeNotFound);
  app.use(pageErrors(deps.logger));
  return app;
}
