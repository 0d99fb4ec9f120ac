import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  KycCaptureSchema,
  KycRejectionType,
  KycRequirement,
  KycResult,
  KycSessionSchema,
  KycSessionStatus,
  type KycCapture,
  type KycSession,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { dateOf, sql } from '@corridor/db';
import type { EntityManager } from '@mikro-orm/core';

/** A kyc_session or kyc_capture row as the driver returns it. */
export type Row = Record<string, unknown>;

export type SessionStatusName = 'pending' | 'processing' | 'completed' | 'expired' | 'cancelled';
export const OPEN_STATUSES: readonly SessionStatusName[] = ['pending', 'processing'];
export const isOpen = (row: Row) => OPEN_STATUSES.includes(row.status as SessionStatusName);

export type RequirementName = 'DOCUMENTS' | 'SELFIE' | 'FACE_MATCH';
export type CaptureKind = 'document' | 'selfie';

const REQUIREMENTS: Record<RequirementName, KycRequirement> = {
  DOCUMENTS: KycRequirement.DOCUMENTS,
  SELFIE: KycRequirement.SELFIE,
  FACE_MATCH: KycRequirement.FACE_MATCH,
};
export const requirementName = (requirement: KycRequirement): RequirementName | undefined =>
  (Object.keys(REQUIREMENTS) as RequirementName[]).find((name) => REQUIREMENTS[name] === requirement);

/** What the person must capture for a requirement: a face match compares the selfie with the document. */
export const KINDS_FOR: Record<RequirementName, readonly CaptureKind[]> = {
  DOCUMENTS: ['document'],
  SELFIE: ['selfie'],
  FACE_MATCH: ['document', 'selfie'],
};

export const kindsRequired = (requirements: readonly string[]): Set<CaptureKind> =>
  new Set(requirements.flatMap((name) => KINDS_FOR[name as RequirementName]));

export const STATUS: Record<SessionStatusName, KycSessionStatus> = {
  pending: KycSessionStatus.PENDING,
  processing: KycSessionStatus.PROCESSING,
  completed: KycSessionStatus.COMPLETED,
  expired: KycSessionStatus.EXPIRED,
  cancelled: KycSessionStatus.CANCELLED,
};
export const statusName = (status: KycSessionStatus): SessionStatusName | undefined =>
  (Object.keys(STATUS) as SessionStatusName[]).find((name) => STATUS[name] === status);

const at = (value: unknown) => (value === null || value === undefined ? undefined : timestampFromDate(dateOf(value)));
const text = (value: unknown) => (value === null || value === undefined ? undefined : String(value));

export function captureOf(row: Row): KycCapture {
  return create(KycCaptureSchema, {
    kind: String(row.kind),
    fileId: String(row.id),
    contentType: String(row.content_type),
    sizeBytes: BigInt(String(row.size_bytes)),
    capturedAt: at(row.captured_at),
  });
}

export function kycSessionOf(row: Row, captures: readonly Row[]): KycSession {
  return create(KycSessionSchema, {
    id: String(row.id),
    businessId: String(row.business_id),
    customerReference: String(row.customer_reference),
    requirements: (row.requirements as RequirementName[]).map((name) => REQUIREMENTS[name]),
    customerId: text(row.customer_id),
    redirectUrl: text(row.redirect_url),
    status: STATUS[row.status as SessionStatusName],
    result: row.result === null ? undefined : row.result === 'APPROVED' ? KycResult.APPROVED : KycResult.REJECTED,
    rejectionReason: text(row.rejection_reason),
    rejectionType:
      row.rejection_type === null
        ? undefined
        : row.rejection_type === 'FINAL'
          ? KycRejectionType.FINAL
          : KycRejectionType.RETRYABLE,
    verificationToken: String(row.verification_token),
    captures: captures.filter((capture) => capture.captured_at !== null).map(captureOf),
    expiresAt: at(row.expires_at),
    createdAt: at(row.created_at),
    updatedAt: at(row.updated_at),
    submittedAt: at(row.submitted_at),
    completedAt: at(row.completed_at),
    expiredAt: at(row.expired_at),
    cancelledAt: at(row.cancelled_at),
  });
}

/** A PostgreSQL array literal of plain words or uuids (no quoting needed), bound as one text parameter. */
export function arrayLiteral(values: readonly string[]): string {
  if (values.some((value) => !/^[A-Za-z0-9_-]+$/.test(value))) throw new RangeError('not a plain word or uuid');
  return `{${values.join(',')}}`;
}

/** The captures of sessions, by session id, oldest first. */
export async function capturesOf(em: EntityManager, sessionIds: readonly string[]): Promise<Map<string, Row[]>> {
  const bySession = new Map<string, Row[]>(sessionIds.map((id) => [id, []]));
  if (sessionIds.length === 0) return bySession;
  const rows = await sql(em, `select * from kyc_capture where session_id = any(?::uuid[]) order by created_at, id`, [
    arrayLiteral(sessionIds),
  ]);
  for (const row of rows) bySession.get(String(row.session_id))?.push(row);
  return bySession;
}

/** The session of a row, with its captures. */
export async function sessionMessage(em: EntityManager, row: Row): Promise<KycSession> {
  const captures = await capturesOf(em, [String(row.id)]);
  return kycSessionOf(row, captures.get(String(row.id)) ?? []);
}
