import { parsed, problem, type Parsed, quoted } from './validation.js';
import { describeJson } from '@corridor/validation';

export const KYB_SCOPES = ['FULL', 'MINIMAL'] as const;
export type KybScope = (typeof KYB_SCOPES)[number];

/** seed 2.1: a business with no scope set (created before scopes existed) is treated as MINIMAL. */
export function effectiveKybScope(stored: KybScope | null | undefined): KybScope {
  return stored ?? 'MINIMAL';
}

/**
 * The scope a new business customer gets (seed part 5, last paragraph): a platform allow-listed
 * for MINIMAL (`kyb_minimal_allowed`) defaults to MINIMAL and may send FULL; any other platform
 * defaults to FULL, and its MINIMAL request is a 422. `requested` is the body's `kyb_scope` as sent.
 */
export function resolveKybScope(requested: unknown, kybMinimalAllowed: boolean): Parsed<KybScope> {
  if (requested === undefined || requested === null) return parsed(kybMinimalAllowed ? 'MINIMAL' : 'FULL');
  if (requested !== 'FULL' && requested !== 'MINIMAL') {
    const got = typeof requested === 'string' ? quoted(requested) : describeJson(requested);
    return problem(`must be FULL or MINIMAL; got ${got}`);
  }
  if (requested === 'MINIMAL' && !kybMinimalAllowed) {
    return problem(
      'MINIMAL is not available to this platform (it is not allow-listed for MINIMAL KYB); send FULL or omit kyb_scope',
    );
  }
  return parsed(requested);
}
