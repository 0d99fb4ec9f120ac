import {
  CustomerType as CustomerTypeValue,
  CustomerTypeSchema,
  KybDocumentTypeSchema,
  KybScope,
  KybScopeSchema,
  ReviewStatusSchema,
  VerificationStatusSchema,
  type AuditEntry,
  type Customer,
  type FileRef,
  type FileUpload,
  type KybDocument,
  type Owner,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { auditChangesJson, customerDataJson, ownerDataJson } from '@corridor/customer-json';
import type { CustomerType } from './fields.js';
import { wordOf } from './vocabulary.js';
import { isoOrNull } from '../../floor/times.js';

/**
 * The JSON answers of the customer routes (decision 0008 "Responses"), from customer-kyb's messages:
 * the data fields from the typed data (decision 0061 step b), never the deprecated Struct; an audit
 * entry's changes from the typed changes (decision 0062).
 */

export function fileJson(file: FileRef) {
  return {
    file_id: file.fileId,
    content_type: file.contentType,
    size_bytes: Number(file.sizeBytes),
    uploaded_at: isoOrNull(file.uploadedAt),
  };
}

/** The file in `slot`, or null: a slot never holds more than one file. */
function fileInSlot(files: readonly FileRef[], slot: string) {
  const file = files.find((candidate) => candidate.slot === slot);
  return file ? fileJson(file) : null;
}

export function ownerJson(owner: Owner) {
  return {
    id: owner.id,
    ...ownerDataJson(owner),
    status: wordOf(ReviewStatusSchema, owner.status, 'owner status'),
    admin_comments: owner.adminComments,
    id_document_front: fileInSlot(owner.idFiles, 'id_document_front'),
    id_document_back: fileInSlot(owner.idFiles, 'id_document_back'),
    created_at: isoOrNull(owner.createdAt),
    updated_at: isoOrNull(owner.updatedAt),
  };
}

export function documentJson(document: KybDocument) {
  return {
    id: document.id,
    type: wordOf(KybDocumentTypeSchema, document.type, 'document type'),
    status: wordOf(ReviewStatusSchema, document.status, 'document status'),
    admin_comments: document.adminComments,
    file: document.file ? fileJson(document.file) : null,
    created_at: isoOrNull(document.createdAt),
    updated_at: isoOrNull(document.updatedAt),
  };
}

/**
 * A customer: every data field of its type (null when unset), then a business's owners and
 * documents or an individual's ID files. Fields of the other type are not answered.
 */
export function customerJson(customer: Customer) {
  const type: CustomerType = customer.type === CustomerTypeValue.BUSINESS ? 'business' : 'individual';
  const head = {
    id: customer.id,
    type: wordOf(CustomerTypeSchema, customer.type, 'type'),
    // seed 2.1: a business stored without a scope reads as MINIMAL.
    ...(type === 'business'
      ? {
          kyb_scope:
            customer.kybScope === KybScope.UNSPECIFIED
              ? 'MINIMAL'
              : wordOf(KybScopeSchema, customer.kybScope, 'kyb_scope'),
        }
      : {}),
    verification_status: wordOf(VerificationStatusSchema, customer.verificationStatus, 'verification_status'),
    ...customerDataJson(customer),
  };
  const children =
    type === 'business'
      ? { owners: customer.owners.map(ownerJson), documents: customer.documents.map(documentJson) }
      : {
          id_file: fileInSlot(customer.idFiles, 'id_file'),
          id_file_back: fileInSlot(customer.idFiles, 'id_file_back'),
        };
  return {
    ...head,
    ...children,
    created_at: isoOrNull(customer.createdAt),
    updated_at: isoOrNull(customer.updatedAt),
    submitted_at: isoOrNull(customer.submittedAt),
  };
}

/** The back office also sees which platform a customer belongs to. */
export function adminCustomerJson(customer: Customer) {
  const { id, ...rest } = customerJson(customer);
  return { id, business_id: customer.businessId, ...rest };
}

export function uploadJson(upload: FileUpload) {
  return {
    file_id: upload.fileId,
    upload_url: upload.uploadUrl,
    method: upload.method,
    headers: upload.headers,
    expires_at: isoOrNull(upload.expiresAt),
    max_size_bytes: Number(upload.maxSizeBytes),
  };
}

export function auditEntryJson(entry: AuditEntry) {
  return {
    id: entry.id,
    customer_id: entry.customerId,
    action: entry.action,
    actor: entry.actor,
    request_id: entry.requestId,
    changes: auditChangesJson(present(entry.whatChanged, 'audit entry changes')),
    occurred_at: isoOrNull(entry.occurredAt),
  };
}

/** A response message the service must always fill; its absence is a defect (500), not the caller's. */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`customer-kyb returned no ${what}`);
  return value;
}
