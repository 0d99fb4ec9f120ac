import type { Scope } from '@corridor/scopes';
import type { Request, Response } from 'express';
import type { CallSettings } from '@corridor/grpc';
import type { Metadata } from '@grpc/grpc-js';
import type { HeadersObject } from 'openapi3-ts/oas31';
import type { Authenticated } from '../auth/authenticate.js';
import type { Clients } from '../clients.js';
import type { JsonSchema } from '../openapi/json-schema.js';
import { CUSTOMER_API_ROUTES } from './customers/index.js';
import { KYC_SESSION_ROUTES } from './kyc-sessions/index.js';
import { PAYMENT_ROUTES } from './payments/index.js';
import { WEBHOOK_DELIVERY_ROUTES, WEBHOOK_ROUTES } from './webhooks/index.js';
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

/** One documented response; without a schema an error status answers the shared Error body, a 2xx none. */
export interface RouteResponse {
  description: string;
  schema?: JsonSchema;
  /** Headers of this route's own, beyond x-request-id and the rate-limit ones every answer has. */
  headers?: HeadersObject;
}

export interface PublicRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path under the server root, e.g. /api/external/customer/{id}. */
  path: string;
  /** The scope a token must carry (seed part 5); null: any valid token. */
  scope: Scope | null;
  operationId: string;
  summary: string;
  /**
   * The route's own responses by status: its success and any error particular to it (e.g. 409).
   * The errors every authenticated route can answer (401, 403, 429, 5xx; 404 when the path names a
   * resource) are added by the document.
   */
  responses: Readonly<Record<number, RouteResponse>>;
  /** The JSON body the route reads, if any (the document then adds 400, 413, 415 and 422). */
  requestBody?: JsonSchema;
  /** The query parameters the route reads, as one closed object schema: each property is a parameter. */
  query?: JsonSchema;
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
  ...PAYMENT_ROUTES,
];

/** /api/external/customer/{id} → /api/external/customer/:id */
export const expressPath = (path: string) => path.replace(/\{([^}]+)\}/g, ':$1');
