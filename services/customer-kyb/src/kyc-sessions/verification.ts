import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { FileUploadSchema, type FileUpload } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { KycSessionViewSchema, type KycSessionView } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import type {
  AddVerificationCaptureRequest,
  CreateVerificationUploadRequest,
} from '@corridor/contracts/corridor/customer/v1/kyc_session_service_pb';
import { sql } from '@corridor/db';
import { failedPrecondition, invalidArgument, notFound } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { CustomerContext } from '../context.js';
import { ACCEPTED_CONTENT_TYPES } from '../files/file-uploads.js';
import {
  capturesOf,
  captureOf,
  kindsRequired,
  kycSessionOf,
  type CaptureKind,
  type Row,
} from './kyc-session-record.js';
import { expireSession } from './session-outcomes.js';

/**
 * The person's side of a session, on its verification page (decision 0016): what they are asked for,
 * the files they give (presigned PUTs into the files bucket, as every upload here), and their submit.
 * The token in the page's URL is their only credential; they never see the business id.
 */

/** A person can give at most this many files to one session: enough for retakes, not a file store. */
export const MAX_CAPTURES = 10;

const KINDS: readonly CaptureKind[] = ['document', 'selfie'];

const notFoundByToken = () => notFound('VERIFICATION_NOT_FOUND', 'no verification has this link');

/** The session of a page token, past its deadline expired first; 404 for an unknown token. */
async function sessionByToken(tx: EntityManager, context: CustomerContext, token: string): Promise<Row> {
  const read = () =>
    token.length > 0 && token.length <= 64
      ? sql(tx, `select * from kyc_session where verification_token = ? for update`, [token])
      : Promise.resolve([]);
  let [row] = await read();
  if (!row) throw notFoundByToken();
  if (await expireSession(tx, context, String(row.id))) [row] = await read();
  return row as Row;
}

/** Only a PENDING session takes files and a submit: 400 naming where it is. */
function requirePending(row: Row): void {
  if (row.status !== 'pending') {
    const state = row.status === 'processing' ? 'already submitted' : `${String(row.status)}`;
    throw failedPrecondition('VERIFICATION_NOT_PENDING', `this verification is ${state}: nothing more can be given`);
  }
}

async function viewOf(tx: EntityManager, context: CustomerContext, row: Row): Promise<KycSessionView> {
  const session = kycSessionOf(row, (await capturesOf(tx, [String(row.id)])).get(String(row.id)) ?? []);
  const business = await context.identity.getBusiness({ id: session.businessId }).catch(() => undefined);
  return create(KycSessionViewSchema, {
    sessionId: session.id,
    businessName: business?.business?.name ?? '',
    requirements: session.requirements,
    status: session.status,
    captures: session.captures,
    expiresAt: session.expiresAt,
    redirectUrl: session.redirectUrl,
  });
}

export async function getVerificationPage(
  em: EntityManager,
  context: CustomerContext,
  token: string,
): Promise<KycSessionView> {
  return em.transactional(async (tx) => viewOf(tx, context, await sessionByToken(tx, context, token)));
}

