import {
  CustomerFilesInputSchema,
  CustomerInputSchema,
  DocumentInputSchema,
  DocumentUploadInputSchema,
  FileUploadInputSchema,
  OwnerFileInputSchema,
  OwnerFileUploadInputSchema,
  ReviewInputSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { typedBody } from '../typed-bodies.fixtures.js';
import type { JsonObject } from '@bufbuild/protobuf';
import type {
  Customer as CustomerMessage,
  FileUpload,
  Owner as OwnerMessage,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { ReviewStatus, VerificationStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { customerDataJson, ownerDataJson } from '@corridor/customer-json';
import { query } from '@corridor/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Actor } from '../../src/context.js';
import { Status } from '@corridor/grpc';
import { customerKybSpecKit, putObject, refusalWithMessage } from '../customer-kyb-spec-kit.js';
import { registerDocument, createDocumentUpload } from '../../src/documents/kyb-documents.js';
import { attachCustomerFiles, createFileUpload } from '../../src/files/individual-files.js';
import { attachOwnerFile, createOwnerFileUpload } from '../../src/files/owner-files.js';
import { createCustomer } from '../../src/customers/create-customer.js';
import { getCustomer, listAuditEntries } from '../../src/customers/list-customers.js';
import { auditChangesJson } from '@corridor/customer-json';
import { reviewCustomer } from '../../src/customers/review-customer.js';
import { submitCustomer } from '../../src/customers/submit-customer.js';

/**
 * What the customer use-case specs share on top of customer-kyb's spec kit: platforms (businesses)
 * as actors, valid bodies dated by the kit's clock, the steps that bring a customer to submit and
 * through review, and what a change left behind (outbox events and audit entries of the customer).
 */

/** A small PDF: storage checks the type and size it was signed for, not the content. */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

export type PlatformActor = Actor & { businessId: string };

const unique = () => randomBytes(4).toString('hex');

/** The smallest valid business body (seed 4.4: the four required fields). */
export function businessBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'business',
    business_name: `Acme ${unique()} Ltd`,
    registration_number: `RC${unique().toUpperCase()}`,
    incorporation_country: 'NG',
    country: 'NG',
    ...extra,
  };
}

export function individualBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'individual', first_name: 'Ada', last_name: 'Obi', country: 'NG', ...extra };
}

/** The `index`th item, which the spec has just made: a missing one fails the spec with the reason. */
export function nth<T>(items: readonly T[], index = 0): T {
  const item = items[index];
  if (item === undefined) throw new Error(`expected an item at ${index}, got ${items.length} items`);
  return item;
}

/** A customer's or owner's data as the public API answers it: every field of its type, null when unset. */
export const dataOf = (message: CustomerMessage | OwnerMessage): JsonObject =>
  message.$typeName === 'corridor.customer.v1.Customer' ? customerDataJson(message) : ownerDataJson(message);

/** One field of a customer's or owner's data, by public name. */
export const fieldOf = (message: CustomerMessage | OwnerMessage, name: string) => dataOf(message)[name];

/**
 * A 422 (INVALID_ARGUMENT) whose field errors have exactly the given paths, each with a problem
 * matching its pattern, whose message names one of them (seed 7), and whose reason is `reason`.
 */
export async function expectInvalid(
  call: Promise<unknown>,
  expected: Record<string, RegExp>,
  reason = 'VALIDATION_FAILED',
): Promise<void> {
  const refusal = await refusalWithMessage(call);
  expect(refusal).toMatchObject({ status: Status.INVALID_ARGUMENT, reason });
  const errors = refusal?.fieldErrors ?? {};
  expect(Object.keys(errors).sort()).toEqual(Object.keys(expected).sort());
  for (const [path, pattern] of Object.entries(expected)) {
    expect({ path, problems: errors[path] }).toEqual({
      path,
      problems: expect.arrayContaining([expect.stringMatching(pattern)]),
    });
  }
  const message = refusal?.message ?? '';
  const named = Object.keys(errors).some((path) =>
    path === '(body)' ? /body/.test(message) : message.startsWith(`${path} `),
  );
  expect({ message, namesAField: named }).toEqual({ message, namesAField: true });
}

