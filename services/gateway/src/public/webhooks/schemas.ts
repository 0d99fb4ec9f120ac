import { URL_DISABLED_REASONS } from '@corridor/grpc/notification-words';
import type { JsonSchema } from '../../http/json-schema.js';
import { ref } from '../../http/json-schema.js';
import { HTTPS_URL_PATTERN } from '../../floor/text-boundary.js';

/**
 * The bodies and answers of the webhook routes (decision 0009). Bodies are documentation:
 * notification enforces them (and resolves each host) and reports every problem at once, 422.
 * Answers are closed, so a field added to render.ts without its schema fails the suites that
 * validate real responses.
 */

/** seed 2.4: HTTPS; decision 0009: absolute, at most 2048 characters, no credentials. */
const httpsUrl = (description: string): JsonSchema => ({
  type: 'string',
  format: 'uri',
  pattern: HTTPS_URL_PATTERN,
  maxLength: 2048,
  description,
});

const COLLECTION = 'receives collection webhooks';
const PAYOUT = 'receives payout webhooks';
const KYC =
  'receives merchant KYC session webhooks and customer.status_changed (without it, customer.status_changed goes to collection_url)';
const URL_RULES =
  'an absolute https:// URL of at most 2048 characters, without credentials, whose host resolves only to public addresses';

const nullableKycUrl = (description: string): JsonSchema => ({
  ...httpsUrl(description),
  type: ['string', 'null'],
});

/**
 * A URL as answered: whatever a registration stored, which includes the IP-literal hosts the
 * request pattern leaves undescribed (a narrower request document, never a narrower answer).
 */
const storedUrl = (description: string): JsonSchema => ({
  type: 'string',
  format: 'uri',
  maxLength: 2048,
  description,
});

export const registerWebhookBody: JsonSchema = {
  type: 'object',
  description: `The business's one registration (seed 2.4). Each URL is ${URL_RULES}.`,
  required: ['collection_url', 'payout_url'],
  additionalProperties: false,
  properties: {
    collection_url: httpsUrl(COLLECTION),
    payout_url: httpsUrl(PAYOUT),
    kyc_url: nullableKycUrl(`optional; ${KYC}`),
  },
  // example.com resolves to public addresses, as notification requires of every host.
  examples: [
    {
      collection_url: 'https://example.com/corridor/collections',
      payout_url: 'https://example.com/corridor/payouts',
      kyc_url: 'https://example.com/corridor/kyc',
    },
  ],
};

export const updateWebhookBody: JsonSchema = {
  type: 'object',
  description: `The URLs to change: an omitted one is unchanged, kyc_url null removes it; collection_url and payout_url cannot be null. Each URL is ${URL_RULES}. The signing secret never changes.`,
  additionalProperties: false,
  properties: {
    collection_url: httpsUrl(COLLECTION),
    payout_url: httpsUrl(PAYOUT),
    kyc_url: nullableKycUrl(`${KYC}; null removes it`),
  },
  examples: [{ payout_url: 'https://example.com/corridor/payouts/v2', kyc_url: null }],
};

const webhookProperties = {
  id: { type: 'string', format: 'uuid', description: 'the registration, for PUT /api/external/webhook/{id}' },
  collection_url: storedUrl(COLLECTION),
  payout_url: storedUrl(PAYOUT),
  kyc_url: { ...storedUrl(`${KYC}; null when not registered`), type: ['string', 'null'] },
  signing_secret_last4: {
    type: 'string',
    minLength: 4,
    maxLength: 4,
    description: 'the signing secret’s last four characters, to tell which secret you hold',
  },
  created_at: { type: 'string', format: 'date-time' },
  updated_at: { type: 'string', format: 'date-time' },
} satisfies Record<string, JsonSchema>;

const urlHealth: JsonSchema = {
  type: 'object',
  description: 'One registered URL’s health (decision 0068)',
  required: ['status', 'disabled_at', 'reason', 'failing_since', 'consecutive_failures'],
  additionalProperties: false,
  properties: {
    status: {
      enum: ['enabled', 'disabled'],
      description:
        'disabled: no attempt is made to it (its deliveries are held, skipped_reason endpoint_disabled) until POST /api/external/webhook/{id}/endpoint/{kind}/enable or a PUT that changes it',
    },
    disabled_at: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'when it was disabled; null when enabled',
    },
    reason: {
      enum: [...URL_DISABLED_REASONS.words, null],
      description:
        'gone: it answered 410 Gone; failing_for: every delivery failed (after its retries) for 5 days; consecutive: 100 deliveries in a row failed; null when enabled',
    },
    failing_since: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'when the first delivery of the current unbroken run of failed ones failed; null when none',
    },
    consecutive_failures: { type: 'integer', minimum: 0, description: 'deliveries of that run' },
  },
};

