import { randomBytes } from 'node:crypto';
import {
  CustomerTypeSchema,
  KybScopeSchema,
  VerificationStatusSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import type { CustomerStatusChanged } from '@corridor/contracts/corridor/customer/v1/events_pb';
import { customerVocabulary, eventWordOf } from '@corridor/customer-json';
import { EventCollector, type ReceivedEvent } from '@corridor/testing';
import type { Platform } from './platform.js';

/** The scopes a platform needs for every customer route (seed part 5). */
export const CUSTOMER_SCOPES = ['customer:read', 'customer:write', 'file:upload'];

export interface FileJson {
  file_id: string;
  content_type: string;
  size_bytes: number;
  uploaded_at: string;
}

export interface OwnerJson {
  id: string;
  first_name: string;
  last_name: string;
  ownership_percentage: number;
  status: string;
  admin_comments: string[];
  id_document_front: FileJson | null;
  id_document_back: FileJson | null;
  [field: string]: unknown;
}

export interface DocumentJson {
  id: string;
  type: string;
  status: string;
  admin_comments: string[];
  file: FileJson | null;
  [field: string]: unknown;
}

/** A customer as decision 0008 answers it. */
export interface CustomerJson {
  id: string;
  type: string;
  kyb_scope?: string;
  verification_status: string;
  owners: OwnerJson[];
  documents: DocumentJson[];
  [field: string]: unknown;
}

export interface UploadJson {
  file_id: string;
  upload_url: string;
  method: string;
  headers: Record<string, string>;
  expires_at: string;
  max_size_bytes: number;
}

/** A platform business with a token for the customer routes. */
export interface CustomerCaller {
  token: string;
  businessId: string;
  clientId: string;
}

/** A verdict-free review entry (decision 0008). */
export interface ReviewEntry {
  id: string;
  status: 'APPROVED' | 'REJECTED';
  admin_comments?: string[];
}

export interface ReviewBody {
  owners?: ReviewEntry[];
  documents?: ReviewEntry[];
  verdict?: 'VERIFIED' | 'REJECTED';
}

// ---------------------------------------------------------------------------------------------
// Bodies and dates
// ---------------------------------------------------------------------------------------------

/** Today as the service sees it: the UTC calendar day. */
export function isoDay(offsetDays = 0, offsetYears = 0): string {
  const now = new Date();
  const day = new Date(Date.UTC(now.getUTCFullYear() + offsetYears, now.getUTCMonth(), now.getUTCDate() + offsetDays));
  return day.toISOString().slice(0, 10);
}

export const unique = () => randomBytes(4).toString('hex');

/** A registration number no other test of the file uses (the pair is unique per platform, seed 2.1 rule 3). */
export const registrationNumber = () => `RC${randomBytes(4).toString('hex').toUpperCase()}`;

/** The smallest valid business body (seed 4.4: the four required fields). */
export function businessBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'business',
    business_name: `Acme ${unique()} Ltd`,
    registration_number: registrationNumber(),
    incorporation_country: 'NG',
    country: 'NG',
    ...extra,
  };
}

export function individualBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'individual', first_name: 'Ada', last_name: 'Obi', country: 'NG', ...extra };
}

/** An owner that passes every rule of seed 2.2 and readiness check 6, holding a passport. */
export function ownerBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
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
  };
}

/** A small PDF (the storage checks type and size, not content; still, a real file is honest). */
export const PDF_BYTES = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
/** A 1×1 PNG. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

// ---------------------------------------------------------------------------------------------
// Assertions
// ---------------------------------------------------------------------------------------------

/** Reads a response that must have `status`; throws with the body when it has not. */
export async function jsonOf<T>(response: Response, status: number, what: string): Promise<T> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/**
 * A 422 whose `errors` map (DESIGN.md) has exactly the given field paths, each with a problem
 * matching its pattern, and whose `message` names one of those fields (seed 7). Returns the body.
 */
