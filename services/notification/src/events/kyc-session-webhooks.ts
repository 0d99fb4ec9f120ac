import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  KycRejectionType,
  KycRequirement,
  KycResult,
  KycSessionSchema,
  KycSessionStatus,
  type KycSession,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { iso } from '@corridor/payments-json';

/**
 * Merchant KYC session webhooks (seed 6.2, decision 0016): customer-kyb's kyc_session.completed and
 * kyc_session.expired events, sent to kyc_url only with exactly the seed's `data` fields. The mock
 * trigger's examples are a fixture session rendered here too, so a mock has a real body's shape.
 */

const KYC_SESSION_EVENTS = {
  completed: 'merchant.kyc.session.completed',
  expired: 'merchant.kyc.session.expired',
} as const;

export type KycSessionEventType = (typeof KYC_SESSION_EVENTS)[keyof typeof KYC_SESSION_EVENTS];

export type KycRequirementWord = 'DOCUMENTS' | 'SELFIE' | 'FACE_MATCH';
export type KycResultWord = 'APPROVED' | 'REJECTED';
export type KycRejectionTypeWord = 'FINAL' | 'RETRYABLE';

const REQUIREMENT_WORDS: Partial<Record<KycRequirement, KycRequirementWord>> = {
  [KycRequirement.DOCUMENTS]: 'DOCUMENTS',
  [KycRequirement.SELFIE]: 'SELFIE',
  [KycRequirement.FACE_MATCH]: 'FACE_MATCH',
};
const RESULT_WORDS: Partial<Record<KycResult, KycResultWord>> = {
  [KycResult.APPROVED]: 'APPROVED',
  [KycResult.REJECTED]: 'REJECTED',
};
const REJECTION_TYPE_WORDS: Partial<Record<KycRejectionType, KycRejectionTypeWord>> = {
  [KycRejectionType.FINAL]: 'FINAL',
  [KycRejectionType.RETRYABLE]: 'RETRYABLE',
};

/** The session an event carries, refused when missing or another business's (it would reach the wrong platform). */
export function sessionOfEvent(session: KycSession | undefined, eventBusinessId: string): KycSession {
  if (!session) throw new RangeError('the KYC session event carries no session');
  if (session.businessId !== eventBusinessId) {
    throw new RangeError(`KYC session ${session.id} is business ${session.businessId}'s, not ${eventBusinessId}'s`);
  }
  return session;
}

function expectStatus(session: KycSession, status: KycSessionStatus): void {
  // The webhook and GET /kyc-session/{id} must not disagree about where the session is.
  if (session.status !== status) {
    throw new RangeError(
      `KYC session ${session.id} is ${KycSessionStatus[session.status]}, not ${KycSessionStatus[status]}`,
    );
  }
}

function requirementWords(session: KycSession): KycRequirementWord[] {
  return session.requirements.map((requirement) => {
    const word = REQUIREMENT_WORDS[requirement];
    if (!word) throw new RangeError(`KYC session ${session.id} has requirement ${requirement}, which has no name`);
    return word;
  });
}

interface Verdict {
  result: KycResultWord;
  rejection_reason: string | null;
  rejection_type: KycRejectionTypeWord | null;
}

/** Seed 6.2: rejection_reason and rejection_type are set only when rejected, and then both are. */
function verdictOf(session: KycSession): Verdict {
  const result = session.result === undefined ? undefined : RESULT_WORDS[session.result];
  if (!result) throw new RangeError(`completed KYC session ${session.id} has no result`);
  if (result === 'APPROVED') {
    if (session.rejectionReason !== undefined || session.rejectionType !== undefined) {
      throw new RangeError(`approved KYC session ${session.id} carries a rejection`);
    }
    return { result, rejection_reason: null, rejection_type: null };
  }
  const type = session.rejectionType === undefined ? undefined : REJECTION_TYPE_WORDS[session.rejectionType];
  if (!session.rejectionReason || !type) {
    throw new RangeError(`rejected KYC session ${session.id} lacks its rejection_reason or rejection_type`);
  }
  return { result, rejection_reason: session.rejectionReason, rejection_type: type };
}

/** Seed 6.2's completed `data`, in the seed's order; throws (RangeError) when the session cannot be shown so. */
function completedData(session: KycSession) {
  expectStatus(session, KycSessionStatus.COMPLETED);
  const verdict = verdictOf(session);
  return {
    session_id: session.id,
    business_id: session.businessId,
    customer_reference: session.customerReference,
    requirements: requirementWords(session),
    result: verdict.result,
    rejection_reason: verdict.rejection_reason,
    rejection_type: verdict.rejection_type,
    completed_at: iso(session.completedAt, `KYC session ${session.id} completed_at`),
  };
}

