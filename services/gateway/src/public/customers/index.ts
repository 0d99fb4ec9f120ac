import type { PublicRoute } from '../../floor/route-context.js';
import { CUSTOMER_ROUTES } from './customer-routes.js';
import { DOCUMENT_ROUTES } from './document-routes.js';
import { INDIVIDUAL_FILE_ROUTES } from './individual-file-routes.js';
import { OWNER_ROUTES } from './owner-routes.js';
import { customerRequestComponents } from './request-schemas.js';
import { customerResponseComponents } from './response-schemas.js';
import { SANDBOX_CUSTOMER_ROUTES } from './sandbox-routes.js';

/** Every public route of the customer API (decision 0008). */
export const CUSTOMER_API_ROUTES: readonly PublicRoute[] = [
  ...CUSTOMER_ROUTES,
  ...OWNER_ROUTES,
  ...DOCUMENT_ROUTES,
  ...INDIVIDUAL_FILE_ROUTES,
  ...SANDBOX_CUSTOMER_ROUTES,
];

/** The named schemas the routes refer to, for the document's components. */
export const customerSchemaComponents = { ...customerResponseComponents, ...customerRequestComponents };
