import { randomUUID } from 'node:crypto';
import type { CallSettings } from '@corridor/grpc';
import { idempotentCall, requestFingerprint } from '@corridor/idempotency/request-key';
import type { Response } from 'express';
import { memberCall } from './member-access.js';

export { isIdempotencyKey } from '@corridor/idempotency/request-key';

/**
 * A form that moves money or simulates carries a key made when it was rendered, sent as the gateway
 * sends a platform's Idempotency-Key: a double submit, a reload of the POST or a retry after a
 * timeout runs the effect once, and the service answers the first result again.
 */
export const IDEMPOTENCY_FIELD = 'idempotency_key';

export const newIdempotencyKey = (): string => randomUUID();

/**
 * memberCall(res) plus the form's key and the fingerprint of the POST to `path` with `request`;
 * `replayed()` is true once the service answered a stored result instead of acting again.
 */
export function idempotentMemberCall(
  res: Response,
  key: string,
  path: string,
  request: unknown,
): { settings: CallSettings; replayed: () => boolean } {
  const { metadata, ...rest } = memberCall(res);
  if (!metadata) throw new Error('memberCall gave no metadata');
  const call = idempotentCall(metadata, key, requestFingerprint('POST', path, request));
  return { settings: { ...rest, ...call.settings }, replayed: call.replayed };
}
