import {
  KycRequirement,
  KycSessionStatus,
  type KycSessionView,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { returnUrlWith } from '../http/return-url.js';
import { isoOrNull } from '../floor/times.js';

/**
 * What the verification page and its JSON endpoints say about a session (decision 0016), from
 * customer-kyb's KycSessionView: the public words, the kinds of file it needs and the way back.
 */

export type CaptureKind = 'document' | 'selfie';
export type SessionStatusWord = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'EXPIRED' | 'CANCELLED';

/** Capture kinds in the order the page asks for them. */
export const CAPTURE_KINDS: readonly CaptureKind[] = ['document', 'selfie'];

const STATUS_WORDS: ReadonlyMap<KycSessionStatus, SessionStatusWord> = new Map([
  [KycSessionStatus.PENDING, 'PENDING'],
  [KycSessionStatus.PROCESSING, 'PROCESSING'],
  [KycSessionStatus.COMPLETED, 'COMPLETED'],
  [KycSessionStatus.EXPIRED, 'EXPIRED'],
  [KycSessionStatus.CANCELLED, 'CANCELLED'],
]);

const REQUIREMENT_WORDS: ReadonlyMap<KycRequirement, string> = new Map([
  [KycRequirement.DOCUMENTS, 'DOCUMENTS'],
  [KycRequirement.SELFIE, 'SELFIE'],
  [KycRequirement.FACE_MATCH, 'FACE_MATCH'],
]);

/** A face match compares the selfie with the document's photo, so it needs both. */
const KINDS_FOR: ReadonlyMap<KycRequirement, readonly CaptureKind[]> = new Map([
  [KycRequirement.DOCUMENTS, ['document']],
  [KycRequirement.SELFIE, ['selfie']],
  [KycRequirement.FACE_MATCH, ['document', 'selfie']],
]);

export function statusWordOf(view: KycSessionView): SessionStatusWord {
  const word = STATUS_WORDS.get(view.status);
  if (!word) throw new Error(`customer-kyb answered a session in status ${view.status}`);
  return word;
}

/** The kinds of file the session asks for, document first. */
export function kindsNeeded(view: KycSessionView): CaptureKind[] {
  const needed = new Set(view.requirements.flatMap((requirement) => KINDS_FOR.get(requirement) ?? []));
  return CAPTURE_KINDS.filter((kind) => needed.has(kind));
}

/** The kinds the person has already given, document first. */
export function kindsCaptured(view: KycSessionView): CaptureKind[] {
  const captured = new Set(view.captures.map((capture) => capture.kind));
  return CAPTURE_KINDS.filter((kind) => captured.has(kind));
}

/**
 * Where the person goes once done: the business's https redirect_url with session_id and status
 * appended to the query it already has, as the payer's page does.
 */
export const returnUrlOf = (view: KycSessionView): string | undefined =>
  returnUrlWith(view.redirectUrl, { session_id: view.sessionId, status: statusWordOf(view) });

/**
 * The session as the page's script reads it: what is needed, what is given, where it stands and
 * where to go back. No business id and no token: the person already holds the link.
 */
export function verificationJson(view: KycSessionView) {
  return {
    session_id: view.sessionId,
    business_name: view.businessName,
    requirements: view.requirements.flatMap((requirement) => REQUIREMENT_WORDS.get(requirement) ?? []),
    needs: kindsNeeded(view),
    status: statusWordOf(view),
    captures: view.captures.map((capture) => ({
      kind: capture.kind,
      content_type: capture.contentType,
      size_bytes: Number(capture.sizeBytes),
      captured_at: isoOrNull(capture.capturedAt),
    })),
    expires_at: isoOrNull(view.expiresAt),
    return_url: returnUrlOf(view) ?? null,
  };
}
