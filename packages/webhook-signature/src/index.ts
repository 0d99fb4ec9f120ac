export {
  signWebhook,
  SEQUENCE_HEADER,
  SIGNATURE_HEADER,
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  standardSigningKey,
  TIMESTAMP_HEADER,
  WEBHOOK_ID_HEADER,
  WEBHOOK_USER_AGENT,
  type SignedWebhookHeaders,
  type SignWebhookInput,
  type WebhookBody,
} from './sign.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookInput,
  type WebhookEvent,
  type WebhookHeaderSource,
  type WebhookVerificationFailure,
} from './verify.js';
export {
  listMissedEvents,
  type FetchHistoryPage,
  type HistoryEvent,
  type HistoryPage,
  type ListMissedEventsInput,
} from './missed-events.js';
