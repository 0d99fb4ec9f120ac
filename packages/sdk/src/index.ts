export {
  Corridor,
  type CorridorOptions,
  type DataOf,
  type InitOf,
  type ItemOf,
  type ListPath,
  type PathOf,
} from './client.js';
export { CorridorConnectionError, CorridorError, type FieldErrors } from './errors.js';
export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
export type { components, operations, paths } from './generated/schema.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookInput,
  type WebhookEvent,
  type WebhookHeaderSource,
  type WebhookVerificationFailure,
} from '@corridor/webhook-signature';

import type { components } from './generated/schema.js';
/** The API's named schemas, e.g. `Schemas['Transaction']`. */
export type Schemas = components['schemas'];
