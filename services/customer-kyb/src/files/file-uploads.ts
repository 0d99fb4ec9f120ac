import { create, type DescMessage } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { FileUploadSchema, type FileUpload } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { CustomerContext } from '../context.js';
import { validationFailed } from '../customers/aggregate.js';
import type { Customer } from '../customers/customer.entity.js';
import { NOT_RECOGNISED, sent, unknownNulls, type TypedBody } from '../customers/rules/index.js';
import { type FieldProblems, isUuid } from '@corridor/validation';
import { StoredFile, type FilePurpose } from './stored-file.entity.js';

/** What object storage holds for identity and company documents (decision 0008). */
export const ACCEPTED_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;

export interface UploadRequest {
  contentType: string;
  contentLength: number;
}

/** A property of a typed body by public name: its value, null when sent as null, undefined when omitted. */
export type ReadProperty = (name: string) => unknown;

/**
 * The properties of a typed upload, attach or review body (rules/typed-body.ts); a name sent as null
 * that the message lacks is refused as unrecognised. Problems are collected, every one of them,
 * before anything is stored.
 */
export function readBody(schema: DescMessage, body: TypedBody, problems: FieldProblems): ReadProperty {
  for (const name of unknownNulls(schema, body)) problems.add(name, NOT_RECOGNISED);
  return (name) => sent(schema, body, name);
}

/** `content_type` and `content_length` of an upload request, bounded by FILE_MAX_BYTES. */
export function readUploadRequest(
  read: ReadProperty,
  maxBytes: number,
  problems: FieldProblems,
): UploadRequest | undefined {
  const contentType = read('content_type');
  const contentLength = read('content_length');
  if (contentType === undefined || contentType === null) problems.add('content_type', 'is required');
  else if (typeof contentType !== 'string' || !(ACCEPTED_CONTENT_TYPES as readonly string[]).includes(contentType)) {
    problems.add('content_type', `must be one of ${ACCEPTED_CONTENT_TYPES.join(', ')}`);
  }
  if (contentLength === undefined || contentLength === null) {
    problems.add('content_length', 'is required: the size of the file in bytes');
  } else if (typeof contentLength !== 'number' || !Number.isInteger(contentLength) || contentLength < 1) {
    problems.add('content_length', 'must be a whole number of bytes, at least 1');
  } else if (contentLength > maxBytes) {
    problems.add('content_length', `must be at most ${maxBytes} bytes`);
  }
  if (typeof contentType !== 'string' || typeof contentLength !== 'number') return undefined;
  return { contentType, contentLength };
}

/** Reads a file id field of an attach request. */
export function readFileId(read: ReadProperty, key: string, problems: FieldProblems, required = true) {
  const value = read(key);
  if (value === undefined || value === null) {
    if (required) problems.add(key, 'is required: the file_id of an upload');
    return undefined;
  }
  if (typeof value !== 'string' || !isUuid(value)) {
    problems.add(key, 'must be the file_id (a uuid) returned with the upload URL');
    return undefined;
  }
  return value.toLowerCase();
}

export interface FileTarget {
  purpose: FilePurpose;
  slot: string;
  ownerId?: string;
}

/** Issues a file and its presigned PUT: the type and size are signed, so storage refuses others. */
export async function issueUpload(
  tx: EntityManager,
  context: CustomerContext,
  customer: Customer,
  target: FileTarget,
  request: UploadRequest,
): Promise<FileUpload> {
  const now = context.now();
  const id = randomUUID();
  const objectKey = `${customer.businessId}/${customer.id}/${id}`;
  const ttl = context.files.uploadUrlTtlSeconds;
  const signed = await context.storage.presignUpload({
    key: objectKey,
    contentType: request.contentType,
    contentLength: request.contentLength,
    expiresInSeconds: ttl,
  });
  tx.create(StoredFile, {
    id,
    businessId: customer.businessId,
    customerId: customer.id,
    purpose: target.purpose,
    slot: target.slot,
    ownerId: target.ownerId ?? null,
    objectKey,
    contentType: request.contentType,
    sizeBytes: request.contentLength,
    uploadUrlExpiresAt: signed.expiresAt,
    uploadedAt: null,
    attachedAt: null,
    createdAt: now,
  });
  return create(FileUploadSchema, {
    fileId: id,
    uploadUrl: signed.url,
    method: 'PUT',
    headers: signed.headers,
    expiresAt: timestampFromDate(signed.expiresAt),
    maxSizeBytes: BigInt(context.files.maxBytes),
  });
}

