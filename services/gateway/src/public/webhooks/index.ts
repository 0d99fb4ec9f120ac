import { deliverySchemaComponents } from './delivery-schemas.js';
import { endpointSchemaComponents } from './endpoint-routes.js';
import { eventSchemaComponents } from './event-routes.js';
import { webhookSchemaComponents as configurationSchemaComponents } from './schemas.js';

export { WEBHOOK_ROUTES } from './webhook-routes.js';
export { WEBHOOK_DELIVERY_ROUTES } from './delivery-routes.js';
export { EVENT_ROUTES } from './event-routes.js';
export { ENDPOINT_ROUTES } from './endpoint-routes.js';

/** The named schemas the webhook routes refer to, for the document's components. */
export const webhookSchemaComponents = {
  ...configurationSchemaComponents,
  ...deliverySchemaComponents,
  ...eventSchemaComponents,
  ...endpointSchemaComponents,
};
