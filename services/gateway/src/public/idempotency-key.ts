import type { CallSettings } from '@corridor/grpc';
import { idempotentCall, requestFingerprint } from '@corridor/idempotency/request-key';
import type { Metadata } from '@grpc/grpc-js';
import type { Request, Response } from 'express';
import { HttpError } from '../http/errors.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
/** Stripe's limit: 1 to 255 visible ASCII characters (a UUID fits). */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]{1,255}$';
const KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** Why a key is refused, specifically (seed 7: the message names the problem). */
function keyProblem(key: string): string | undefined {
  if (KEY.test(key)) return undefined;
  if (key === '') return 'is empty';
  if (key.length > 255) return `is ${key.length} characters long, more than 255`;
  return 'contains a character that is not visible ASCII (a space, a control character or a non-ASCII letter)';
}

/** /api/external/customer/{id}/submit with the request's parameters filled in. */
const concretePathOf = (template: string, req: Request) =>
  template.replace(/\{([^}]+)\}/g, (_, name: string) => String(req.params[name] ?? ''));

/**
 * The call settings of a POST: the caller's metadata plus its Idempotency-Key and the request's
 * fingerprint (a malformed key is 400 IDEMPOTENCY_KEY_INVALID before any service is called), and
 * the hook that answers `Idempotent-Replayed: true` when the service replayed a stored response.
 */
export function idempotentCallSettings(
  req: Request,
  res: Response,
  routePath: string,
  metadata: Metadata,
): CallSettings {
  const key = req.get(IDEMPOTENCY_KEY_HEADER);
  if (key === undefined) return { metadata };
  const problem = keyProblem(key);
  if (problem) {
    throw new HttpError(
      400,
      'IDEMPOTENCY_KEY_INVALID',
      `the ${IDEMPOTENCY_KEY_HEADER} header ${problem}: send 1 to 255 visible ASCII characters, e.g. a UUID`,
    );
  }
  const call = idempotentCall(metadata, key, requestFingerprint(req.method, concretePathOf(routePath, req), req.body));
  return {
    ...call.settings,
    onResponseMetadata: (received) => {
      call.settings.onResponseMetadata?.(received);
      if (call.replayed()) res.setHeader(IDEMPOTENT_REPLAYED_HEADER, 'true');
    },
  };
}
