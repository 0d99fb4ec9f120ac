import type { AdminRoute } from '../floor/route-context.js';
import { BUSINESS_ROUTES } from './businesses.js';
import { CREDENTIAL_ROUTES } from './credentials.js';
import { CUSTOMER_REVIEW_ROUTES } from './customers.js';
import { DEAD_LETTER_ROUTES } from './dead-letters.js';
import { KYC_VERDICT_ROUTES } from './kyc-sessions.js';
import { MEMBER_ROUTES } from './members.js';
import { PAYOUT_CONTROL_ROUTES } from './payout-controls.js';
import { RATE_AND_FEE_ROUTES } from './rates-and-fees.js';
import { WALLET_CONTROL_ROUTES } from './wallet-controls.js';
import { WEBHOOK_ENDPOINT_ROUTES } from './webhook-endpoints.js';
import { WEBHOOK_SECRET_ROUTES } from './webhook-secrets.js';

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
  ...WEBHOOK_SECRET_ROUTES,
  ...WEBHOOK_ENDPOINT_ROUTES,
];