/** A refusal that is not a 422: its gRPC status, reason and (part of) its message. */
export async function expectRefused(call: Promise<unknown>, status: Status, reason: string, message?: RegExp) {
  const refusal = await refusalWithMessage(call);
  expect(refusal).toMatchObject({ status, reason, ...(message ? { message: expect.stringMatching(message) } : {}) });
}

export function customerSpecKit(name: string) {
  const kit = customerKybSpecKit(name);
  const { em, contextIn, clock } = kit;
  const context = () => contextIn('sandbox');

  /** The UTC calendar day `days` and `years` from the kit's today, as the rules read dates. */
  function isoDay(days = 0, years = 0): string {
    const now = clock.now();
    const day = new Date(Date.UTC(now.getUTCFullYear() + years, now.getUTCMonth(), now.getUTCDate() + days));
    return day.toISOString().slice(0, 10);
  }

  /** An owner that passes every rule of seed 2.2 and readiness check 6, holding a passport. */
  const ownerBody = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    first_name: 'Ada',
    last_name: 'Obi',
    ownership_percentage: 100,
    email: `owner.${unique()}@example.com`,
    date_of_birth: '1980-04-12',
    nationality: 'NG',
    id_document_type: 'passport',
    id_document_number: `A${unique()}`,
    id_document_country: 'NG',
    id_expiry_date: isoDay(0, 5),
    ...extra,
  });

  /** A new platform business calling with its credential; allow-listed for MINIMAL KYB when asked (seed 5). */
  function platform(options: { minimalAllowed?: boolean } = {}): PlatformActor {
    const businessId = randomUUID();
    if (options.minimalAllowed) kit.allowMinimal(businessId);
    return { businessId, name: `credential:${unique()}`, requestId: `req-${unique()}` };
  }

  /** The back office, which sees every business. */
  const admin: Actor = { businessId: undefined, name: 'admin', requestId: undefined };

  const create = async (actor: PlatformActor, body: Record<string, unknown>) =>
    createCustomer(em(), context(), actor, typedBody(CustomerInputSchema, body));

  /** PUTs the bytes to an issued upload; throws unless storage took them. */
  async function upload(issued: Promise<FileUpload>, bytes: Buffer): Promise<string> {
    const answer = await issued;
    const status = await putObject(answer, bytes);
    if (status !== 200) throw new Error(`S3Proxy answered ${status} to an upload`);
    return answer.fileId;
  }

  /** An uploaded owner ID file for `slot`, not attached yet. */
  const ownerFile = (actor: Actor, customerId: string, ownerId: string, slot: string) =>
    upload(
      createOwnerFileUpload(em(), context(), actor, {
        customerId,
        ownerId,
        body: typedBody(OwnerFileUploadInputSchema, {
          slot,
          content_type: 'application/pdf',
          content_length: PDF.length,
        }),
      }),
      PDF,
    );

  /** An uploaded KYB document file, not registered yet. */
  const documentFile = (actor: Actor, customerId: string) =>
    upload(
      createDocumentUpload(em(), context(), actor, {
        customerId,
        body: typedBody(DocumentUploadInputSchema, { content_type: 'application/pdf', content_length: PDF.length }),
      }),
      PDF,
    );

  async function attachOwnerSlot(actor: Actor, customerId: string, ownerId: string, slot: string) {
    const fileId = await ownerFile(actor, customerId, ownerId, slot);
    const body = typedBody(OwnerFileInputSchema, { slot, file_id: fileId });
    return attachOwnerFile(em(), context(), actor, { customerId, ownerId, body });
  }

  /** Uploads and attaches the slots an owner's document type needs (seed 2.2). */
  async function attachOwnerIdFiles(actor: Actor, customerId: string, owner: OwnerMessage): Promise<void> {
    await attachOwnerSlot(actor, customerId, owner.id, 'id_document_front');
    if (fieldOf(owner, 'id_document_type') !== 'passport') {
      await attachOwnerSlot(actor, customerId, owner.id, 'id_document_back');
    }
  }

  async function addDocument(actor: Actor, customerId: string, type = 'CERTIFICATE_OF_INCORPORATION') {
    const fileId = await documentFile(actor, customerId);
    const body = typedBody(DocumentInputSchema, { type, file_id: fileId });
    return registerDocument(em(), context(), actor, { customerId, body });
  }

  /** An uploaded individual's ID file of `category` (identity_front or identity_back), not attached yet. */
  const individualFile = (actor: Actor, customerId: string, category: string) =>
    upload(
      createFileUpload(em(), context(), actor, {
        body: typedBody(FileUploadInputSchema, {
          customer_id: customerId,
          file_category: category,
          content_type: 'application/pdf',
          content_length: PDF.length,
        }),
      }),
      PDF,
    );

  /** An individual that passes its readiness check: identity fields and a passport's front attached. */
  async function individualReadyToSubmit(actor: PlatformActor): Promise<CustomerMessage> {
    const customer = await create(
      actor,
      individualBody({ date_of_birth: '1990-01-31', id_type: 'passport', id_number: `A${unique()}` }),
    );
    const front = await individualFile(actor, customer.id, 'identity_front');
    const body = typedBody(CustomerFilesInputSchema, { id_file: front });
    return attachCustomerFiles(em(), context(), actor, { customerId: customer.id, body });
  }

  /** A FULL business that passes every readiness check: owners with their ID files and a formation document. */
  async function readyToSubmit(
    actor: PlatformActor,
    owners: Record<string, unknown>[] = [ownerBody()],
    extra: Record<string, unknown> = {},
  ): Promise<CustomerMessage> {
    const customer = await create(actor, businessBody({ kyb_scope: 'FULL', owners, ...extra }));
    for (const owner of customer.owners) await attachOwnerIdFiles(actor, customer.id, owner);
    await addDocument(actor, customer.id);
    return current(actor, customer.id);
  }

  /** The customer as GET /customer/{id} reads it now. */
  const current = (actor: Actor, customerId: string) => getCustomer(em(), actor, customerId);

  const submit = (actor: Actor, customerId: string) => submitCustomer(em(), context(), actor, customerId);
  const review = async (customerId: string, body: Record<string, unknown>) =>
    reviewCustomer(em(), context(), admin, { customerId, body: typedBody(ReviewInputSchema, body) });

  /** The back office approves every owner and document under review and verifies the customer. */
  const verify = (customer: CustomerMessage) =>
    review(customer.id, {
      owners: customer.owners
        .filter((o) => o.status === ReviewStatus.PROCESSING)
        .map((o) => ({ id: o.id, status: 'APPROVED' })),
      documents: customer.documents
        .filter((d) => d.status === ReviewStatus.PROCESSING)
        .map((d) => ({ id: d.id, status: 'APPROVED' })),
      verdict: 'VERIFIED',
    });

  /** A FULL business under review (PROCESSING), its owners and document with it. */
  async function underReview(actor: PlatformActor, owners?: Record<string, unknown>[]): Promise<CustomerMessage> {
    return submit(actor, (await readyToSubmit(actor, owners)).id);
  }

  /**
   * A REJECTED business whose first owner and document were APPROVED and whose second owner (an
   * id_card, front and back) and document were REJECTED with comments: seed 3.3's mixed case.
   */
  async function rejectedWithMixedChildren(actor: PlatformActor) {
    const ready = await readyToSubmit(actor, [
      ownerBody({ ownership_percentage: 50 }),
      ownerBody({ ownership_percentage: 50, id_document_type: 'id_card' }),
    ]);
    await addDocument(actor, ready.id, 'CAC_STATUS_REPORT');
    const submitted = await submit(actor, ready.id);
    const [approvedOwner, rejectedOwner] = submitted.owners.map((owner) => owner.id);
    const [approvedDocument, rejectedDocument] = submitted.documents.map((document) => document.id);
    if (!approvedOwner || !rejectedOwner || !approvedDocument || !rejectedDocument) {
      throw new Error('the mixed customer needs two owners and two documents');
    }
    const customer = await review(submitted.id, {
      owners: [
        { id: approvedOwner, status: 'APPROVED' },
        { id: rejectedOwner, status: 'REJECTED', admin_comments: ['the ID is blurred'] },
      ],
      documents: [
        { id: approvedDocument, status: 'APPROVED' },
        { id: rejectedDocument, status: 'REJECTED', admin_comments: ['the report is older than 3 months'] },
      ],
      verdict: 'REJECTED',
    });
    return { customer, approvedOwner, rejectedOwner, approvedDocument, rejectedDocument };
  }

  /** customer.status_changed moves recorded for the customer, oldest first: [old, new, trigger], by enum name. */
  async function statusChanges(customerId: string) {
    return (await kit.outboxEvents(customerId)).flatMap(({ event }) => {
      if (event.payload.case !== 'customerStatusChanged') return [];
      const { oldVerificationStatus, newVerificationStatus, trigger } = event.payload.value;
      return [[VerificationStatus[oldVerificationStatus], VerificationStatus[newVerificationStatus], trigger]];
    });
  }

  /**
   * The customer's audit trail as stored, oldest first (entries of one instant in the order their
   * transactions wrote them). Every call also holds the admin answer to the rows (decision 0062): the
   * typed changes render to each stored row byte for byte (jsonb's key order included).
   */
  async function auditOf(customerId: string) {
    const rows = await query<{
      id: string;
      action: string;
      actor: string;
      request_id: string | null;
      changes: JsonObject;
    }>(
      kit.databaseUrl(),
      'select id, action, actor, request_id, changes from customer_audit where customer_id = $1 order by occurred_at, xmin::text::bigint',
      [customerId],
    );
    const answered = new Map((await listAuditEntries(kit.em(), admin, customerId)).map((entry) => [entry.id, entry]));
    return rows.map(({ id, ...row }) => {
      const entry = answered.get(id);
      if (!entry?.whatChanged) throw new Error(`audit entry ${id} answered without typed changes`);
      expect(JSON.stringify(auditChangesJson(entry.whatChanged))).toBe(JSON.stringify(row.changes));
      return row;
    });
  }

  /** Everything a refused write could have touched for one customer: its rows, files, audit and outbox. */
  const footprint = (customerId: string) =>
    query(
      kit.databaseUrl(),
      `select (select row_to_json(c) from customer c where c.id = $1) as customer,
              (select json_agg(o order by o.position) from owner o where o.customer_id = $1) as owners,
              (select json_agg(d order by d.id) from kyb_document d where d.customer_id = $1) as documents,
              (select count(*) from stored_file f where f.customer_id = $1 and f.attached_at is not null) as attached,
              (select count(*) from customer_audit a where a.customer_id = $1) as audit,
              (select count(*) from outbox x where x.message_key = $1::text) as outbox`,
      [customerId],
    );

  /** How many customers a business has: a refused create writes none. */
  const customerCount = async (businessId: string) =>
    Number(
      (
        await query<{ n: string }>(kit.databaseUrl(), 'select count(*) as n from customer where business_id = $1', [
          businessId,
        ])
      )[0]?.n,
    );

  return {
    ...kit,
    context,
    isoDay,
    ownerBody,
    platform,
    admin,
    create,
    upload,
    ownerFile,
    documentFile,
    attachOwnerSlot,
    attachOwnerIdFiles,
    addDocument,
    readyToSubmit,
    individualFile,
    individualReadyToSubmit,
    current,
    submit,
    review,
    verify,
    underReview,
    rejectedWithMixedChildren,
    statusChanges,
    auditOf,
    footprint,
    customerCount,
  };
}
