import {
  KybDocumentTypeSchema,
  type FileUpload,
  type KybDocument as KybDocumentMessage,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import {
  DocumentInputSchema,
  DocumentUploadInputSchema,
  type DocumentInput,
  type DocumentUploadInput,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import { recordAudit } from '../audit/record-audit.js';
import type { Actor, CustomerContext } from '../context.js';
import { enumOf } from '../customer-input.js';
import {
  assertCustomerEditable,
  assertDocumentEditable,
  loadAggregate,
  reopenIfRejected,
  validationFailed,
  type CustomerAggregate,
} from '../customers/aggregate.js';
import { KybDocument } from '../customers/customer.entity.js';
import { toDocumentMessage } from '../customers/customer-message.js';
import { documentNotFound } from '../customers/owner-not-found.js';
import { KYB_DOCUMENT_TYPES } from '../customers/rules/index.js';
import { FieldProblems } from '@corridor/validation';
import {
  claimUploadedFile,
  issueUpload,
  readBody,
  readFileId,
  readUploadRequest,
  type ReadProperty,
} from '../files/file-uploads.js';

const DOCUMENT = { purpose: 'kyb_document', slot: 'document' } as const;

/** KYB documents belong to business customers (seed 2.3), editable ones only. */
async function businessForDocuments(tx: EntityManager, actor: Actor, customerId: string, lock: boolean) {
  const aggregate = await loadAggregate(tx, actor, customerId, lock);
  if (aggregate.customer.type !== 'business') {
    throw validationFailed(
      {
        customer: [
          'is an individual: KYB documents are for business customers; upload ID files with POST /file/get-presigned-url',
        ],
      },
      'NOT_A_BUSINESS',
    );
  }
  return aggregate;
}

function readDocumentType(read: ReadProperty, problems: FieldProblems, required: boolean): string | undefined {
  const type = read('type');
  if (type === undefined || type === null) {
    if (required) problems.add('type', `is required: one of ${KYB_DOCUMENT_TYPES.join(', ')}`);
    return undefined;
  }
  if (typeof type !== 'string' || !(KYB_DOCUMENT_TYPES as readonly string[]).includes(type)) {
    problems.add('type', `must be one of ${KYB_DOCUMENT_TYPES.join(', ')}`);
    return undefined;
  }
  return type;
}

/** POST /customer/{customer}/document/presigned-url: `{content_type, content_length}`. */
export async function createDocumentUpload(
  em: EntityManager,
  context: CustomerContext,
  actor: Actor,
  input: { customerId: string; body: DocumentUploadInput },
): Promise<FileUpload> {
  return em.transactional(async (tx) => {
    const { customer } = await businessForDocuments(tx, actor, input.customerId, false);
    assertCustomerEditable(customer);
    const problems = new FieldProblems();
    const read = readBody(DocumentUploadInputSchema, input.body, problems);
    const upload = readUploadRequest(read, context.files.maxBytes, problems);
    if (!problems.isEmpty || !upload) throw validationFailed(problems.errors);
    return issueUpload(tx, context, customer, DOCUMENT, upload);
  });
}

/** POST /customer/{customer}/document: `{type, file_id}` registers an uploaded document, PENDING. */
export async function registerDocument(
  em: EntityManager,
  context: CustomerContext,
  actor: Actor,
  input: { customerId: string; body: DocumentInput },
): Promise<KybDocumentMessage> {
  return em.transactional(async (tx) => {
    const aggregate: CustomerAggregate = await businessForDocuments(tx, actor, input.customerId, true);
    const { customer } = aggregate;
    assertCustomerEditable(customer);
    const problems = new FieldProblems();
    const read = readBody(DocumentInputSchema, input.body, problems);
    const type = readDocumentType(read, problems, true);
    const fileId = readFileId(read, 'file_id', problems);
    if (!problems.isEmpty || !type || !fileId) throw validationFailed(problems.errors);
    const file = await claimUploadedFile(tx, context, customer, DOCUMENT, fileId, 'file_id');
    const now = context.now();
    const document = tx.create(KybDocument, {
      id: randomUUID(),
      customerId: customer.id,
      businessId: customer.businessId,
      type,
      status: 'PENDING',
      adminComments: [],
      fileId: file.id,
      createdAt: now,
      updatedAt: now,
    });
    customer.updatedAt = now;
    recordAudit(
      tx,
      actor,
      customer,
      'document.registered',
      {
        action: {
          case: 'documentRegistered',
          value: { documentId: document.id, type: enumOf(KybDocumentTypeSchema, type), fileId: file.id },
        },
      },
      now,
    );
    aggregate.files.set(file.id, file);
    return toDocumentMessage(document, aggregate.files);
  });
}

/** PUT /customer/{customer}/document/{document}: `{file_id, type?}` replaces an unlocked document's file. */
export async function replaceDocument(
  em: EntityManager,
  context: CustomerContext,
  actor: Actor,
  input: { customerId: string; documentId: string; body: DocumentInput },
): Promise<KybDocumentMessage> {
  return em.transactional(async (tx) => {
    const aggregate = await businessForDocuments(tx, actor, input.customerId, true);
    const { customer } = aggregate;
    const document = aggregate.documents.find((candidate) => candidate.id === input.documentId.toLowerCase());
    if (!document) throw documentNotFound(input.documentId);
    assertDocumentEditable(customer, document);
    const problems = new FieldProblems();
    const read = readBody(DocumentInputSchema, input.body, problems);
    const type = readDocumentType(read, problems, false);
    const fileId = readFileId(read, 'file_id', problems);
    if (!problems.isEmpty || !fileId) throw validationFailed(problems.errors);
    const file = await claimUploadedFile(tx, context, customer, DOCUMENT, fileId, 'file_id');
    const now = context.now();
    const replacement = {
      documentId: document.id,
      fileId: { from: document.fileId, to: file.id },
      type: {
        from: enumOf(KybDocumentTypeSchema, document.type),
        to: enumOf(KybDocumentTypeSchema, type ?? document.type),
      },
    };
    document.fileId = file.id;
    if (type) document.type = type;
    document.updatedAt = now;
    reopenIfRejected(document); // seed 3.3: a file replacement is a change
    recordAudit(
      tx,
      actor,
      customer,
      'document.replaced',
      { action: { case: 'documentReplaced', value: replacement } },
      now,
    );
    aggregate.files.set(file.id, file);
    return toDocumentMessage(document, aggregate.files);
  });
}
