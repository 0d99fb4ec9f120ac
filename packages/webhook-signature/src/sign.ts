import { createHmac } from 'node:crypto';

/** Signing time of this attempt, Unix seconds (seed 6.4). */
export const TIMESTAMP_HEADER = 'x-corridor-timestamp';
/** Lowercase hex HMAC-SHA256 of `<timestamp>.<raw body>` (seed 6.4 rule 1). */
export const SIGNATURE_HEADER = 'x-corridor-signature';
/** The same for every attempt and replay of one webhook: the key to deduplicate on. Not signed. */
export const WEBHOOK_ID_HEADER = 'x-corridor-webhook-id';
export const WEBHOOK_USER_AGENT = 'Corridor-Webhooks/1.0';
/** Standard Webhooks (https://www.standardwebhooks.com/), beside the seed's headers (decision 0065). */
export const STANDARD_ID_HEADER = 'webhook-id';
export const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
/** `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>">`, one entry per secret in force, space-separated. */
export const STANDARD_SIGNATURE_HEADER = 'webhook-signature';
/**
 * The event's number in the business's sequence (decision 0067): 1, 2, 3, … without gaps. Not signed;
 * a receiver that finds a gap asks the history (listMissedEvents), which its API token authenticates.
 */
export const SEQUENCE_HEADER = 'x-corridor-sequence';
const SECRET_PREFIX = 'whsec_';

/** The raw body exactly as it goes over the wire; a string is sent, and signed, as UTF-8. */
export type WebhookBody = string | Uint8Array;

export interface SignWebhookInput {
  /**
   * The platform's `signing_secret`, or the secrets in force during a rotation, newest first: the
   * newest signs x-corridor-signature, each signs an entry of webhook-signature (decision 0065).
   */
  secret: string | readonly string[];
  body: WebhookBody;
  /** Unix seconds of this attempt. Sign every attempt anew: receivers refuse timestamps over 5 minutes old. */
  timestamp: number;
  webhookId: string;
  /** The event's number in its business's sequence; none for a mock, which is no event of the history. */
  sequence?: number;
}

/** A type alias, not an interface, so it can be passed wherever `Record<string, string>` is expected. */
export type SignedWebhookHeaders = {
  'content-type': 'application/json';
  'user-agent': typeof WEBHOOK_USER_AGENT;
  [TIMESTAMP_HEADER]: string;
  [SIGNATURE_HEADER]: string;
  [WEBHOOK_ID_HEADER]: string;
  [STANDARD_ID_HEADER]: string;
  [STANDARD_TIMESTAMP_HEADER]: string;
  [STANDARD_SIGNATURE_HEADER]: string;
  [SEQUENCE_HEADER]?: string;
};

/** Largest 10-digit Unix time (year 2286); anything above it is almost surely milliseconds. */
const LAST_SECONDS_TIMESTAMP = 9_999_999_999;

/** HMAC-SHA256 over the bytes of `<timestamp>.` followed by the raw body bytes, never re-encoded (seed 6.4 rule 1). */
export function webhookSignature(secret: string, timestamp: string, body: WebhookBody): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body).digest();
}

/**
 * The Standard Webhooks key of a secret: the bytes its text after `whsec_` encodes in base64, as the
 * `standardwebhooks` packages read it (either base64 alphabet: secrets issued before decision 0065
 * are base64url).
 */
export function standardSigningKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** One `v1,<base64>` entry: HMAC-SHA256 over `<id>.<timestamp>.<raw body>` (Standard Webhooks, symmetric). */
export function standardSignature(secret: string, webhookId: string, timestamp: string, body: WebhookBody): string {
  const mac = createHmac('sha256', standardSigningKey(secret)).update(`${webhookId}.${timestamp}.`, 'utf8');
  return `v1,${mac.update(body).digest('base64')}`;
}

/** One secret or several, checked: a non-empty list of non-empty strings. */
export function secretList(secret: string | readonly string[]): readonly [string, ...string[]] {
  const secrets: readonly unknown[] = typeof secret === 'string' ? [secret] : secret;
  const [first, ...rest] = Array.isArray(secrets) ? secrets : [];
  if (first === undefined) throw new TypeError('secret must be a non-empty string or a non-empty array of them');
  const nonEmpty = (s: unknown): s is string => typeof s === 'string' && s.length > 0;
  if (!nonEmpty(first) || !rest.every(nonEmpty)) throw new TypeError('every secret must be a non-empty string');
  return [first, ...rest];
}

/** The headers to send with `body`, which must then be sent byte for byte as given. */
export function signWebhook({ secret, body, timestamp, webhookId, sequence }: SignWebhookInput): SignedWebhookHeaders {
  const [newest, ...older] = secretList(secret);
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
  if (sequence !== undefined && (!Number.isSafeInteger(sequence) || sequence < 1)) {
    throw new RangeError(`sequence must be a whole number from 1; got ${String(sequence)}`);
  }
  const ts = String(timestamp);
  return {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    [TIMESTAMP_HEADER]: ts,
    // The seed's header holds one lowercase hex value (seed 6.4): the newest secret's.
    [SIGNATURE_HEADER]: webhookSignature(newest, ts, body).toString('hex'),
    [WEBHOOK_ID_HEADER]: webhookId,
    [STANDARD_ID_HEADER]: webhookId,
    [STANDARD_TIMESTAMP_HEADER]: ts,
    [STANDARD_SIGNATURE_HEADER]: [newest, ...older].map((s) => standardSignature(s, webhookId, ts, body)).join(' '),
    ...(sequence === undefined ? {} : { [SEQUENCE_HEADER]: String(sequence) }),
  };
}