/**
 * Sandbox placeholders (decision 0031): files SandboxCreateCustomer attaches in place of uploads. No
 * object is stored for them; their key says what they are, and they are 0 bytes, a size no upload
 * can have (content_length is at least 1), so the API shows them apart from uploads.
 */
export const SANDBOX_PLACEHOLDER_PREFIX = 'sandbox-placeholder/';
export const SANDBOX_PLACEHOLDER_CONTENT_TYPE = 'application/pdf';

export const isSandboxPlaceholder = (file: Pick<StoredFile, 'objectKey'>) =>
  file.objectKey.startsWith(SANDBOX_PLACEHOLDER_PREFIX);

/** Issues a sandbox placeholder for `target`, ready for the same attach as an uploaded file. */
export function issueSandboxPlaceholder(
  tx: EntityManager,
  context: CustomerContext,
  customer: Pick<Customer, 'id' | 'businessId'>,
  target: FileTarget,
): StoredFile {
  const now = context.now();
  const id = randomUUID();
  return tx.create(StoredFile, {
    id,
    businessId: customer.businessId,
    customerId: customer.id,
    purpose: target.purpose,
    slot: target.slot,
    ownerId: target.ownerId ?? null,
    objectKey: `${SANDBOX_PLACEHOLDER_PREFIX}${customer.businessId}/${customer.id}/${id}`,
    contentType: SANDBOX_PLACEHOLDER_CONTENT_TYPE,
    sizeBytes: 0,
    uploadUrlExpiresAt: now,
    uploadedAt: null,
    attachedAt: null,
    createdAt: now,
  });
}

const PURPOSE_WORDS: Record<FilePurpose, string> = {
  owner_id: 'an owner ID file',
  kyb_document: 'a KYB document',
  individual_id: "an individual's ID file",
};

/**
 * The file `fileId` ready to attach to `target` of `customer`: issued for exactly that, not yet
 * attached, and present in storage with the size and type it was issued for (issue 4: registered
 * only after the object exists). Each refusal is a 422 at `path`.
 */
export async function claimUploadedFile(
  tx: EntityManager,
  context: CustomerContext,
  customer: Customer,
  target: FileTarget,
  fileId: string,
  path: string,
): Promise<StoredFile> {
  const refuse = (problem: string, reason = 'FILE_NOT_USABLE') => validationFailed({ [path]: [problem] }, reason);
  const file = await tx.findOne(StoredFile, { id: fileId, customerId: customer.id });
  if (!file) throw refuse(`file ${fileId} was not issued for this customer`);
  if (file.purpose !== target.purpose) throw refuse(`file ${fileId} was issued for ${PURPOSE_WORDS[file.purpose]}`);
  if ((target.ownerId ?? null) !== file.ownerId) throw refuse(`file ${fileId} was issued for another owner`);
  if (file.slot !== target.slot) throw refuse(`file ${fileId} was issued for ${file.slot}, not ${target.slot}`);
  if (file.attachedAt) throw refuse(`file ${fileId} is already attached; upload a new file`, 'FILE_ALREADY_ATTACHED');
  if (isSandboxPlaceholder(file)) {
    // Nothing is stored for a placeholder; and production never takes one, whoever issued it.
    if (context.environment !== 'sandbox') throw refuse(`file ${fileId} is a sandbox placeholder`);
    // Read as uploaded when attached, so the file shows as every attached file does (0 bytes).
    const now = context.now();
    file.uploadedAt = now;
    file.attachedAt = now;
    return file;
  }
  const stored = await context.storage.head(file.objectKey);
  if (!stored) {
    throw refuse(
      `file ${fileId} has not been uploaded yet: PUT it to its upload_url first (the URL expires at ${file.uploadUrlExpiresAt.toISOString()})`,
      'FILE_NOT_UPLOADED',
    );
  }
  if (stored.sizeBytes !== file.sizeBytes || (stored.contentType ?? '') !== file.contentType) {
    throw refuse(
      `file ${fileId} in storage (${stored.sizeBytes} bytes, ${stored.contentType ?? 'no type'}) is not what was requested (${file.sizeBytes} bytes, ${file.contentType})`,
    );
  }
  const now = context.now();
  file.uploadedAt = now;
  file.attachedAt = now;
  return file;
}
