import { createHash, randomUUID } from 'node:crypto';
import type { CallSettings } from '@corridor/grpc';

/**
 * A money-moving form's idempotency key, sent to payments as the gateway sends an Idempotency-Key
 * (services/gateway/src/public/idempotency-key.ts): gRPC metadata `idempotency-key` with the
 * request's `idempotency-fingerprint`, which payments claims (@corridor/idempotency) in the
 * transaction of the effect. The key is made when the form is rendered, so a double submit, a
 * reload of the POST or a retry after a timeout carries the same key and payments answers the first
 * refund again instead of making a second.
 */

/** The metadata names @corridor/idempotency reads (its IDEMPOTENCY_METADATA). */
export const IDEMPOTENCY_METADATA = {
  key: 'idempotency-key',
  fingerprint: 'idempotency-fingerprint',
  replayed: 'idempotent-replayed',
} as const;

/** Stripe's limit, as the gateway's and payments': 1 to 255 visible ASCII characters. */
const KEY = /^[\x21-\x7e]{1,255}$/;

export const newIdempotencyKey = (): string => randomUUID();

export const isIdempotencyKey = (key: string): boolean => KEY.test(key);

/** JSON with every object's keys sorted, as the gateway's canonicalJson: one text per request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    return `{${Object.keys(object)
      .sort()
      .filter((name) => object[name] !== undefined)
      .map((name) => `${JSON.stringify(name)}:${canonicalJson(object[name])}`)
      .join(',')}}`;
  }
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? 'null';
}

/**
 * The gateway's fingerprint (method, concrete path, canonical body), of the dashboard's own path and
 * of what is sent to payments: the same key with another amount or reason is payments' 422
 * IDEMPOTENCY_KEY_REUSED, never a refund of the other request.
 */
export function requestFingerprint(method: string, path: string, body: Record<string, unknown>): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()}\n${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

/**
 * The member's call settings (memberCall) plus the key and fingerprint; `replayed()` says afterwards
 * whether payments answered a stored response (the refund already existed: nothing happened now).
 */
export function idempotentCall(
  call: CallSettings,
  key: string,
  fingerprint: string,
): { settings: CallSettings; replayed: () => boolean } {
  if (!call.metadata) throw new Error('an idempotent call needs the member’s caller metadata');
  const metadata = call.metadata.clone();
  metadata.set(IDEMPOTENCY_METADATA.key, key);
  metadata.set(IDEMPOTENCY_METADATA.fingerprint, fingerprint);
  let replayed = false;
  return {
    settings: {
      ...call,
      metadata,
      onResponseMetadata: (received) => {
        replayed = received.get(IDEMPOTENCY_METADATA.replayed)[0] === 'true';
      },
    },
    replayed: () => replayed,
  };
}
