import type { KycSession } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import type {
  CreateKycSessionRequest,
  ListKycSessionsRequest,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import { dateOf, sql } from '@corridor/db';
import { failedPrecondition, invalidArgument, notFound } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import { keysetPage, keysetRead } from '@corridor/pagination';
import type { EntityManager } from '@mikro-orm/core';
import { randomBytes, randomUUID } from 'node:crypto';
import type { CustomerContext } from '../context.js';
import {
  arrayLiteral,
  capturesOf,
  isOpen,
  kycSessionOf,
  requirementName,
  sessionMessage,
  statusName,
  type RequirementName,
  type Row,
} from './kyc-session-record.js';
import { expireSession, lockReference, sandboxVerdictFor } from './session-outcomes.js';

/** Merchant KYC sessions as the platform sees them (seed 3.4, decision 0016). */

export interface KycSessionSettings {
  /** How long a session waits for its verdict before it expires (seed 3.4's deadline). */
  ttlMs: number;
  /** Sandbox: how long after creation a session with a magic customer_reference decides itself. */
  sandboxVerdictMs: number;
}

const REFERENCE_MAX = 255;
const URL_MAX = 2048;
// C0 controls and DEL have no place in a reference shown back to a platform (and PostgreSQL refuses NUL).
const hasControl = (text: string) => [...text].some((char) => char.charCodeAt(0) < 0x20 || char === '\u007f');

function validateCreate(request: CreateKycSessionRequest): RequirementName[] {
  const errors: Record<string, string[]> = {};
  const reference = request.customerReference;
  if (reference.trim() === '') errors.customer_reference = ['is required: your reference for the person'];
  else if (reference.length > REFERENCE_MAX)
    errors.customer_reference = [`must be at most ${REFERENCE_MAX} characters`];
  else if (hasControl(reference)) errors.customer_reference = ['must not contain control characters'];
  const names = request.requirements.map(requirementName);
  if (names.length === 0) errors.requirements = ['must name at least one of DOCUMENTS, SELFIE, FACE_MATCH'];
  else if (names.some((name) => name === undefined)) errors.requirements = ['must be DOCUMENTS, SELFIE or FACE_MATCH'];
  else if (new Set(names).size !== names.length) errors.requirements = ['must not repeat a requirement'];
  if (request.customerId !== undefined && !isUuid(request.customerId)) {
    errors.customer_id = ['must be the id (a uuid) of one of your customers'];
  }
  if (request.redirectUrl !== undefined) {
    const problem = redirectProblem(request.redirectUrl);
    if (problem) errors.redirect_url = [problem];
  }
  if (Object.keys(errors).length > 0) {
    throw invalidArgument(`the KYC session is not valid: ${Object.keys(errors).join(', ')}`, errors);
  }
  return names as RequirementName[];
}

/** Seed 8's rule for redirect_url: HTTPS only, at most 2048 characters. */
function redirectProblem(url: string): string | undefined {
  if (url.length > URL_MAX) return `must be at most ${URL_MAX} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute https:// URL';
  }
  return parsed.protocol === 'https:' && parsed.hostname !== '' ? undefined : 'must be an https:// URL';
}

/**
 * POST /kyc-session: a PENDING session with its verification page. A customer_reference whose last
 * verdict was a FINAL rejection cannot start another (422); a RETRYABLE one can (seed 3.4).
 */
export async function createKycSession(
  em: EntityManager,
  context: CustomerContext,
  settings: KycSessionSettings,
  businessId: string,
  request: CreateKycSessionRequest,
): Promise<KycSession> {
  const requirements = validateCreate(request);
  return em.transactional(async (tx) => {
    if (request.customerId !== undefined) {
      const [customer] = await sql(tx, `select id from customer where id = ? and business_id = ?`, [
        request.customerId,
        businessId,
      ]);
      if (!customer) {
        throw invalidArgument(`customer_id ${request.customerId} is not one of your customers`, {
          customer_id: ['is not one of your customers'],
        });
      }
    }
    await lockReference(tx, businessId, request.customerReference);
    const [rejected] = await sql(
      tx,
      `select id from kyc_session where business_id = ? and customer_reference = ? and rejection_type = 'FINAL' limit 1`,
      [businessId, request.customerReference],
    );
    if (rejected) {
      throw invalidArgument(
        `customer_reference ${JSON.stringify(request.customerReference)} was rejected with FINAL in KYC session ${String(rejected.id)}: it cannot start another session`,
        { customer_reference: [`was rejected with FINAL in KYC session ${String(rejected.id)}`] },
        'KYC_REFERENCE_REJECTED',
      );
    }
    const now = await context.clock.now(tx, businessId);
    const sandboxVerdict =
      context.environment === 'sandbox' && sandboxVerdictFor(request.customerReference)
        ? new Date(now.getTime() + settings.sandboxVerdictMs)
        : null;
    const [row] = await sql(
      tx,
      `insert into kyc_session (id, business_id, customer_reference, requirements, customer_id, redirect_url,
         status, verification_token, expires_at, sandbox_verdict_at, created_at, updated_at)
       values (?, ?, ?, ?::text[], ?, ?, 'pending', ?, ?, ?, ?, ?) returning *`,
      [
        randomUUID(),
        businessId,
        request.customerReference,
        arrayLiteral(requirements),
        request.customerId ?? null,
        request.redirectUrl ?? null,
        // The person's credential for the page: 256 random bits, shown only in verification_url.
        randomBytes(32).toString('base64url'),
        new Date(now.getTime() + settings.ttlMs),
        sandboxVerdict,
        now,
        now,
      ],
    );
    return kycSessionOf(row as Row, []);
  });
}

const sessionNotFound = (id: string) => notFound('KYC_SESSION_NOT_FOUND', `no KYC session ${id} for this business`);

/** The session of this business; another business's is indistinguishable from none. */
async function sessionRow(em: EntityManager, businessId: string, id: string, lock = false): Promise<Row> {
  const [row] = isUuid(id)
    ? await sql(em, `select * from kyc_session where id = ? and business_id = ?${lock ? ' for update' : ''}`, [
        id,
        businessId,
      ])
    : [];
  if (!row) throw sessionNotFound(id);
  return row;
}

/** GET /kyc-session/{id}. A session past its deadline reads as EXPIRED even before the sweep comes. */
export async function getKycSession(
  em: EntityManager,
  context: CustomerContext,
  businessId: string,
  id: string,
): Promise<KycSession> {
  const row = await sessionRow(em, businessId, id);
  if (isOpen(row) && dateOf(row.expires_at) <= (await context.clock.now(em, businessId))) {
    await em.transactional((tx) => expireSession(tx, context, id));
    return sessionMessage(em, await sessionRow(em, businessId, id));
  }
  return sessionMessage(em, row);
}

/** GET /kyc-session: newest first, keyset pages; each filter is served by its own index. */
export async function listKycSessions(em: EntityManager, businessId: string, request: ListKycSessionsRequest) {
  const read = keysetRead(request.page);
  const where = ['business_id = ?'];
  const params: unknown[] = [businessId];
  if (request.customerReference !== undefined) {
    where.push('customer_reference = ?');
    params.push(request.customerReference);
  }
  if (request.status !== undefined) {
    where.push('status = ?');
    params.push(statusName(request.status) ?? '');
  }
  if (request.customerId !== undefined) {
    // Not a uuid names no customer: an empty page, not an error of the database.
    where.push(isUuid(request.customerId) ? 'customer_id = ?' : 'false');
    if (isUuid(request.customerId)) params.push(request.customerId);
  }
  if (read.seek) {
    where.push(read.seek);
    params.push(...read.seekParams);
  }
  const rows = await sql(em, `select * from kyc_session where ${where.join(' and ')} order by ${read.order} limit ?`, [
    ...params,
    read.limit + 1,
  ]);
  const page = keysetPage(rows, read, (row) => ({ createdAt: dateOf(row.created_at), id: String(row.id) }));
  const captures = await capturesOf(
    em,
    page.rows.map((row) => String(row.id)),
  );
  return { ...page, sessions: page.rows.map((row) => kycSessionOf(row, captures.get(String(row.id)) ?? [])) };
}

/**
 * POST /kyc-session/{id}/cancel: an open session becomes CANCELLED, and no webhook is sent (seed
 * 3.4). Cancelling a cancelled session answers it again; a completed or expired one is 400.
 */
export async function cancelKycSession(
  em: EntityManager,
  context: CustomerContext,
  businessId: string,
  id: string,
): Promise<KycSession> {
  return em.transactional(async (tx) => {
    let row = await sessionRow(tx, businessId, id, true);
    // Past its deadline it has expired, whether or not the sweep came yet: that is the answer.
    const now = await context.clock.now(tx, businessId);
    if (isOpen(row) && dateOf(row.expires_at) <= now) {
      await expireSession(tx, context, id);
      row = await sessionRow(tx, businessId, id);
    }
    if (row.status === 'cancelled') return sessionMessage(tx, row);
    if (!isOpen(row)) {
      throw failedPrecondition(
        'KYC_SESSION_NOT_OPEN',
        `KYC session ${id} is already ${String(row.status).toUpperCase()}: only a PENDING or PROCESSING session can be cancelled`,
      );
    }
    const [cancelled] = await sql(
      tx,
      `update kyc_session set status = 'cancelled', cancelled_at = ?, updated_at = ? where id = ? returning *`,
      [now, now, id],
    );
    return sessionMessage(tx, cancelled as Row);
  });
}