export async function expectInvalid(
  response: Response,
  expected: Record<string, RegExp>,
  options: { code?: string; exact?: boolean } = {},
): Promise<{ message: string; code: string; errors: Record<string, string[]> }> {
  const text = await response.text();
  if (response.status !== 422) throw new Error(`expected 422, got ${response.status} ${text}`);
  const body = JSON.parse(text) as {
    status: boolean;
    message: string;
    code: string;
    errors?: Record<string, string[]>;
  };
  expect(body.status).toBe(false);
  expect(body.errors).toBeDefined();
  const errors = body.errors ?? {};
  if (options.exact ?? true) expect(Object.keys(errors).sort()).toEqual(Object.keys(expected).sort());
  for (const [path, pattern] of Object.entries(expected)) {
    expect({ path, problems: errors[path] }).toEqual({
      path,
      problems: expect.arrayContaining([expect.stringMatching(pattern)]),
    });
  }
  // The message names a field of the map (the body itself, for problems of no field) and its problem.
  const named = Object.keys(errors).find((path) =>
    path === '(body)' ? /body/.test(body.message) : body.message.startsWith(`${path} `),
  );
  expect({ message: body.message, namesAField: named !== undefined }).toEqual({
    message: body.message,
    namesAField: true,
  });
  if (options.code !== undefined) expect(body.code).toBe(options.code);
  return { message: body.message, code: body.code, errors };
}

/** A status_changed event as the tests compare it. */
export interface StatusChange {
  customerId: string;
  businessId: string;
  oldStatus: string;
  newStatus: string;
  trigger: string;
  customerType: string;
  kybScope: string;
  key: string | undefined;
}

const STATUS_WORDS = customerVocabulary(VerificationStatusSchema);
const TYPE_WORDS = customerVocabulary(CustomerTypeSchema);
const SCOPE_WORDS = customerVocabulary(KybScopeSchema);

/** `customer.status_changed` payloads in the order they arrived, their enums as words (as a consumer reads them). */
export function statusChangesOf(events: readonly ReceivedEvent[]): StatusChange[] {
  return events.flatMap(({ event, key }) => {
    if (event.payload.case !== 'customerStatusChanged') return [];
    const change: CustomerStatusChanged = event.payload.value;
    return [
      {
        customerId: change.customerId,
        businessId: event.businessId,
        oldStatus: eventWordOf(STATUS_WORDS, change.oldVerificationStatus, change.oldStatus, 'old status'),
        newStatus: eventWordOf(STATUS_WORDS, change.newVerificationStatus, change.newStatus, 'new status'),
        trigger: change.trigger,
        customerType: eventWordOf(TYPE_WORDS, change.type, change.customerType, 'customer type'),
        kybScope: eventWordOf(SCOPE_WORDS, change.scope, change.kybScope, 'KYB scope'),
        key,
      },
    ];
  });
}

// ---------------------------------------------------------------------------------------------
// The customer API through the gateway
// ---------------------------------------------------------------------------------------------

const BASE = '/api/external';

/**
 * The customer routes of decision 0008 through a platform's gateway, each helper asserting the
 * documented success status and returning `data`. The raw calls (`call`) are for failure cases.
 */
export class CustomerApi {
  constructor(private readonly platform: Platform) {}

  /** A business (allow-listed for MINIMAL KYB or not, seed 5) with a customer-scoped token. */
  async caller(options: { kybMinimalAllowed?: boolean; scopes?: string[] } = {}): Promise<CustomerCaller> {
    const response = await this.platform.admin('/admin/businesses', {
      method: 'POST',
      body: JSON.stringify({ name: `Platform ${unique()}`, kyb_minimal_allowed: options.kybMinimalAllowed ?? false }),
    });
    const business = await jsonOf<{ id: string }>(response, 201, 'create business');
    // A suite makes more calls a minute than the default 120 (seed 8): its limits are not under test here.
    await this.platform.patchBusiness(business.id, { rate_limits: { per_minute: 100_000, per_hour: 6_000_000 } });
    const credentials = await this.platform.createCredentials(business.id);
    const token = await this.platform.accessToken(credentials, (options.scopes ?? CUSTOMER_SCOPES).join(' '));
    return { token, businessId: business.id, clientId: credentials.client_id };
  }

