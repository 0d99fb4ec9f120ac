import { timingSafeEqual } from 'node:crypto';
import { TextDecoder } from 'node:util';
import {
  secretList,
  SIGNATURE_HEADER,
  STANDARD_ID_HEADER,
  STANDARD_SIGNATURE_HEADER,
  STANDARD_TIMESTAMP_HEADER,
  standardSignature,
  TIMESTAMP_HEADER,
  type WebhookBody,
  webhookSignature,
} from './sign.js';

export type WebhookVerificationFailure =
  'MISSING_HEADER' | 'MALFORMED_TIMESTAMP' | 'TIMESTAMP_OUT_OF_TOLERANCE' | 'SIGNATURE_MISMATCH' | 'MALFORMED_BODY';

/** The request is not an authentic, fresh Corridor webhook; `reason` says which check refused it. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Node's `IncomingHttpHeaders` (Express `req.headers`) or anything with a Fetch-style `get`
 * (`Headers`, `Request.headers`). Plain-object keys are matched case-insensitively.
 */
export type WebhookHeaderSource =
  { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyWebhookInput {
  /** The `signing_secret`, or several while one is being rotated out; any of them may match. */
  secret: string | readonly string[];
  /** The exact bytes received. JSON parsed and serialised again will not verify. */
  rawBody: WebhookBody;
  headers: WebhookHeaderSource;
  /** The receiver's clock; defaults to the current time. */
  now?: Date;
  /** How far the timestamp may be from `now`, either way (seed 6.4 rule 2: 5 minutes). */
  toleranceSeconds?: number;
}

/** The webhook body (seed 6.2): the event type and its payload, which the caller narrows. */
export interface WebhookEvent {
  event: string;
  data: unknown;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;

const SIGNATURE_HEX_LENGTH = 64;

/**
 * Checks signature, then freshness, then the body shape, and returns the parsed body.
 * Throws `WebhookVerificationError` when the request must be refused, `TypeError`/`RangeError` on misuse.
 */
export function verifyWebhook({
  secret,
  rawBody,
  headers,
  now = new Date(),
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
}: VerifyWebhookInput): WebhookEvent {
  const secrets = secretList(secret);
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    throw new TypeError(
      `rawBody must be the exact bytes received (Buffer or string); got ${describe(rawBody)}. ` +
        "With Express, use express.raw({ type: 'application/json' }) on the webhook route, not express.json().",
    );
  }
  if (typeof headers !== 'object' || headers === null) throw new TypeError('headers must be an object');
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new TypeError('now must be a valid Date');
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new RangeError(`toleranceSeconds must be a finite number >= 0; got ${String(toleranceSeconds)}`);
  }

  // webhook-signature carries every secret in force (decision 0065): it is read when sent, so a
  // receiver still holding the previous secret verifies during a rotation's overlap.
  const standard = headerValues(headers, STANDARD_SIGNATURE_HEADER);
  const timestampHeader = standard.length > 0 ? STANDARD_TIMESTAMP_HEADER : TIMESTAMP_HEADER;
  const timestamp = singleHeader(headers, timestampHeader, 'MALFORMED_TIMESTAMP');
  if (!/^[0-9]+$/.test(timestamp) || !Number.isSafeInteger(Number(timestamp))) {
    throw new WebhookVerificationError(
      'MALFORMED_TIMESTAMP',
      `${timestampHeader} must be Unix seconds (digits only); got ${quote(timestamp)}`,
    );
  }
  if (standard.length > 0) {
    const webhookId = singleHeader(headers, STANDARD_ID_HEADER, 'SIGNATURE_MISMATCH');
    checkStandardSignatures(standard, secrets, webhookId, timestamp, rawBody);
  } else {
    checkSignature(singleHeader(headers, SIGNATURE_HEADER, 'SIGNATURE_MISMATCH'), secrets, timestamp, rawBody);
  }

  // Signature before freshness, so this reason means "authentic but stale": a replay or a wrong clock.
  const skew = Math.floor(now.getTime() / 1000) - Number(timestamp);
  if (Math.abs(skew) > toleranceSeconds) {
    throw new WebhookVerificationError(
      'TIMESTAMP_OUT_OF_TOLERANCE',
      `${timestampHeader} ${timestamp} is ${Math.abs(skew)} s ${skew > 0 ? 'behind' : 'ahead of'} this ` +
        `receiver's clock (${now.toISOString()}); at most ${toleranceSeconds} s is accepted`,
    );
  }
  return parseBody(rawBody);
}

/** Every value sent for a header, in any case of its name and however duplicates arrive. */
function headerValues(headers: WebhookHeaderSource, name: string): string[] {
  const raw: string[] = [];
  if (typeof headers.get === 'function') {
    const value = (headers as { get(name: string): string | null }).get(name);
    if (typeof value === 'string') raw.push(value);
  } else {
    for (const [key, value] of Object.entries(headers as Readonly<Record<string, unknown>>)) {
      if (key.toLowerCase() !== name) continue;
      for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string') raw.push(item);
    }
  }
  return raw.filter((v) => v.trim() !== '');
}

