import { createHmac } from 'node:crypto';

/** Signing time of this attempt, Unix seconds (seed 6.4). */
export const TIMESTAMP_HEADER = 'x-corridor-timestamp';
/** Lowercase hex HMAC-SHA256 of `<timestamp>.<raw body>` (seed 6.4 rule 1). */
export const SIGNATURE_HEADER = 'x-corridor-signature';
/** The same for every attempt and replay of one webhook: the key to deduplicate on. Not signed. */
export const WEBHOOK_ID_HEADER = 'x-corridor-webhook-id';
export const WEBHOOK_USER_AGENT = 'Corridor-Webhooks/1.0';

/** The raw body exactly as it goes over the wire; a string is sent, and signed, as UTF-8. */
export type WebhookBody = string | Uint8Array;

export interface SignWebhookInput {
  /** The platform's `signing_secret`. */
  secret: string;
  body: WebhookBody;
  /** Unix seconds of this attempt. Sign every attempt anew: receivers refuse timestamps over 5 minutes old. */
  timestamp: number;
  webhookId: string;
}

/** A type alias, not an interface, so it can be passed wherever `Record<string, string>` is expected. */
export type SignedWebhookHeaders = {
  'content-type': 'application/json';
  'user-agent': typeof WEBHOOK_USER_AGENT;
  [TIMESTAMP_HEADER]: string;
  [SIGNATURE_HEADER]: string;
  [WEBHOOK_ID_HEADER]: string;
};

/** Largest 10-digit Unix time (year 2286); anything above it is almost surely milliseconds. */
const LAST_SECONDS_TIMESTAMP = 9_999_999_999;

/** HMAC-SHA256 over the bytes of `<timestamp>.` followed by the raw body bytes, never re-encoded (seed 6.4 rule 1). */
export function webhookSignature(secret: string, timestamp: string, body: WebhookBody): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body).digest();
}

/** The headers to send with `body`, which must then be sent byte for byte as given. */
export function signWebhook({ secret, body, timestamp, webhookId }: SignWebhookInput): SignedWebhookHeaders {
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('secret must be a non-empty string');
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
    throw new TypeError('body must be the raw string or Buffer that will be sent');
  }
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new RangeError(`timestamp must be whole Unix seconds; got ${String(timestamp)}`);
  }
  if (timestamp > LAST_SECONDS_TIMESTAMP) {
    throw new RangeError(`timestamp ${timestamp} looks like milliseconds; pass Math.floor(Date.now() / 1000)`);
  }
  // Visible ASCII only: the id is a header value, so CR/LF or spaces would corrupt the request.
  if (typeof webhookId !== 'string' || !/^[\x21-\x7e]+$/.test(webhookId)) {
    throw new TypeError(`webhookId must be non-empty visible ASCII; got ${JSON.stringify(webhookId)}`);
  }
  const ts = String(timestamp);
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    [TIMESTAMP_HEADER]: ts,
    [SIGNATURE_HEADER]: webhookSignature(secret, ts, body).toString('hex'),
    [WEBHOOK_ID_HEADER]: webhookId,
  };
}