/** A presigned PUT for a document or a selfie the session asks for; the type and size are signed. */
export async function createVerificationUpload(
  em: EntityManager,
  context: CustomerContext,
  request: CreateVerificationUploadRequest,
): Promise<FileUpload> {
  const errors: Record<string, string[]> = {};
  if (!KINDS.includes(request.kind as CaptureKind)) errors.kind = ['must be document or selfie'];
  if (!(ACCEPTED_CONTENT_TYPES as readonly string[]).includes(request.contentType)) {
    errors.content_type = [`must be one of ${ACCEPTED_CONTENT_TYPES.join(', ')}`];
  }
  if (request.contentLength < 1n || request.contentLength > BigInt(context.files.maxBytes)) {
    errors.content_length = [`must be from 1 to ${context.files.maxBytes} bytes`];
  }
  if (Object.keys(errors).length > 0) {
    throw invalidArgument(`the upload is not valid: ${Object.keys(errors).join(', ')}`, errors);
  }
  return em.transactional(async (tx) => {
    const row = await sessionByToken(tx, context, request.token);
    requirePending(row);
    const kind = request.kind as CaptureKind;
    if (!kindsRequired(row.requirements as string[]).has(kind)) {
      throw invalidArgument(`this verification does not ask for a ${kind}`, {
        kind: [
          `is not asked for: this verification needs ${[...kindsRequired(row.requirements as string[])].join(' and ')}`,
        ],
      });
    }
    // Captured files and uploads still usable count; an upload abandoned past its URL's life does not.
    const [{ count }] = (await sql(
      tx,
      `select count(*)::int as count from kyc_capture
       where session_id = ? and (captured_at is not null or upload_url_expires_at > ?)`,
      [row.id, context.now()],
    )) as [{ count: number }];
    if (count >= MAX_CAPTURES) {
      throw invalidArgument(`this verification already has ${MAX_CAPTURES} files, the most it takes`, {
        kind: [`at most ${MAX_CAPTURES} files per verification`],
      });
    }
    const id = randomUUID();
    const objectKey = `${String(row.business_id)}/kyc-sessions/${String(row.id)}/${id}`;
    const contentLength = Number(request.contentLength);
    const signed = await context.storage.presignUpload({
      key: objectKey,
      contentType: request.contentType,
      contentLength,
      expiresInSeconds: context.files.uploadUrlTtlSeconds,
    });
    await sql(
      tx,
      `insert into kyc_capture (id, session_id, kind, object_key, content_type, size_bytes, upload_url_expires_at, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?)`,
      [id, row.id, kind, objectKey, request.contentType, contentLength, signed.expiresAt, context.now()],
    );
    return create(FileUploadSchema, {
      fileId: id,
      uploadUrl: signed.url,
      method: 'PUT',
      headers: signed.headers,
      expiresAt: timestampFromDate(signed.expiresAt),
      maxSizeBytes: BigInt(context.files.maxBytes),
    });
  });
}

/** The uploaded file becomes a capture once storage holds it with the size and type it was issued for. */
export async function addVerificationCapture(
  em: EntityManager,
  context: CustomerContext,
  request: AddVerificationCaptureRequest,
): Promise<KycSessionView> {
  return em.transactional(async (tx) => {
    const row = await sessionByToken(tx, context, request.token);
    requirePending(row);
    const [capture] = isUuid(request.fileId)
      ? await sql(tx, `select * from kyc_capture where id = ? and session_id = ?`, [request.fileId, row.id])
      : [];
    const refuse = (problem: string) => invalidArgument(`file_id ${problem}`, { file_id: [problem] });
    if (!capture) throw refuse('was not issued for this verification');
    if (capture.captured_at === null) {
      const stored = await context.storage.head(String(capture.object_key));
      if (!stored) throw refuse('has not been uploaded yet: PUT it to its upload_url first');
      if (stored.sizeBytes !== Number(capture.size_bytes)) {
        throw refuse(`holds ${stored.sizeBytes} bytes, not the ${String(capture.size_bytes)} it was issued for`);
      }
      await sql(tx, `update kyc_capture set captured_at = ? where id = ?`, [context.now(), capture.id]);
    }
    return viewOf(tx, context, row);
  });
}

/** The person submits: every kind the requirements need is captured, and the session is PROCESSING. */
export async function submitVerification(
  em: EntityManager,
  context: CustomerContext,
  token: string,
): Promise<KycSessionView> {
  return em.transactional(async (tx) => {
    const row = await sessionByToken(tx, context, token);
    requirePending(row);
    const captured = new Set(
      ((await capturesOf(tx, [String(row.id)])).get(String(row.id)) ?? [])
        .filter((capture) => capture.captured_at !== null)
        .map((capture) => captureOf(capture).kind),
    );
    const missing = [...kindsRequired(row.requirements as string[])].filter((kind) => !captured.has(kind));
    if (missing.length > 0) {
      throw invalidArgument(`this verification still needs a ${missing.join(' and a ')}`, {
        captures: missing.map((kind) => `a ${kind} is required`),
      });
    }
    const now = context.now();
    const [submitted] = await sql(
      tx,
      `update kyc_session set status = 'processing', submitted_at = ?, updated_at = ? where id = ? returning *`,
      [now, now, row.id],
    );
    return viewOf(tx, context, submitted as Row);
  });
}