  /** A JSON call to the public API; `body` undefined sends none. */
  call(token: string, method: string, path: string, body?: unknown): Promise<Response> {
    return this.platform.api(`${BASE}${path}`, token, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  }

  /** `{message, data}` of a success with `status`. */
  private async data<T>(response: Response, status: number, what: string): Promise<T> {
    const body = await jsonOf<{ message: string; data: T }>(response, status, what);
    // Thrown, not expect()ed: the benches use these helpers outside jest.
    if (typeof body.message !== 'string') throw new Error(`${what}: the answer has no message`);
    return body.data;
  }

  async createCustomer(token: string, body: Record<string, unknown>): Promise<CustomerJson> {
    return this.data(await this.call(token, 'POST', '/customer', body), 201, 'create customer');
  }

  async getCustomer(token: string, id: string): Promise<CustomerJson> {
    return this.data(await this.call(token, 'GET', `/customer/${id}`), 200, 'get customer');
  }

  async updateCustomer(token: string, id: string, body: Record<string, unknown>): Promise<CustomerJson> {
    return this.data(await this.call(token, 'PUT', `/customer/${id}`, body), 200, 'update customer');
  }

  async removeOwner(token: string, customerId: string, ownerId: string): Promise<CustomerJson> {
    return this.data(await this.call(token, 'DELETE', `/customer/${customerId}/owner/${ownerId}`), 200, 'remove owner');
  }

  /** POST a presigned-URL route; the upload (201). */
  async presign(token: string, presignRoute: string, body: Record<string, unknown>): Promise<UploadJson> {
    return this.data(await this.call(token, 'POST', presignRoute, body), 201, `presign ${presignRoute}`);
  }

  /** PUTs bytes to a presigned upload exactly as it asks; the storage's response. */
  putBytes(upload: UploadJson, bytes: Buffer, headers: Record<string, string> = upload.headers): Promise<Response> {
    return fetch(upload.upload_url, { method: upload.method, headers, body: bytes });
  }

  /**
   * presigned URL → PUT the bytes to upload_url with the given headers → the file_id.
   * `presignRoute` is under /api/external, e.g. `/customer/{id}/document/presigned-url`;
   * content_type defaults to application/pdf and content_length to the bytes' length.
   */
  async uploadFile(
    token: string,
    presignRoute: string,
    body: Record<string, unknown> = {},
    bytes: Buffer = PDF_BYTES,
  ): Promise<string> {
    const upload = await this.presign(token, presignRoute, {
      content_type: 'application/pdf',
      content_length: bytes.length,
      ...body,
    });
    const stored = await this.putBytes(upload, bytes);
    if (stored.status !== 200) throw new Error(`upload to storage: ${stored.status} ${await stored.text()}`);
    return upload.file_id;
  }

  /** An uploaded owner ID file for a slot, not attached yet. */
  ownerFile(token: string, customerId: string, ownerId: string, slot: string): Promise<string> {
    return this.uploadFile(
      token,
      `/customer/${customerId}/owner/${ownerId}/file/presigned-url`,
      { slot, content_type: 'image/png' },
      PNG_BYTES,
    );
  }

  /** An uploaded KYB document file, not registered yet. */
  documentFile(token: string, customerId: string): Promise<string> {
    return this.uploadFile(token, `/customer/${customerId}/document/presigned-url`);
  }

  /** POST /customer/{id}/owner/{owner}/files: the owner (200). */
  async attachOwnerFile(
    token: string,
    customerId: string,
    ownerId: string,
    slot: string,
    fileId?: string,
  ): Promise<OwnerJson> {
    const file_id = fileId ?? (await this.ownerFile(token, customerId, ownerId, slot));
    return this.data(
      await this.call(token, 'POST', `/customer/${customerId}/owner/${ownerId}/files`, { slot, file_id }),
      200,
      'attach owner file',
    );
  }

  /** Uploads and attaches the slots an owner's document type needs (seed 2.2). */
  async attachOwnerIdFiles(token: string, customerId: string, owner: OwnerJson): Promise<void> {
    await this.attachOwnerFile(token, customerId, owner.id, 'id_document_front');
    if (owner.id_document_type !== 'passport')
      await this.attachOwnerFile(token, customerId, owner.id, 'id_document_back');
  }

  /** POST /customer/{id}/document (201), uploading a file first unless one is given. */
  async registerDocument(
    token: string,
    customerId: string,
    type = 'CERTIFICATE_OF_INCORPORATION',
    fileId?: string,
  ): Promise<DocumentJson> {
    const file_id = fileId ?? (await this.documentFile(token, customerId));
    return this.data(
      await this.call(token, 'POST', `/customer/${customerId}/document`, { type, file_id }),
      201,
      'register document',
    );
  }

  /** PUT /customer/{id}/document/{document} with a new file (200). */
  async replaceDocument(
    token: string,
    customerId: string,
    documentId: string,
    body: Record<string, unknown> = {},
  ): Promise<DocumentJson> {
    const file_id = body.file_id ?? (await this.documentFile(token, customerId));
    return this.data(
      await this.call(token, 'PUT', `/customer/${customerId}/document/${documentId}`, { ...body, file_id }),
      200,
      'replace document',
    );
  }

  async submit(token: string, customerId: string): Promise<CustomerJson> {
    return this.data(await this.call(token, 'POST', `/customer/${customerId}/submit`), 200, 'submit');
  }

  async upgrade(token: string, customerId: string, body: Record<string, unknown>): Promise<CustomerJson> {
    return this.data(
      await this.call(token, 'POST', `/customer/${customerId}/upgrade-kyb-scope`, body),
      200,
      'upgrade-kyb-scope',
    );
  }

  /** POST /admin/customers/{id}/review; the raw response. */
  reviewCall(customerId: string, body: ReviewBody): Promise<Response> {
    return this.platform.admin(`/admin/customers/${customerId}/review`, { method: 'POST', body: JSON.stringify(body) });
  }

  /** A review that must succeed (200); the customer after it. */
  async review(customerId: string, body: ReviewBody): Promise<CustomerJson> {
    const answer = await jsonOf<{ data?: CustomerJson } & Partial<CustomerJson>>(
      await this.reviewCall(customerId, body),
      200,
      'review',
    );
    return (answer.data ?? answer) as CustomerJson;
  }

  /** Approves every owner and document under review and verifies the customer. */
  verify(customer: CustomerJson): Promise<CustomerJson> {
    const approve = (items: { id: string; status: string }[]) =>
      items
        .filter((item) => item.status === 'PROCESSING')
        .map((item) => ({ id: item.id, status: 'APPROVED' as const }));
    return this.review(customer.id, {
      owners: approve(customer.owners ?? []),
      documents: approve(customer.documents ?? []),
      verdict: 'VERIFIED',
    });
  }

  /** GET /admin/customers/{id}/audit: the trail, oldest first. */
  async audit(customerId: string): Promise<Record<string, unknown>[]> {
    const answer = await jsonOf<{ data?: Record<string, unknown>[] } | Record<string, unknown>[]>(
      await this.platform.admin(`/admin/customers/${customerId}/audit`),
      200,
      'audit',
    );
    return Array.isArray(answer) ? answer : (answer.data ?? []);
  }

  // -------------------------------------------------------------------------------------------
  // Customers in a given state
  // -------------------------------------------------------------------------------------------

  /** A FULL business with the given owners (each ready: ID files attached) and a formation document. */
  async fullReadyToSubmit(
    caller: CustomerCaller,
    owners: Record<string, unknown>[] = [ownerBody()],
    extra: Record<string, unknown> = {},
  ): Promise<CustomerJson> {
    const created = await this.createCustomer(caller.token, businessBody({ kyb_scope: 'FULL', owners, ...extra }));
    for (const owner of created.owners) await this.attachOwnerIdFiles(caller.token, created.id, owner);
    await this.registerDocument(caller.token, created.id);
    return this.getCustomer(caller.token, created.id);
  }

  /** A MINIMAL business with a formation document (the caller must be allow-listed for MINIMAL). */
  async minimalReadyToSubmit(caller: CustomerCaller, extra: Record<string, unknown> = {}): Promise<CustomerJson> {
    const created = await this.createCustomer(caller.token, businessBody({ kyb_scope: 'MINIMAL', ...extra }));
    await this.registerDocument(caller.token, created.id);
    return this.getCustomer(caller.token, created.id);
  }

  /** A MINIMAL business, submitted and verified. */
  async verifiedMinimal(caller: CustomerCaller, extra: Record<string, unknown> = {}): Promise<CustomerJson> {
    const ready = await this.minimalReadyToSubmit(caller, extra);
    return this.verify(await this.submit(caller.token, ready.id));
  }

  /** Reads every event of this platform's customer topic from the beginning (stop it after use). */
  async events(): Promise<CustomerEventLog> {
    return new CustomerEventLog(await new EventCollector([this.platform.customerTopic]).start());
  }
}

/** `customer.status_changed` events read from `<prefix>corridor.customer.v1`, decoded. */
export class CustomerEventLog {
  constructor(readonly collector: EventCollector) {}

  /** Every status change of the customer so far, in order. */
  of(customerId: string): StatusChange[] {
    return statusChangesOf(this.collector.received).filter((change) => change.customerId === customerId);
  }

  /** Waits until the customer has at least `count` status changes; returns all of them. */
  async waitFor(customerId: string, count: number, timeoutMs = 30_000): Promise<StatusChange[]> {
    await this.collector.waitFor(
      (e) => e.event.payload.case === 'customerStatusChanged' && e.event.payload.value.customerId === customerId,
      count,
      timeoutMs,
    );
    return this.of(customerId);
  }

  /** Every event of any type about the customer (keyed by its id), for "no other event" checks. */
  allOf(customerId: string): ReceivedEvent[] {
    return this.collector.received.filter((e) => e.key === customerId);
  }

  stop(): Promise<void> {
    return this.collector.stop();
  }
}