/** Seed 6.2's expired `data`, in the seed's order. */
function expiredData(session: KycSession) {
  expectStatus(session, KycSessionStatus.EXPIRED);
  return {
    session_id: session.id,
    business_id: session.businessId,
    customer_reference: session.customerReference,
    expired_at: iso(session.expiredAt, `KYC session ${session.id} expired_at`),
  };
}

export type KycSessionCompletedData = ReturnType<typeof completedData>;
export type KycSessionExpiredData = ReturnType<typeof expiredData>;

export function renderKycSessionCompleted(session: KycSession): {
  eventType: typeof KYC_SESSION_EVENTS.completed;
  data: KycSessionCompletedData;
} {
  return { eventType: KYC_SESSION_EVENTS.completed, data: completedData(session) };
}

export function renderKycSessionExpired(session: KycSession): {
  eventType: typeof KYC_SESSION_EVENTS.expired;
  data: KycSessionExpiredData;
} {
  return { eventType: KYC_SESSION_EVENTS.expired, data: expiredData(session) };
}

export type KycSessionExample = 'approved' | 'rejected' | 'expired';

const EXAMPLE_BUSINESS = '00000000-0000-4000-8000-000000000000';
const exampleAt = (day: number, hour: number, minute: number) =>
  timestampFromDate(new Date(Date.UTC(2026, 10, day, hour, minute)));

/**
 * The mock trigger's session: a platform's merchant asked for a document, a selfie and a face match.
 * It ends approved or rejected (FINAL) at 09:30 on the 21st, or expires then, 24 h after creation.
 */
export function exampleKycSession(outcome: KycSessionExample): KycSession {
  const expired = outcome === 'expired';
  const createdAt = expired ? exampleAt(20, 9, 30) : exampleAt(21, 9, 0);
  const endedAt = exampleAt(21, 9, 30);
  const rejected = outcome === 'rejected';
  return create(KycSessionSchema, {
    id: '6c1d9e42-8b3a-4f75-a0e6-3d2b7c9f1e58',
    businessId: EXAMPLE_BUSINESS,
    customerReference: 'merchant-1042',
    requirements: [KycRequirement.DOCUMENTS, KycRequirement.SELFIE, KycRequirement.FACE_MATCH],
    redirectUrl: 'https://platform.example/kyc/done',
    status: expired ? KycSessionStatus.EXPIRED : KycSessionStatus.COMPLETED,
    result: expired ? undefined : rejected ? KycResult.REJECTED : KycResult.APPROVED,
    rejectionReason: rejected ? 'We could not verify your identity with the documents provided.' : undefined,
    rejectionType: rejected ? KycRejectionType.FINAL : undefined,
    verificationToken: 'Xq3vN8kLp2Rt7wYb5ZcA1dEf6Gh9Jm4Ns0Uv2Wx8Yz1',
    // An expired example's person never came back to the page; a completed one captured both.
    captures: expired
      ? []
      : [
          {
            kind: 'document',
            fileId: '1b7e3c90-4d2a-4f68-9e15-7a0c2d8b6f43',
            contentType: 'image/jpeg',
            sizeBytes: 482_113n,
            capturedAt: exampleAt(21, 9, 8),
          },
          {
            kind: 'selfie',
            fileId: '8f2a6d14-0c5b-4e97-b3a1-5d9e7c2f0b86',
            contentType: 'image/png',
            sizeBytes: 215_640n,
            capturedAt: exampleAt(21, 9, 9),
          },
        ],
    expiresAt: expired ? endedAt : exampleAt(22, 9, 0),
    createdAt,
    updatedAt: endedAt,
    submittedAt: expired ? undefined : exampleAt(21, 9, 10),
    completedAt: expired ? undefined : endedAt,
    expiredAt: expired ? endedAt : undefined,
  });
}

/** The example `data` of merchant.kyc.session.completed (approved), from the same renderer as a real session's. */
export const kycSessionCompletedExample = (): KycSessionCompletedData =>
  renderKycSessionCompleted(exampleKycSession('approved')).data;

/** The example `data` of merchant.kyc.session.expired, from the same renderer as a real session's. */
export const kycSessionExpiredExample = (): KycSessionExpiredData =>
  renderKycSessionExpired(exampleKycSession('expired')).data;