export const webhook: JsonSchema = {
  type: 'object',
  description:
    'The business’s webhook registration, without its signing secret (a read with webhook:read does not hand out the key that signs Corridor’s webhooks)',
  required: Object.keys(webhookProperties),
  additionalProperties: false,
  properties: {
    ...webhookProperties,
    url_health: {
      type: 'object',
      description:
        'each registered URL’s health, by its field name (decision 0068); kyc_url only when registered. Absent while the service that knows it is being upgraded.',
      required: ['collection_url', 'payout_url'],
      additionalProperties: false,
      properties: { collection_url: urlHealth, payout_url: urlHealth, kyc_url: urlHealth },
    },
  },
};

const withSecretProperties = {
  ...webhookProperties,
  signing_secret: {
    type: 'string',
    // Decision 0009: whsec_ and 32 random bytes, base64url without padding.
    pattern: '^whsec_[A-Za-z0-9_-]{43}$',
    description:
      'HMAC-SHA256 key of the x-corridor-signature of every collection, payout and KYC webhook (seed 6.4); made once at registration, never changed by PUT. Keep it secret: GET shows only its last four characters.',
  },
} satisfies Record<string, JsonSchema>;

/** Decision 0065: the overlap of a rotation. */
const overlapProperties = {
  previous_signing_secret_last4: {
    type: ['string', 'null'],
    minLength: 4,
    maxLength: 4,
    description: 'the replaced secret’s last four characters while it still signs; null when no overlap is open',
  },
  previous_signing_secret_expires_at: {
    type: ['string', 'null'],
    format: 'date-time',
    description: 'when the replaced secret stops signing; null when no overlap is open',
  },
} satisfies Record<string, JsonSchema>;

const closed = (description: string, properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  description,
  required: Object.keys(properties),
  additionalProperties: false,
  properties,
});

export const rotateSigningSecretBody: JsonSchema = {
  type: 'object',
  description:
    'Optional. Every delivery is signed with both the new and the replaced secret for overlap_seconds (webhook-signature carries one entry each; x-corridor-signature the new one), then with the new one alone (decision 0065).',
  additionalProperties: false,
  properties: {
    overlap_seconds: {
      type: 'integer',
      minimum: 0,
      maximum: 604800,
      default: 86400,
      description: 'how long the replaced secret keeps signing: 0 (not at all) to 604800 (7 days); 24 h when omitted',
    },
  },
  examples: [{ overlap_seconds: 3600 }],
};

const webhookWithSecret: JsonSchema = {
  type: 'object',
  description: 'The business’s webhook registration with its signing secret (seed 4.3)',
  required: Object.keys(withSecretProperties),
  additionalProperties: false,
  properties: withSecretProperties,
};

/** components.schemas of the rotation's answers, the public API's and the back office's (decision 0065). */
export const rotationSchemaComponents: Record<string, JsonSchema> = {
  RotatedWebhook: closed(
    'The registration with its new signing secret, shown this once, and the overlap (decision 0065)',
    {
      ...withSecretProperties,
      ...overlapProperties,
    },
  ),
  WebhookOverlapEnded: closed('The registration without its signing secret, its overlap ended', {
    ...webhookProperties,
    ...overlapProperties,
  }),
};

/** components.schemas of the webhook API. */
export const webhookSchemaComponents: Record<string, JsonSchema> = {
  Webhook: webhook,
  WebhookWithSecret: webhookWithSecret,
  ...rotationSchemaComponents,
};

const schema = (name: string): JsonSchema => ({ $ref: ref('schemas', name).$ref });

/** `{message, data}`, as every success of the public API (decision 0008). */
const successBody = (message: string, data: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['message', 'data'],
  additionalProperties: false,
  properties: { message: { type: 'string', const: message }, data },
});

export const webhookBody = (message: string) => successBody(message, schema('Webhook'));
export const webhookWithSecretBody = (message: string) => successBody(message, schema('WebhookWithSecret'));
export const rotatedWebhookBody = (message: string) => successBody(message, schema('RotatedWebhook'));
export const overlapEndedWebhookBody = (message: string) => successBody(message, schema('WebhookOverlapEnded'));
