import {
  DocumentInputSchema,
  DocumentUploadInputSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { typedBody } from '../../test/typed-bodies.fixtures.js';
import { KybDocumentType, ReviewStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { Status } from '@corridor/grpc';
import { randomUUID } from 'node:crypto';
import { dateOf, FILE_MAX_BYTES, putObject } from '../../test/customer-kyb-spec-kit.js';
import {
  businessBody,
  customerSpecKit,
  expectInvalid,
  expectRefused,
  individualBody,
  nth,
  PDF,
  type PlatformActor,
} from '../../test/customers/customer-spec-kit.js';
import { createDocumentUpload, registerDocument, replaceDocument } from './kyb-documents.js';

// KYB documents as customer-kyb serves them (seed 2.3, 3.2 rule 7; decision 0008): the presigned
// upload, registration once the object is in S3Proxy, and replacement, against real PostgreSQL and
// S3Proxy. The lock rule of seed 3.3 is lock-rule.int.spec.ts's.

describe('customer-kyb: KYB documents (real PostgreSQL and S3Proxy)', () => {
  const kit = customerSpecKit('kyb_documents');
  let actor: PlatformActor;

  beforeAll(async () => {
    await kit.start();
    actor = kit.platform();
  });
  afterAll(() => kit.stop());

  const presign = async (customerId: string, body: Record<string, unknown>, who: PlatformActor = actor) =>
    createDocumentUpload(kit.em(), kit.context(), who, {
      customerId,
      body: typedBody(DocumentUploadInputSchema, body),
    });
  const register = async (customerId: string, body: Record<string, unknown>, who: PlatformActor = actor) =>
    registerDocument(kit.em(), kit.context(), who, { customerId, body: typedBody(DocumentInputSchema, body) });
  const replace = async (customerId: string, documentId: string, body: Record<string, unknown>) =>
    replaceDocument(kit.em(), kit.context(), actor, {
      customerId,
      documentId,
      body: typedBody(DocumentInputSchema, body),
    });
  const business = () => kit.create(actor, businessBody({ owners: [kit.ownerBody()] }));

  describe('decision 0008: presigned uploads', () => {
    it('the answer names file_id, a PUT upload_url, its signed headers, an expiry 15 minutes on and the size limit; storage takes the bytes', async () => {
      const customer = await business();
      const before = Date.now();
      const upload = await presign(customer.id, { content_type: 'application/pdf', content_length: PDF.length });
      const after = Date.now();
      expect(upload).toMatchObject({
        fileId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        uploadUrl: expect.stringMatching(/^https?:\/\//),
        method: 'PUT',
        headers: { 'content-type': 'application/pdf', 'content-length': String(PDF.length) },
        maxSizeBytes: BigInt(FILE_MAX_BYTES),
      });
      // Signed by the storage client on the machine's clock: FILE_UPLOAD_URL_TTL_SECONDS (900) from now.
      const expiresAt = dateOf(upload.expiresAt)?.getTime() ?? 0;
      expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 900_000);
      expect(expiresAt).toBeLessThanOrEqual(after + 900_000);
      expect(await putObject(upload, PDF)).toBe(200);
    });

    it.each<[Record<string, unknown>, Record<string, RegExp>]>([
      [
        { content_type: 'image/gif', content_length: 0 },
        { content_type: /must be one of application\/pdf, image\/jpeg, image\/png/, content_length: /at least 1/ },
      ],
      [{ content_type: 'image/png', content_length: FILE_MAX_BYTES + 1 }, { content_length: /at most 10485760 bytes/ }],
      [{}, { content_type: /is required/, content_length: /is required/ }],
    ])('an upload request %j is 422 naming each field', async (body, expected) => {
      const customer = await business();
      await expectInvalid(presign(customer.id, body), expected);
    });

    it('storage does not take other bytes than those the URL was signed for, or customer-kyb refuses the file', async () => {
      const customer = await business();
      const upload = await presign(customer.id, { content_type: 'application/pdf', content_length: PDF.length });
      const stored = await putObject({ ...upload, headers: { ...upload.headers, 'content-type': 'image/png' } }, PDF);
      if (stored === 200) {
        await expectInvalid(
          register(customer.id, { type: 'CERTIFICATE_OF_INCORPORATION', file_id: upload.fileId }),
          {
            file_id: /is not what was requested/,
          },
          'FILE_NOT_USABLE',
        );
      } else expect(stored).toBe(403);
    });

    it('KYB documents are for business customers (422 NOT_A_BUSINESS for an individual)', async () => {
      const individual = await kit.create(actor, individualBody());
      await expectInvalid(
        presign(individual.id, { content_type: 'application/pdf', content_length: 10 }),
        { customer: /KYB documents are for business customers/ },
        'NOT_A_BUSINESS',
      );
      await expectInvalid(
        register(individual.id, { type: 'CAC_STATUS_REPORT', file_id: randomUUID() }),
        { customer: /KYB documents/ },
        'NOT_A_BUSINESS',
      );
    });
  });

  describe('seed 2.3: registering a document', () => {
    it('registers PENDING with its type, file and empty admin_comments, audited, with no event (seed 6.1)', async () => {
      const customer = await business();
      const fileId = await kit.documentFile(actor, customer.id);
      const document = await register(customer.id, { type: 'CERTIFICATE_OF_INCORPORATION', file_id: fileId });
      expect(document).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: KybDocumentType.CERTIFICATE_OF_INCORPORATION,
        status: ReviewStatus.PENDING,
        adminComments: [],
        file: { fileId, contentType: 'application/pdf', sizeBytes: BigInt(PDF.length), slot: 'document' },
      });
      expect(dateOf(document.file?.uploadedAt)).toEqual(kit.clock.now());
      expect((await kit.current(actor, customer.id)).documents).toEqual([document]);
      expect((await kit.auditOf(customer.id)).at(-1)).toEqual({
        action: 'document.registered',
        actor: actor.name,
        request_id: actor.requestId,
        changes: { document_id: document.id, type: 'CERTIFICATE_OF_INCORPORATION', file_id: fileId },
      });
      expect(await kit.eventCases(customer.id)).toEqual(['customerCreated']);
    });

    it('a type outside the list is 422; type and file_id are required; file_id is a uuid', async () => {
      const customer = await business();
      const fileId = await kit.documentFile(actor, customer.id);
      await expectInvalid(register(customer.id, { type: 'PASSPORT', file_id: fileId }), {
        type: /must be one of CERTIFICATE_OF_INCORPORATION/,
      });
      await expectInvalid(register(customer.id, {}), { type: /is required/, file_id: /is required/ });
      await expectInvalid(register(customer.id, { type: 'CAC_STATUS_REPORT', file_id: 'nope' }), {
        file_id: /must be the file_id \(a uuid\)/,
      });
      expect((await kit.current(actor, customer.id)).documents).toEqual([]);
    });

    it('a file is registered only after it was uploaded (422 FILE_NOT_UPLOADED), and only once (422 FILE_ALREADY_ATTACHED)', async () => {
      const customer = await business();
      const upload = await presign(customer.id, { content_type: 'application/pdf', content_length: PDF.length });
      const body = { type: 'CAC_STATUS_REPORT', file_id: upload.fileId };
      await expectInvalid(
        register(customer.id, body),
        { file_id: /has not been uploaded yet: PUT it to its upload_url first/ },
        'FILE_NOT_UPLOADED',
      );
      expect(await putObject(upload, PDF)).toBe(200);
      await register(customer.id, body);
      await expectInvalid(
        register(customer.id, body),
        { file_id: /is already attached; upload a new file/ },
        'FILE_ALREADY_ATTACHED',
      );
      expect((await kit.current(actor, customer.id)).documents).toHaveLength(1);
    });

    it('a file of another customer, or issued for an owner ID, is refused', async () => {
      const [one, two] = [await business(), await business()];
      const fileId = await kit.documentFile(actor, one.id);
      await expectInvalid(
        register(two.id, { type: 'CAC_STATUS_REPORT', file_id: fileId }),
        { file_id: /was not issued for this customer/ },
        'FILE_NOT_USABLE',
      );
      const front = await kit.ownerFile(actor, two.id, nth(two.owners).id, 'id_document_front');
      await expectInvalid(
        register(two.id, { type: 'CAC_STATUS_REPORT', file_id: front }),
        { file_id: /was issued for an owner ID file/ },
        'FILE_NOT_USABLE',
      );
    });

    it('seed 2.3: the other document types register but do not satisfy readiness check 7', async () => {
      const listed = kit.platform({ minimalAllowed: true });
      const customer = await kit.create(listed, businessBody());
      for (const [word, type] of [
        ['PROOF_OF_ADDRESS', KybDocumentType.PROOF_OF_ADDRESS],
        ['SHAREHOLDER_REGISTER', KybDocumentType.SHAREHOLDER_REGISTER],
        ['TAX_REGISTRATION', KybDocumentType.TAX_REGISTRATION],
        ['BANK_STATEMENT', KybDocumentType.BANK_STATEMENT],
        ['OTHER', KybDocumentType.OTHER],
      ] as const) {
        expect((await kit.addDocument(listed, customer.id, word)).type).toBe(type);
      }
      await expectInvalid(
        kit.submit(listed, customer.id),
        {
          documents:
            /must include at least one formation document \(CERTIFICATE_OF_INCORPORATION, ARTICLES_OF_INCORPORATION, BENEFICIAL_OWNERSHIP_CERTIFICATE, INCORPORATION_DOCUMENTS, CAC_STATUS_REPORT\)/,
        },
        'READINESS_CHECK_FAILED',
      );
    });
  });

  describe('decision 0008: PUT /customer/{customer}/document/{document}', () => {
    it('replaces the file and may change the type, audited with both changes', async () => {
      const customer = await business();
      const document = await kit.addDocument(actor, customer.id, 'INCORPORATION_DOCUMENTS');
      const fileId = await kit.documentFile(actor, customer.id);
      const replaced = await replace(customer.id, document.id, { file_id: fileId, type: 'CAC_STATUS_REPORT' });
      expect(replaced).toMatchObject({
        id: document.id,
        type: KybDocumentType.CAC_STATUS_REPORT,
        status: ReviewStatus.PENDING,
        file: { fileId },
      });
      expect((await kit.auditOf(customer.id)).at(-1)?.changes).toEqual({
        document_id: document.id,
        file_id: { from: document.file?.fileId, to: fileId },
        type: { from: 'INCORPORATION_DOCUMENTS', to: 'CAC_STATUS_REPORT' },
      });
      const kept = await replace(customer.id, document.id, { file_id: await kit.documentFile(actor, customer.id) });
      expect(kept.type).toBe(KybDocumentType.CAC_STATUS_REPORT);
      // seed 6.1: no per-document events.
      expect(await kit.eventCases(customer.id)).toEqual(['customerCreated']);
    });

    it('an unknown document, or another customer’s, is DOCUMENT_NOT_FOUND', async () => {
      const customer = await business();
      const other = await business();
      const othersDocument = await kit.addDocument(actor, other.id);
      for (const documentId of [randomUUID(), othersDocument.id]) {
        await expectRefused(
          replace(customer.id, documentId, { file_id: randomUUID() }),
          Status.NOT_FOUND,
          'DOCUMENT_NOT_FOUND',
        );
      }
    });
  });

  it('tenancy: another business’s customer is CUSTOMER_NOT_FOUND on every document route, and gains nothing', async () => {
    const customer = await business();
    const document = await kit.addDocument(actor, customer.id);
    const before = await kit.footprint(customer.id);
    const stranger = kit.platform();
    await expectRefused(
      presign(customer.id, { content_type: 'application/pdf', content_length: 10 }, stranger),
      Status.NOT_FOUND,
      'CUSTOMER_NOT_FOUND',
    );
    await expectRefused(
      register(customer.id, { type: 'CAC_STATUS_REPORT', file_id: randomUUID() }, stranger),
      Status.NOT_FOUND,
      'CUSTOMER_NOT_FOUND',
    );
    await expectRefused(
      replaceDocument(kit.em(), kit.context(), stranger, {
        customerId: customer.id,
        documentId: document.id,
        body: typedBody(DocumentInputSchema, { file_id: randomUUID() }),
      }),
      Status.NOT_FOUND,
      'CUSTOMER_NOT_FOUND',
    );
    expect(await kit.footprint(customer.id)).toEqual(before);
  });
});
