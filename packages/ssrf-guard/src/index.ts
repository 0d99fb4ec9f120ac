export { classifyAddress, type AddressClassification, type NonGlobalKind } from './classify-address.js';
export {
  checkWebhookUrl,
  MAX_WEBHOOK_URL_LENGTH,
  type ResolvedAddress,
  type WebhookUrlCheck,
  type WebhookUrlOptions,
} from './check-webhook-url.js';
export { pinnedLookup, resolveAndPin, type PinnedWebhookUrl } from './pinned-lookup.js';
