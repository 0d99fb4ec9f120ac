import { z } from '@corridor/config';
import {
  KycSessionStatus,
  type KycCapture as KycCaptureMessage,
  type KycSession as KycSessionMessage,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import type { Request } from 'express';
import { jsonIntegerOf } from '../../floor/int64.js';
import { KycSession } from './responses.js';
import { KYC_REJECTION_TYPES, KYC_REQUIREMENTS, KYC_RESULTS, KYC_SESSION_STATUSES } from './vocabulary.js';
import { iso, isoOrNull } from '../../floor/times.js';

/** The public JSON of customer-kyb's KycSession (decision 0016 "Session JSON"). */

/** A field customer-kyb must always fill; its absence is a defect (500), not the caller's. */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`customer-kyb returned no ${what}`);
  return value;
}

/** A session's verification page for its token: the full URL the person opens. */
export type VerificationUrlOf = (verificationToken: string) => string;

/** The person's page on this gateway, at the scheme and host the caller reached it by (as /pay's links). */
export const verificationUrlsOf =
  (req: Request): VerificationUrlOf =>
  (verificationToken) =>
    `${req.protocol}://${req.get('host') ?? 'localhost'}/verify/${encodeURIComponent(verificationToken)}`;

function captureJson(capture: KycCaptureMessage) {
  return {
    kind: capture.kind,
    content_type: capture.contentType,
    size_bytes: jsonIntegerOf(capture.sizeBytes, 'captures.size_bytes'),
    captured_at: iso(present(capture.capturedAt, 'captures.captured_at')),
  };
}

/**
 * The session as the platform sees it. The token is never a field: only its page's link, and only
 * while the person can still use it (PENDING). Without `verificationUrlOf` (the admin listener,
 * whose host is no person's) verification_url is null.
 */
export function kycSessionJson(session: KycSessionMessage, verificationUrlOf?: VerificationUrlOf) {
  const linked = session.status === KycSessionStatus.PENDING && session.verificationToken !== '';
  return {
    id: session.id,
    customer_reference: session.customerReference,
    customer_id: session.customerId ?? null,
    requirements: session.requirements.map((requirement) => KYC_REQUIREMENTS.toWord(requirement, 'requirements')),
    status: KYC_SESSION_STATUSES.toWord(session.status, 'status'),
    result: session.result === undefined ? null : KYC_RESULTS.toWord(session.result, 'result'),
    rejection_reason: session.rejectionReason ?? null,
    rejection_type:
      session.rejectionType === undefined ? null : KYC_REJECTION_TYPES.toWord(session.rejectionType, 'rejection_type'),
    verification_url: linked && verificationUrlOf ? verificationUrlOf(session.verificationToken) : null,
    redirect_url: session.redirectUrl ?? null,
    captures: session.captures.map(captureJson),
    expires_at: iso(present(session.expiresAt, 'expires_at')),
    created_at: iso(present(session.createdAt, 'created_at')),
    updated_at: iso(present(session.updatedAt, 'updated_at')),
    submitted_at: isoOrNull(session.submittedAt),
    completed_at: isoOrNull(session.completedAt),
    expired_at: isoOrNull(session.expiredAt),
    cancelled_at: isoOrNull(session.cancelledAt),
  };
}

/**
 * The session checked against the documented schema first: a capture kind or a word the contract
 * lacks is a defect of customer-kyb (500), never sent.
 */
export function documentedKycSession(session: KycSessionMessage, verificationUrlOf?: VerificationUrlOf) {
  const rendered = kycSessionJson(session, verificationUrlOf);
  const result = KycSession.safeParse(rendered);
  if (!result.success) {
    throw new Error(`customer-kyb sent a KYC session the contract cannot show: ${z.prettifyError(result.error)}`);
  }
  return rendered;
}

/** A response's session, which customer-kyb must always send. */
export const kycSessionOf = (response: { session?: KycSessionMessage }, verificationUrlOf?: VerificationUrlOf) =>
  documentedKycSession(present(response.session, 'session'), verificationUrlOf);
