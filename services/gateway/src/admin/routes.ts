import type { CallSettings } from '@corridor/grpc';
import type { Logger } from '@corridor/logging';
import type { Request, Response } from 'express';
import type { AccessGuard } from '../auth/access-guard.js';
import type { Clients } from '../clients.js';
import type { DocumentedRoute } from '../http/route-table.js';
import { BUSINESS_ROUTES } from './businesses.js';
import { CREDENTIAL_ROUTES } from './credentials.js';
import { CUSTOMER_REVIEW_ROUTES } from './customers.js';
import { DEAD_LETTER_ROUTES } from './dead-letters.js';
import { KYC_VERDICT_ROUTES } from './kyc-sessions.js';
import { MEMBER_ROUTES } from './members.js';
import { PAYOUT_CONTROL_ROUTES } from './payout-controls.js';
import { RATE_AND_FEE_ROUTES } from './rates-and-fees.js';
import { WALLET_CONTROL_ROUTES } from './wallet-controls.js';

export interface AdminRouteContext {
  req: Request;
  res: Response;
  clients: Clients;
  /** The gateways' shared view of what they enforce; admin changes are pushed to it (cache-push.ts). */
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

/**
 * Every route of the admin listener (DESIGN.md "Admin API"), in one table: the router and the admin
 * OpenAPI document are both made from it, so no admin route exists undocumented.
 */
export const ADMIN_ROUTES: readonly AdminRoute[] = [
  ...BUSINESS_ROUTES,
  ...CREDENTIAL_ROUTES,
  ...MEMBER_ROUTES,
  ...CUSTOMER_REVIEW_ROUTES,
  ...KYC_VERDICT_ROUTES,
  ...RATE_AND_FEE_ROUTES,
  ...WALLET_CONTROL_ROUTES,
  ...PAYOUT_CONTROL_ROUTES,
  ...DEAD_LETTER_ROUTES,
];
