import { createHash } from 'node:crypto';
import type { CallSettings } from '@corridor/grpc';
import type { Metadata } from '@grpc/grpc-js';
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_METADATA } from './caller-key.js';

/**
 * The caller's side of an idempotent call (the gateway's Idempotency-Key, the dashboard's forms):
 * the key and the request's fingerprint in metadata, and whether the owning service answered a
 * stored response. Exported as `@corridor/idempotency/request-key`, apart from the service side,
 * so callers load no ORM.
 */

export { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_METADATA };

export const isIdempotencyKey = (key: string): boolean => IDEMPOTENCY_KEY_PATTERN.test(key);

/** JSON with every object's keys sorted (undefined members left out, bigints as decimal strings): one text per request. */
export function canonicalJson(value: unknown): string {
  if (typeof value === 'bigint') return JSON.stringify(value.toString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const members = Object.keys(object)
      .filter((name) => object[name] !== undefined)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson(object[name])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What makes two requests "the same" for a key: the method, the concrete path and the body. The
 * same key with another body is the owning service's 422 IDEMPOTENCY_KEY_REUSED, never a second effect.
 */
export function requestFingerprint(method: string, concretePath: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()}\n${concretePath}\n${canonicalJson(body ?? {})}`)
    .digest('hex');
}

/**
 * `metadata` (not changed) plus the key and the fingerprint, as call settings; `replayed()` says
 * afterwards whether the service answered a stored response (the effect did not run again).
 */
export function idempotentCall(
  metadata: Metadata,
  key: string,
  fingerprint: string,
): { settings: CallSettings; replayed: () => boolean } {
  const withKey = metadata.clone();
  withKey.set(IDEMPOTENCY_METADATA.key, key);
  withKey.set(IDEMPOTENCY_METADATA.fingerprint, fingerprint);
  let replayed = false;
  return {
    settings: {
      metadata: withKey,
      onResponseMetadata: (received) => {
        if (received.get(IDEMPOTENCY_METADATA.replayed)[0] === 'true') replayed = true;
      },
    },
    replayed: () => replayed,
  };
}
