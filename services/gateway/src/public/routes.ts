import type { PublicRoute } from '../floor/route-context.js';
import { CUSTOMER_API_ROUTES } from './customers/index.js';
import { KYC_SESSION_ROUTES } from './kyc-sessions/index.js';
import { PAYMENT_ROUTES } from './payments/index.js';
import { SANDBOX_CLOCK_ROUTES } from './sandbox-clock/clock-routes.js';
import { ENDPOINT_ROUTES, EVENT_ROUTES, WEBHOOK_DELIVERY_ROUTES, WEBHOOK_ROUTES } from './webhooks/index.js';
import { WEBHOOK_LISTEN_ROUTES } from './webhooks/listen-routes.js';
import { whoami, whoamiResponse } from './whoami.js';

/**
 * Every authenticated public route, in one table: the router, the scope check and the OpenAPI
 * document are all made from it, so a route cannot exist without its scope and its documentation.
 */
export const PUBLIC_ROUTES: readonly PublicRoute[] = [
  {
    method: 'get',
    path: '/api/external/whoami',
    scope: null,
    operationId: 'whoami',
    summary: 'Who is calling: business, environment, client id, granted scopes and the remaining rate-limit budget',
    responses: { 200: { description: 'The caller as the token and its business allow it', schema: whoamiResponse } },
    handle: whoami,
  },
  ...CUSTOMER_API_ROUTES,
  ...KYC_SESSION_ROUTES,
  ...WEBHOOK_ROUTES,
  ...ENDPOINT_ROUTES,
  ...WEBHOOK_DELIVERY_ROUTES,
  ...WEBHOOK_LISTEN_ROUTES,
  ...EVENT_ROUTES,
  ...PAYMENT_ROUTES,
  ...SANDBOX_CLOCK_ROUTES,
];
