import type { Scope } from '@corridor/scopes';
import type { Request, Response } from 'express';
import type { CallSettings } from '@corridor/grpc';
import type { Metadata } from '@grpc/grpc-js';
import type { Authenticated } from '../auth/authenticate.js';
import type { Clients } from '../clients.js';
import type { DocumentedRoute } from '../http/route-table.js';
import { CUSTOMER_API_ROUTES } from './customers/index.js';
import { KYC_SESSION_ROUTES } from './kyc-sessions/index.js';
import { PAYMENT_ROUTES } from './payments/index.js';
import { WEBHOOK_DELIVERY_ROUTES, WEBHOOK_ROUTES } from './webhooks/index.js';
import { WEBHOOK_LISTEN_ROUTES } from './webhooks/listen-routes.js';
import { whoami, whoamiResponse } from './whoami.js';

export interface RouteContext {
  req: Request;
  res: Response;
  auth: Authenticated;
  clients: Clients;
  /** Caller context for gRPC calls: business, credential, scopes, environment, request id. */
  metadata: Metadata;
  /**
   * What a route passes to its gRPC call: `metadata`, plus the Idempotency-Key on a POST and the
   * hook that answers `Idempotent-Replayed` when the service replayed a stored response.
   */
  call: CallSettings;
}

export interface PublicRoute extends DocumentedRoute {
  /** The scope a token must carry (seed part 5); null: any valid token. */
  scope: Scope | null;
  handle(context: RouteContext): Promise<void>;
}

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
  ...WEBHOOK_DELIVERY_ROUTES,
  ...WEBHOOK_LISTEN_ROUTES,
  ...PAYMENT_ROUTES,
];
