import { recordEvent } from '@corridor/bus';
import { environmentFromName, newEvent } from '@corridor/contracts/events';
import {
  KycRejectionType,
  KycResult,
  KycSessionStatus,
  type KycSession,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import type { AdminRecordKycResultRequest } from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import { dateOf, sql } from '@corridor/db';
import { alreadyExists, invalidArgument, notFound, type CallerContext } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import type { CustomerContext } from '../context.js';
import { sandboxPlatform } from '../sandbox-caller.js';
import { isOpen, sessionMessage, type Row } from './kyc-session-record.js';

/**
 * How a session ends (seed 3.4, decision 0016): a verdict completes it, the deadline expires it. Each
 * moves an open session only (the status guard), so a late verdict or a second sweep changes nothing,
 * and each records its event with the change, in one transaction (the outbox).
 */

export interface Verdict {
  result: 'APPROVED' | 'REJECTED';
  rejectionReason?: string;
  rejectionType?: 'FINAL' | 'RETRYABLE';
}

const REJECTION_REASON_MAX = 500;

/** Seed 3.4: the same customer_reference is serialised between a new session and a verdict on another. */
export async function lockReference(tx: EntityManager, businessId: string, reference: string): Promise<void> {
  await sql(tx, `select pg_advisory_xact_lock(hashtextextended(? || '/' || ?, 0))`, [businessId, reference]);
}

function recordSessionEvent(
  tx: EntityManager,
  context: CustomerContext,
  session: KycSession,
  occurredAt: Date,
  payload: 'kycSessionCompleted' | 'kycSessionExpired',
): void {
  recordEvent(tx, {
    topic: context.topic,
    key: session.id,
    event: newEvent({
      businessId: session.businessId,
      environment: environmentFromName(context.environment),
      occurredAt,
      payload:
        payload === 'kycSessionCompleted'
          ? { case: 'kycSessionCompleted', value: { session } }
          : { case: 'kycSessionExpired', value: { session } },
    }),
  });
}

/** The session locked for a change, or undefined when it is no longer open. */
async function lockOpen(tx: EntityManager, id: string): Promise<Row | undefined> {
  const [row] = await sql(tx, `select * from kyc_session where id = ? for update`, [id]);
  return row && isOpen(row) ? row : undefined;
}

/** An open session past its deadline becomes EXPIRED, with merchant.kyc.session.expired's event. */
export async function expireSession(tx: EntityManager, context: CustomerContext, id: string): Promise<boolean> {
  const row = await lockOpen(tx, id);
  if (!row) return false;
  const now = await context.clock.now(tx, String(row.business_id));
  if (dateOf(row.expires_at) > now) return false;
  const [expired] = await sql(
    tx,
    `update kyc_session set status = 'expired', expired_at = ?, updated_at = ? where id = ? returning *`,
    [now, now, id],
  );
  recordSessionEvent(tx, context, await sessionMessage(tx, expired as Row), now, 'kycSessionExpired');
  return true;
}

/** An open session gets its verdict: COMPLETED, with merchant.kyc.session.completed's event. */
async function completeSession(tx: EntityManager, context: CustomerContext, row: Row, verdict: Verdict) {
  const now = await context.clock.now(tx, String(row.business_id));
  const [completed] = await sql(
    tx,
    `update kyc_session set status = 'completed', result = ?, rejection_reason = ?, rejection_type = ?,
       completed_at = ?, updated_at = ? where id = ? returning *`,
    [verdict.result, verdict.rejectionReason ?? null, verdict.rejectionType ?? null, now, now, row.id],
  );
  const session = await sessionMessage(tx, completed as Row);
  recordSessionEvent(tx, context, session, now, 'kycSessionCompleted');
  return session;
}

const RESULTS: Partial<Record<KycResult, Verdict['result']>> = {
  [KycResult.APPROVED]: 'APPROVED',
  [KycResult.REJECTED]: 'REJECTED',
};
const REJECTION_TYPES: Partial<Record<KycRejectionType, Verdict['rejectionType']>> = {
  [KycRejectionType.FINAL]: 'FINAL',
  [KycRejectionType.RETRYABLE]: 'RETRYABLE',
};

/** What AdminRecordKycResult and SandboxRecordKycResult both carry. */
type VerdictRequest = Pick<AdminRecordKycResultRequest, 'sessionId' | 'result' | 'rejectionReason' | 'rejectionType'>;

/** The verdict of an admin or sandbox request; 422 naming each field that does not fit the result. */
function verdictOf(request: VerdictRequest): Verdict {
  const errors: Record<string, string[]> = {};
  const result = RESULTS[request.result];
  if (!result) errors.result = ['is required: APPROVED or REJECTED'];
  const reason = request.rejectionReason?.trim();
  const rejectionType = request.rejectionType === undefined ? undefined : REJECTION_TYPES[request.rejectionType];
  if (result === 'REJECTED') {
    if (!reason) errors.rejection_reason = ['is required when the result is REJECTED: text showable to the person'];
    else if (reason.length > REJECTION_REASON_MAX) {
      errors.rejection_reason = [`must be at most ${REJECTION_REASON_MAX} characters`];
    }
    if (!rejectionType) errors.rejection_type = ['is required when the result is REJECTED: FINAL or RETRYABLE'];
  }
  if (result === 'APPROVED') {
    if (request.rejectionReason !== undefined) errors.rejection_reason = ['must be absent when the result is APPROVED'];
    if (request.rejectionType !== undefined) errors.rejection_type = ['must be absent when the result is APPROVED'];
  }
  if (!result || Object.keys(errors).length > 0) {
    throw invalidArgument(`the verdict is not valid: ${Object.keys(errors).join(', ')}`, errors);
  }
  return result === 'APPROVED' ? { result } : { result, rejectionReason: reason, rejectionType };
}

/**
 * POST /admin/kyc-sessions/{id}/result: the identity provider's verdict on an open session. A session
 * already final is 409 and sends nothing (seed 3.4: a late verdict emits no webhook); one past its
 * deadline expires now instead, and answers the same 409. With `businessId` (the sandbox's verdict, given
 * by the platform itself) a session of another business is not found, as every platform call answers.
 */
export async function recordKycResult(
  em: EntityManager,
  context: CustomerContext,
  request: VerdictRequest,
  businessId?: string,
): Promise<KycSession> {
  const verdict = verdictOf(request);
  const missing = () => notFound('KYC_SESSION_NOT_FOUND', `no KYC session ${request.sessionId}`);
  if (!isUuid(request.sessionId)) throw missing();
  const [found] = await sql(em, `select business_id, customer_reference from kyc_session where id = ?`, [
    request.sessionId,
  ]);
  if (!found || (businessId !== undefined && String(found.business_id) !== businessId)) throw missing();
  const outcome = await em.transactional(async (tx) => {
    await lockReference(tx, String(found.business_id), String(found.customer_reference));
    if (await expireSession(tx, context, request.sessionId)) return undefined;
    const row = await lockOpen(tx, request.sessionId);
    return row ? completeSession(tx, context, row, verdict) : undefined;
  });
  if (outcome) return outcome;
  const [final] = await sql(em, `select * from kyc_session where id = ?`, [request.sessionId]);
  const session = await sessionMessage(em, final as Row);
  throw alreadyExists(
    'KYC_SESSION_FINAL',
    `KYC session ${session.id} is already ${KycSessionStatus[session.status]}${final?.result ? ` (${String(final.result)})` : ''}: a verdict after a session is final changes nothing and sends no webhook`,
  );
}

/**
 * SandboxRecordKycResult: the platform gives one of its own sessions the identity provider's verdict,
 * in the sandbox only (SANDBOX_ONLY otherwise), with the admin verdict's rules and event.
 */
export async function sandboxRecordKycResult(
  em: EntityManager,
  context: CustomerContext,
  caller: CallerContext,
  request: VerdictRequest,
): Promise<KycSession> {
  const { businessId } = sandboxPlatform(caller, context);
  return recordKycResult(em, context, request, businessId);
}

/** The sandbox's verdicts (decision 0016): a customer_reference ending in one of these decides itself. */
const SANDBOX_VERDICTS: readonly [suffix: string, verdict: Verdict][] = [
  ['_approve', { result: 'APPROVED' }],
  [
    '_reject_retryable',
    {
      result: 'REJECTED',
      rejectionType: 'RETRYABLE',
      rejectionReason: 'The photo of your document was blurred. Please take it again in good light.',
    },
  ],
  [
    '_reject_final',
    {
      result: 'REJECTED',
      rejectionType: 'FINAL',
      rejectionReason: 'We could not verify your identity with the documents provided.',
    },
  ],
];

export function sandboxVerdictFor(customerReference: string): Verdict | undefined {
  return SANDBOX_VERDICTS.find(([suffix]) => customerReference.endsWith(suffix))?.[1];
}

/**
 * The sweep, every KYC_SWEEP_INTERVAL_MS: open sessions past their deadline expire, and the sandbox's
 * due verdicts are given. SKIP LOCKED lets replicas sweep side by side; the status guard moves each
 * session once. Runs whether or not anyone reads the sessions.
 */
export async function sweepKycSessions(em: EntityManager, context: CustomerContext, batch = 100): Promise<number> {
  const expired = await em.transactional(async (tx) => {
    const past = context.clock.due('kyc_session', 'expires_at');
    const due = await sql(
      tx,
      `select id from kyc_session where status in ('pending', 'processing') and ${past.sql}
       order by expires_at limit ? for update skip locked`,
      [...past.params, batch],
    );
    for (const { id } of due) await expireSession(tx, context, String(id));
    return due.length;
  });
  // A verdict takes the reference's lock before the row's, as an admin verdict does (no deadlock).
  const verdictDue = context.clock.due('kyc_session', 'sandbox_verdict_at');
  const due = await sql(
    em,
    `select id, business_id, customer_reference from kyc_session
     where status in ('pending', 'processing') and ${verdictDue.sql} order by sandbox_verdict_at limit ?`,
    [...verdictDue.params, batch],
  );
  let decided = 0;
  for (const candidate of due) {
    const verdict = sandboxVerdictFor(String(candidate.customer_reference));
    if (!verdict) continue;
    await em.transactional(async (tx) => {
      await lockReference(tx, String(candidate.business_id), String(candidate.customer_reference));
      const row = await lockOpen(tx, String(candidate.id));
      if (!row) return;
      await completeSession(tx, context, row, verdict);
      decided += 1;
    });
  }
  return expired + decided;
}