/**
 * The one value of a header. Duplicates arrive as arrays, as several keys differing in case, or
 * joined with ", " (Node, Fetch); neither timestamp nor signature contains a comma, so they are split.
 */
function singleHeader(headers: WebhookHeaderSource, name: string, conflictReason: WebhookVerificationFailure): string {
  const raw = headerValues(headers, name);
  const values = [...new Set(raw.flatMap((v) => v.split(',')).map((v) => v.trim()))].filter((v) => v !== '');
  const [first, ...rest] = values;
  if (first === undefined) {
    throw new WebhookVerificationError('MISSING_HEADER', `the ${name} header is missing or empty`);
  }
  if (rest.length > 0) {
    throw new WebhookVerificationError(
      conflictReason,
      `${name} was sent with ${values.length} different values (${values.map(quote).join(', ')}); exactly one is expected`,
    );
  }
  return first;
}

function checkSignature(signature: string, secrets: readonly string[], timestamp: string, rawBody: WebhookBody): void {
  // Length and alphabet first: timingSafeEqual needs equal lengths, and this gives the sender a precise message.
  if (signature.length !== SIGNATURE_HEX_LENGTH || !/^[0-9a-f]+$/i.test(signature)) {
    throw new WebhookVerificationError(
      'SIGNATURE_MISMATCH',
      `${SIGNATURE_HEADER} must be ${SIGNATURE_HEX_LENGTH} hexadecimal characters (HMAC-SHA256); ` +
        `got ${signature.length} characters${/^[0-9a-f]*$/i.test(signature) ? '' : ' with non-hex ones'}`,
    );
  }
  const received = Buffer.from(signature, 'hex');
  // Every secret is tried, so the time taken does not tell which one (if any) matched.
  let matched = false;
  for (const secret of secrets) {
    matched = timingSafeEqual(received, webhookSignature(secret, timestamp, rawBody)) || matched;
  }
  if (!matched) {
    // Never echo the expected signature: that would turn the error into a signing oracle.
    throw new WebhookVerificationError(
      'SIGNATURE_MISMATCH',
      `${SIGNATURE_HEADER} does not match ${timestamp}.<body> under ` +
        `${secrets.length === 1 ? 'the signing secret' : `any of the ${secrets.length} signing secrets`}; ` +
        'check the secret and that rawBody is the exact bytes received, not re-serialised JSON',
    );
  }
}

/**
 * Standard Webhooks: any `v1,` entry equal to one a secret makes; entries of other versions are
 * skipped, as the specification says.
 */
function checkStandardSignatures(
  values: readonly string[],
  secrets: readonly string[],
  webhookId: string,
  timestamp: string,
  rawBody: WebhookBody,
): void {
  const received = values.flatMap((value) => value.split(/\s+/)).filter((entry) => entry.startsWith('v1,'));
  const expected = secrets.map((secret) => Buffer.from(standardSignature(secret, webhookId, timestamp, rawBody)));
  // Every pair is compared, so the time taken does not tell which one (if any) matched.
  let matched = false;
  for (const entry of received.map((e) => Buffer.from(e))) {
    for (const signature of expected) {
      matched = (entry.length === signature.length && timingSafeEqual(entry, signature)) || matched;
    }
  }
  if (!matched) {
    throw new WebhookVerificationError(
      'SIGNATURE_MISMATCH',
      `no v1 entry of ${STANDARD_SIGNATURE_HEADER} matches ${webhookId}.${timestamp}.<body> under ` +
        `${secrets.length === 1 ? 'the signing secret' : `any of the ${secrets.length} signing secrets`}; ` +
        'check the secret and that rawBody is the exact bytes received, not re-serialised JSON',
    );
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseBody(rawBody: WebhookBody): WebhookEvent {
  let text: string;
  try {
    text = typeof rawBody === 'string' ? rawBody : utf8.decode(rawBody);
  } catch {
    throw new WebhookVerificationError('MALFORMED_BODY', 'the body is not valid UTF-8');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new WebhookVerificationError(
      'MALFORMED_BODY',
      `the body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!isJsonObject(body)) {
    throw new WebhookVerificationError('MALFORMED_BODY', `the body must be a JSON object; got ${describe(body)}`);
  }
  const { event, data } = body;
  if (typeof event !== 'string' || event === '') {
    throw new WebhookVerificationError(
      'MALFORMED_BODY',
      `body.event must be a non-empty string; got ${describe(event)}`,
    );
  }
  if (!isJsonObject(data)) {
    throw new WebhookVerificationError('MALFORMED_BODY', `body.data must be a JSON object; got ${describe(data)}`);
  }
  return { event, data };
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${quote(value)}`;
  return `${typeof value} ${String(value)}`;
}

/** A received value for a message, cut short so a hostile header cannot flood the logs. */
function quote(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}
