export { WEBHOOK_ROUTES } from './webhook-routes.js';
export { webhookSchemaComponents } from './schemas.js';
