export { KYC_SESSION_ROUTES } from './kyc-session-routes.js';
export { kycSessionSchemaComponents } from './json-schema.js';
