import { dateOf, sql } from '@corridor/db';
import type { EntityManager } from '@mikro-orm/core';
import type { CustomerView, ViewFile, ViewOwner } from './aggregate.js';
import type { Customer, FieldValues, ReviewStatus } from './customer.entity.js';

/**
 * The read side of GET /customer/{id} and the lists (issue 14): each customer with its owners,
 * documents and attached files in ONE statement, read as rows. Loading entities took four round
 * trips and MikroORM's hydration, about half of customer-kyb's CPU per read; writes still load the
 * aggregate as entities (aggregate.ts), since they change it.
 */
const VIEW = `
  select c.id, c.business_id, c.type, c.kyb_scope, c.verification_status, c.fields, c.id_file_id,
    c.id_file_back_id, c.created_at, c.updated_at, c.submitted_at,
    (select coalesce(json_agg(json_build_object('id', o.id, 'status', o.status, 'admin_comments', o.admin_comments,
        'fields', o.fields, 'id_document_front_id', o.id_document_front_id,
        'id_document_back_id', o.id_document_back_id, 'created_at', o.created_at, 'updated_at', o.updated_at)
        order by o.position), '[]'::json)
      from owner o where o.customer_id = c.id) as owners,
    (select coalesce(json_agg(json_build_object('id', d.id, 'type', d.type, 'status', d.status,
        'admin_comments', d.admin_comments, 'file_id', d.file_id, 'created_at', d.created_at,
        'updated_at', d.updated_at) order by d.created_at, d.id), '[]'::json)
      from kyb_document d where d.customer_id = c.id) as documents,
    (select coalesce(json_agg(json_build_object('id', f.id, 'content_type', f.content_type,
        'size_bytes', f.size_bytes, 'uploaded_at', f.uploaded_at)), '[]'::json)
      from stored_file f where f.customer_id = c.id and f.attached_at is not null) as files
  from customer c`;

interface ViewRow {
  id: string;
  business_id: string;
  type: Customer['type'];
  kyb_scope: Customer['kybScope'];
  verification_status: Customer['verificationStatus'];
  fields: FieldValues;
  id_file_id: string | null;
  id_file_back_id: string | null;
  created_at: unknown;
  updated_at: unknown;
  submitted_at: unknown;
  owners: OwnerJson[];
  documents: DocumentJson[];
  files: FileJson[];
}

interface OwnerJson {
  id: string;
  status: ReviewStatus;
  admin_comments: string[];
  fields: FieldValues;
  id_document_front_id: string | null;
  id_document_back_id: string | null;
  created_at: string;
  updated_at: string;
}

interface DocumentJson {
  id: string;
  type: string;
  status: ReviewStatus;
  admin_comments: string[];
  file_id: string;
  created_at: string;
  updated_at: string;
}

interface FileJson {
  id: string;
  content_type: string;
  size_bytes: number;
  uploaded_at: string | null;
}

function viewOf(row: ViewRow): CustomerView {
  const owners: ViewOwner[] = row.owners.map((owner) => ({
    id: owner.id,
    status: owner.status,
    adminComments: owner.admin_comments,
    fields: owner.fields,
    idDocumentFrontId: owner.id_document_front_id,
    idDocumentBackId: owner.id_document_back_id,
    createdAt: dateOf(owner.created_at),
    updatedAt: dateOf(owner.updated_at),
  }));
  const documents: CustomerView['documents'] = row.documents.map((document) => ({
    id: document.id,
    type: document.type,
    status: document.status,
    adminComments: document.admin_comments,
    fileId: document.file_id,
    createdAt: dateOf(document.created_at),
    updatedAt: dateOf(document.updated_at),
  }));
  const files = new Map<string, ViewFile>(
    row.files.map((file) => [
      file.id,
      {
        id: file.id,
        contentType: file.content_type,
        sizeBytes: file.size_bytes,
        uploadedAt: file.uploaded_at === null ? null : dateOf(file.uploaded_at),
      },
    ]),
  );
  return {
    customer: {
      id: row.id,
      businessId: row.business_id,
      type: row.type,
      kybScope: row.kyb_scope,
      verificationStatus: row.verification_status,
      fields: row.fields,
      idFileId: row.id_file_id,
      idFileBackId: row.id_file_back_id,
      createdAt: dateOf(row.created_at),
      updatedAt: dateOf(row.updated_at),
      submittedAt: row.submitted_at === null ? null : dateOf(row.submitted_at),
    },
    owners,
    documents,
    files,
  };
}

/** The customer as GET /customer/{id} shows it, if it exists and, for a platform, is its own (tenancy). */
export async function readCustomer(
  em: EntityManager,
  id: string,
  businessId?: string,
): Promise<CustomerView | undefined> {
  const rows = await sql<ViewRow>(
    em,
    `${VIEW} where c.id = ?${businessId === undefined ? '' : ' and c.business_id = ?'}`,
    businessId === undefined ? [id] : [id, businessId],
  );
  return rows[0] && viewOf(rows[0]);
}

/** The customers of `ids` (already read and scoped by a list query), in that order. */
export async function readCustomers(em: EntityManager, ids: readonly string[]): Promise<CustomerView[]> {
  if (ids.length === 0) return [];
  // An array literal: the driver would spread a JS array into a list. The ids are the table's own uuids.
  const rows = await sql<ViewRow>(em, `${VIEW} where c.id = any(?::uuid[])`, [`{${ids.join(',')}}`]);
  const byId = new Map(rows.map((row) => [row.id, viewOf(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
