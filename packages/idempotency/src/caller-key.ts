import { createHash } from 'node:crypto';
import { failedPrecondition, invalidArgument, permissionDenied, type CallContext } from '@corridor/grpc';

/** gRPC metadata between the gateway and the owning service (lowercase names). */
export const IDEMPOTENCY_METADATA = {
  key: 'idempotency-key',
  /** sha256 of the request as the gateway received it: method, concrete path, canonical JSON body. */
  fingerprint: 'idempotency-fingerprint',
  /** Response metadata: this answer is a stored one, the effect did not run again. */
  replayed: 'idempotent-replayed',
} as const;

/** Stripe's limit: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The caller's key for one route of one business, as this call presents it. */
export interface CallerKey {
  businessId: string;
  route: string;
  key: string;
  fingerprint: string;
  /** pg advisory lock id of (business, route, key): 64 bits of its sha256. */
  lockId: string;
}

function first(context: CallContext, name: string): string | undefined {
  const value = context.metadata.get(name)[0];
  return typeof value === 'string' ? value : undefined;
}

/** The key the call carries, checked again here (the gateway checks it first); undefined without one. */
export function callerKeyOf(context: CallContext, route: string): CallerKey | undefined {
  const key = first(context, IDEMPOTENCY_METADATA.key);
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw failedPrecondition(
      'IDEMPOTENCY_KEY_INVALID',
      'the Idempotency-Key header must be 1 to 255 visible ASCII characters (no spaces), e.g. a UUID',
    );
  }
  const fingerprint = first(context, IDEMPOTENCY_METADATA.fingerprint);
  if (!fingerprint) {
    throw invalidArgument(`${IDEMPOTENCY_METADATA.key} metadata needs ${IDEMPOTENCY_METADATA.fingerprint} with it`);
  }
  const { businessId } = context.caller;
  if (!businessId) throw permissionDenied('NO_BUSINESS', 'the call names no business');
  const digest = createHash('sha256')
    .update(JSON.stringify([businessId, route, key]))
    .digest();
  return { businessId, route, key, fingerprint, lockId: digest.readBigInt64BE(0).toString() };
}
