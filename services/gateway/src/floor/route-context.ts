import type { CallSettings } from '@corridor/grpc';
import type { Logger } from '@corridor/logging';
import type { Scope } from '@corridor/scopes';
import type { Metadata } from '@grpc/grpc-js';
import type { Request, Response } from 'express';
import type { AccessGuard } from '../auth/access-guard.js';
import type { Authenticated } from '../auth/authenticate.js';
import type { Clients } from '../clients.js';
import type { DocumentedRoute } from '../http/route-table.js';

/**
 * What a route of either listener is given, and what it is: the capabilities' routes are written
 * against these, and the tables (public/routes.ts, admin/routes.ts) only gather them.
 */

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
  /** For what must not fail the request once its change is made (an audit entry not recorded). */
  logger: Logger;
}

export interface PublicRoute extends DocumentedRoute {
  /** The scope a token must carry (seed part 5); null: any valid token. */
  scope: Scope | null;
  handle(context: RouteContext): Promise<void>;
}

export interface AdminRouteContext {
  req: Request;
  res: Response;
  clients: Clients;
  /** The gateways' shared view of what they enforce; admin changes are pushed to it (admin/cache-push.ts). */
  guard: AccessGuard;
  logger: Logger;
  /** The back office's request id and environment, and no business: Admin* calls name it themselves. */
  call: CallSettings;
  /** The dashboard's origin (DASHBOARD_URL), for the links the back office is answered with. */
  dashboardUrl: string;
}

export interface AdminRoute extends DocumentedRoute {
  handle(context: AdminRouteContext): Promise<void>;
}
