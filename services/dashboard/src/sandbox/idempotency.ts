import { createHash, randomUUID } from 'node:crypto';
import type { CallSettings } from '@corridor/grpc';
import type { Response } from 'express';
import { memberCall } from '../members/member-access.js';

/**
 * Each simulation form carries a key made when it was rendered, sent as the gateway sends a
 * platform's Idempotency-Key (idempotency-key and idempotency-fingerprint metadata, which
 * @corridor/idempotency reads): a double click or a resubmitted page runs the simulation once,
 * and the service answers the first result again.
 */

export const IDEMPOTENCY_FIELD = 'idempotency_key';
/** The gateway's rule: 1 to 255 visible ASCII characters. */
const KEY = /^[\x21-\x7e]{1,255}$/;

export const newIdempotencyKey = (): string => randomUUID();
export const isIdempotencyKey = (key: string): boolean => KEY.test(key);

/** JSON with object keys sorted and bigints as strings: one text for one request. */
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

/** What makes two submissions "the same" for one key: the form's path and the request it makes. */
export const requestFingerprint = (path: string, request: unknown): string =>
  createHash('sha256')
    .update(`POST\n${path}\n${canonicalJson(request)}`)
    .digest('hex');

/**
 * memberCall(res) plus the form's key and the request's fingerprint; `replayed` is set when the
 * service answered a stored result instead of simulating again.
 */
export function idempotentMemberCall(
  res: Response,
  key: string,
  path: string,
  request: unknown,
): { settings: CallSettings; replayed: () => boolean } {
  const { metadata, ...rest } = memberCall(res);
  if (!metadata) throw new Error('memberCall gave no metadata');
  metadata.set('idempotency-key', key);
  metadata.set('idempotency-fingerprint', requestFingerprint(path, request));
  let replayed = false;
  return {
    settings: {
      ...rest,
      metadata,
      onResponseMetadata: (received) => {
        if (received.get('idempotent-replayed')[0] === 'true') replayed = true;
      },
    },
    replayed: () => replayed,
  };
}
