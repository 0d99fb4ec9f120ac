import { failedPrecondition, invalidArgument, notFound } from '@corridor/grpc';
import { type FieldErrors } from '@corridor/validation';
import { LockMode, type EntityManager } from '@mikro-orm/core';
import type { Actor } from '../context.js';
import { StoredFile } from '../files/stored-file.entity.js';
import { Customer, KybDocument, Owner, type FieldValues, type ReviewStatus } from './customer.entity.js';
import { firstProblemMessage, isUuid } from '@corridor/validation';

/** A customer with everything GET /customer/{id} shows: owners, documents and their files. */
export interface CustomerAggregate {
  customer: Customer;
  owners: Owner[];
  documents: KybDocument[];
  files: Map<string, StoredFile>;
}

/**
 * What a customer's answer is made from (customer-message.ts): an aggregate a write loaded as
 * entities, or the rows a read took in one statement (customer-view.ts).
 */
export interface CustomerView {
  customer: Pick<
    Customer,
    | 'id'
    | 'businessId'
    | 'type'
    | 'kybScope'
    | 'verificationStatus'
    | 'fields'
    | 'idFileId'
    | 'idFileBackId'
    | 'createdAt'
    | 'updatedAt'
    | 'submittedAt'
  >;
  owners: readonly ViewOwner[];
  documents: readonly Pick<
    KybDocument,
    'id' | 'type' | 'status' | 'adminComments' | 'fileId' | 'createdAt' | 'updatedAt'
  >[];
  files: ReadonlyMap<string, ViewFile>;
}

export type ViewOwner = Pick<
  Owner,
  'id' | 'status' | 'adminComments' | 'fields' | 'idDocumentFrontId' | 'idDocumentBackId' | 'createdAt' | 'updatedAt'
>;
export type ViewFile = Pick<StoredFile, 'id' | 'contentType' | 'sizeBytes' | 'uploadedAt'>;

export const customerNotFound = (id: string) => notFound('CUSTOMER_NOT_FOUND', `customer ${id} not found`);

/** seed 7: validation and eligibility failures are 422, the message naming the first problem. */
export const validationFailed = (errors: FieldErrors, reason = 'VALIDATION_FAILED') =>
  invalidArgument(firstProblemMessage(errors), errors, reason);

/**
 * The customer `id` as `actor` may see it: another business's customer is not found, exactly like
 * a missing one (DESIGN.md tenancy). `lock` takes the row lock every change to the customer or its
 * children holds, so concurrent edits of one customer queue instead of interleaving.
 */
export async function findCustomer(em: EntityManager, actor: Actor, id: string, lock = false): Promise<Customer> {
  const customer = isUuid(id)
    ? await em.findOne(
        Customer,
        { id: id.toLowerCase(), ...(actor.businessId ? { businessId: actor.businessId } : {}) },
        lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
      )
    : null;
  if (!customer) throw customerNotFound(id);
  return customer;
}

/** Owners, documents and files of the given customers, in one query each. */
export async function loadAggregates(em: EntityManager, customers: readonly Customer[]): Promise<CustomerAggregate[]> {
  if (customers.length === 0) return [];
  const ids = customers.map((customer) => customer.id);
  const [owners, documents, files] = await Promise.all([
    em.find(Owner, { customerId: { $in: ids } }, { orderBy: { position: 'asc' } }),
    em.find(KybDocument, { customerId: { $in: ids } }, { orderBy: { createdAt: 'asc', id: 'asc' } }),
    em.find(StoredFile, { customerId: { $in: ids }, attachedAt: { $ne: null } }),
  ]);
  const fileMap = new Map(files.map((file) => [file.id, file]));
  return customers.map((customer) => ({
    customer,
    owners: owners.filter((owner) => owner.customerId === customer.id),
    documents: documents.filter((document) => document.customerId === customer.id),
    files: fileMap,
  }));
}

export async function loadAggregate(em: EntityManager, actor: Actor, id: string, lock = false) {
  const customer = await findCustomer(em, actor, id, lock);
  const [aggregate] = await loadAggregates(em, [customer]);
  return aggregate as CustomerAggregate;
}

/** The customer's own fields are not editable while it is under review or verified (issue 4, seed 3.3). */
export function assertCustomerEditable(customer: Customer): void {
  if (customer.verificationStatus === 'PROCESSING' || customer.verificationStatus === 'VERIFIED') {
    throw failedPrecondition(
      'CUSTOMER_LOCKED',
      `customer ${customer.id} is ${customer.verificationStatus} and cannot be edited` +
        (customer.verificationStatus === 'PROCESSING'
          ? ' while it is under review'
          : customer.type === 'business' && customer.kybScope !== 'FULL'
            ? '; a MINIMAL business becomes editable again through POST /customer/{customer}/upgrade-kyb-scope'
            : ''),
    );
  }
}

/** seed 3.3 lock rule: a child is locked by its own status, or by its customer's. */
export function childLockReason(customer: Customer, status: ReviewStatus): string | undefined {
  if (status === 'APPROVED' || status === 'PROCESSING') return `it is ${status}`;
  if (customer.verificationStatus === 'PROCESSING' || customer.verificationStatus === 'VERIFIED') {
    return `its customer is ${customer.verificationStatus}`;
  }
  return undefined;
}

export function assertOwnerEditable(customer: Customer, owner: Owner): void {
  const reason = childLockReason(customer, owner.status);
  if (reason) throw failedPrecondition('OWNER_LOCKED', `owner ${owner.id} is locked and cannot be edited: ${reason}`);
}

export function assertDocumentEditable(customer: Customer, document: KybDocument): void {
  const reason = childLockReason(customer, document.status);
  if (reason) {
    throw failedPrecondition('DOCUMENT_LOCKED', `document ${document.id} is locked and cannot be changed: ${reason}`);
  }
}

/** seed 3.3: a REJECTED owner or document that changes goes back to PENDING, its comments cleared. */
export function reopenIfRejected(child: { status: ReviewStatus; adminComments: string[] }): void {
  if (child.status !== 'REJECTED') return;
  child.status = 'PENDING';
  child.adminComments = [];
}

/** Stored field JSON without null/undefined entries: absent means "no value". */
export function storedFields(values: Readonly<Record<string, unknown>>, allowed: readonly string[]): FieldValues {
  const fields: FieldValues = {};
  for (const key of allowed) {
    const value = values[key];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  return fields;
}
