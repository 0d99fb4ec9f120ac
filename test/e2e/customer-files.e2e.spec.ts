import {
  businessBody,
  expectInvalid,
  individualBody,
  jsonOf,
  ownerBody,
  PDF_BYTES,
  PNG_BYTES,
  type CustomerCaller,
  type CustomerJson,
} from '../support/customers.js';
import { expectError, Platform } from '../support/platform.js';

const FORMATION_TYPES = [
  'CERTIFICATE_OF_INCORPORATION',
  'ARTICLES_OF_INCORPORATION',
  'BENEFICIAL_OWNERSHIP_CERTIFICATE',
  'INCORPORATION_DOCUMENTS',
  'CAC_STATUS_REPORT',
];
const OTHER_TYPES = ['PROOF_OF_ADDRESS', 'SHAREHOLDER_REGISTER', 'TAX_REGISTRATION', 'BANK_STATEMENT', 'OTHER'];

describe('customers: owners, owner ID files and KYB documents (seed 2.2, 2.3, 4.4; decision 0008)', () => {
  const platform = Platform.shared();
  const api = platform.customers;
  let caller: CustomerCaller;
  let minimalCaller: CustomerCaller;

  beforeAll(async () => {
    await platform.start();
    [caller, minimalCaller] = await Promise.all([api.caller(), api.caller({ kybMinimalAllowed: true })]);
  });
  afterAll(() => platform.stop());

  const fullWith = (owner: Record<string, unknown> = {}): Promise<CustomerJson> =>
    api.createCustomer(caller.token, businessBody({ owners: [ownerBody(owner)] }));
  const ownerPresign = (customerId: string, ownerId: string, body: Record<string, unknown>) =>
    api.call(caller.token, 'POST', `/customer/${customerId}/owner/${ownerId}/file/presigned-url`, body);
  const attach = (customerId: string, ownerId: string, slot: string, fileId: string) =>
    api.call(caller.token, 'POST', `/customer/${customerId}/owner/${ownerId}/files`, { slot, file_id: fileId });

  describe('presigned uploads (decision 0008)', () => {
    it('decision 0008: the presigned upload answer names file_id, a PUT upload_url, its signed headers, expiry and size limit', async () => {
      const customer = await fullWith();
      const before = Date.now();
      const upload = await api.presign(caller.token, `/customer/${customer.id}/document/presigned-url`, {
        content_type: 'application/pdf',
        content_length: PDF_BYTES.length,
      });
      expect(upload).toEqual({
        file_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        upload_url: expect.stringMatching(/^https?:\/\//),
        method: 'PUT',
        headers: { 'content-type': 'application/pdf', 'content-length': String(PDF_BYTES.length) },
        expires_at: expect.any(String),
        max_size_bytes: 10 * 1024 * 1024,
      });
      // FILE_UPLOAD_URL_TTL_SECONDS: 15 minutes by default.
      const expiresIn = Date.parse(upload.expires_at) - before;
      expect(expiresIn).toBeGreaterThan(14 * 60_000);
      expect(expiresIn).toBeLessThanOrEqual(15 * 60_000 + 5_000);
      expect((await api.putBytes(upload, PDF_BYTES)).status).toBe(200);
    });

    it('decision 0008: content_type must be application/pdf, image/jpeg or image/png and content_length 1 byte to 10 MiB', async () => {
      const customer = await fullWith();
      const route = `/customer/${customer.id}/document/presigned-url`;
      await expectInvalid(
        await api.call(caller.token, 'POST', route, { content_type: 'image/gif', content_length: 0 }),
        {
          content_type: /must be one of application\/pdf, image\/jpeg, image\/png/,
          content_length: /at least 1/,
        },
      );
      await expectInvalid(
        await api.call(caller.token, 'POST', route, {
          content_type: 'image/png',
          content_length: 10 * 1024 * 1024 + 1,
        }),
        { content_length: /at most 10485760 bytes/ },
      );
      await expectInvalid(await api.call(caller.token, 'POST', route, {}), {
        content_type: /is required/,
        content_length: /is required/,
      });
    });

    it('decision 0008: the storage does not take other bytes than those the URL was signed for', async () => {
      const customer = await fullWith();
      const upload = await api.presign(caller.token, `/customer/${customer.id}/document/presigned-url`, {
        content_type: 'application/pdf',
        content_length: PDF_BYTES.length,
      });
      // Another type than the signed one: the storage refuses it, or customer-kyb refuses the file.
      const stored = await api.putBytes(upload, PDF_BYTES, { ...upload.headers, 'content-type': 'image/png' });
      if (stored.status === 200) {
        await expectInvalid(
          await api.call(caller.token, 'POST', `/customer/${customer.id}/document`, {
            type: 'CERTIFICATE_OF_INCORPORATION',
            file_id: upload.file_id,
          }),
          { file_id: /is not what was requested/ },
        );
      } else expect(stored.status).toBe(403);
    });

    it('decision 0008: a file is registered only after it was uploaded (422 FILE_NOT_UPLOADED)', async () => {
      const customer = await fullWith();
      const owner = customer.owners[0]!;
      const upload = await api.presign(caller.token, `/customer/${customer.id}/owner/${owner.id}/file/presigned-url`, {
        slot: 'id_document_front',
        content_type: 'image/png',
        content_length: PNG_BYTES.length,
      });
      const { code } = await expectInvalid(await attach(customer.id, owner.id, 'id_document_front', upload.file_id), {
        file_id: /has not been uploaded yet: PUT it to its upload_url first/,
      });
      expect(code).toBe('FILE_NOT_UPLOADED');
      // Once uploaded, the same file is accepted.
      expect((await api.putBytes(upload, PNG_BYTES)).status).toBe(200);
      const attached = await api.attachOwnerFile(
        caller.token,
        customer.id,
        owner.id,
        'id_document_front',
        upload.file_id,
      );
      expect(attached.id_document_front).toMatchObject({ file_id: upload.file_id });
    });

    it('decision 0008: a file is attached once (422 FILE_ALREADY_ATTACHED)', async () => {
      const customer = await fullWith();
      const owner = customer.owners[0]!;
      const fileId = await api.ownerFile(caller.token, customer.id, owner.id, 'id_document_front');
      await api.attachOwnerFile(caller.token, customer.id, owner.id, 'id_document_front', fileId);
      const { code } = await expectInvalid(await attach(customer.id, owner.id, 'id_document_front', fileId), {
        file_id: /is already attached; upload a new file/,
      });
      expect(code).toBe('FILE_ALREADY_ATTACHED');
    });

    it('decision 0008: a file issued for one purpose, slot or owner serves no other', async () => {
      const customer = await api.createCustomer(
        caller.token,
        businessBody({
          owners: [
            ownerBody({ id_document_type: 'id_card', ownership_percentage: 50 }),
            ownerBody({ ownership_percentage: 50 }),
          ],
        }),
      );
      const [first, second] = customer.owners;
      const documentFile = await api.documentFile(caller.token, customer.id);
      await expectInvalid(await attach(customer.id, first!.id, 'id_document_front', documentFile), {
        file_id: /was issued for a KYB document/,
      });
      const front = await api.ownerFile(caller.token, customer.id, first!.id, 'id_document_front');
      await expectInvalid(await attach(customer.id, first!.id, 'id_document_back', front), {
        file_id: /was issued for id_document_front, not id_document_back/,
      });
      await expectInvalid(await attach(customer.id, second!.id, 'id_document_front', front), {
        file_id: /was issued for another owner/,
      });
      const ownerFileAsDocument = await api.call(caller.token, 'POST', `/customer/${customer.id}/document`, {
        type: 'CERTIFICATE_OF_INCORPORATION',
        file_id: front,
      });
      await expectInvalid(ownerFileAsDocument, { file_id: /was issued for an owner ID file/ });
    });

    it('decision 0008: a file of another customer is refused', async () => {
      const [one, two] = await Promise.all([fullWith(), fullWith()]);
      const fileId = await api.documentFile(caller.token, one.id);
      await expectInvalid(
        await api.call(caller.token, 'POST', `/customer/${two.id}/document`, {
          type: 'CAC_STATUS_REPORT',
          file_id: fileId,
        }),
        { file_id: /was not issued for this customer/ },
      );
    });
  });

  describe('owner ID file slots (seed 2.2)', () => {
    it('seed 2.2: a passport takes a front and must not have a back: the back is refused at the presigned URL', async () => {
      const customer = await fullWith({ id_document_type: 'passport' });
      const owner = customer.owners[0]!;
      await expectInvalid(
        await ownerPresign(customer.id, owner.id, {
          slot: 'id_document_back',
          content_type: 'image/png',
          content_length: PNG_BYTES.length,
        }),
        { slot: /id_document_back must not be uploaded for a passport/ },
      );
      const attached = await api.attachOwnerFile(caller.token, customer.id, owner.id, 'id_document_front');
      expect(attached).toMatchObject({
        id_document_front: { file_id: expect.any(String), content_type: 'image/png', size_bytes: PNG_BYTES.length },
        id_document_back: null,
      });
    });

    it('seed 2.2: a back uploaded before the document type became passport is refused at attach', async () => {
      const customer = await fullWith({ id_document_type: 'id_card' });
      const owner = customer.owners[0]!;
      const back = await api.ownerFile(caller.token, customer.id, owner.id, 'id_document_back');
      await api.updateCustomer(caller.token, customer.id, { owners: [{ id: owner.id, id_document_type: 'passport' }] });
      await expectInvalid(await attach(customer.id, owner.id, 'id_document_back', back), {
        slot: /id_document_back must not be uploaded for a passport/,
      });
    });

    it.each(['drivers_license', 'id_card', 'resident_permit'])(
      'seed 2.2: a %s takes a front and a back',
      async (type) => {
        const customer = await fullWith({ id_document_type: type });
        const owner = customer.owners[0]!;
        await api.attachOwnerFile(caller.token, customer.id, owner.id, 'id_document_front');
        const withBack = await api.attachOwnerFile(caller.token, customer.id, owner.id, 'id_document_back');
        expect(withBack).toMatchObject({
          id: owner.id,
          id_document_front: {
            content_type: 'image/png',
            size_bytes: PNG_BYTES.length,
            uploaded_at: expect.any(String),
          },
          id_document_back: { content_type: 'image/png', size_bytes: PNG_BYTES.length },
        });
        expect((await api.getCustomer(caller.token, customer.id)).owners[0]).toMatchObject({
          id_document_front: withBack.id_document_front,
          id_document_back: withBack.id_document_back,
        });
      },
    );

    it('seed 2.2: the slots are id_document_front and id_document_back only', async () => {
      const customer = await fullWith();
      const owner = customer.owners[0]!;
      await expectInvalid(
        await ownerPresign(customer.id, owner.id, { slot: 'selfie', content_type: 'image/png', content_length: 10 }),
        { slot: /must be id_document_front or id_document_back/ },
      );
      await expectInvalid(
        await ownerPresign(customer.id, owner.id, { content_type: 'image/png', content_length: 10 }),
        {
          slot: /is required: id_document_front or id_document_back/,
        },
      );
    });

    it('seed 2.2: attaching a file to a filled slot replaces the file', async () => {
      const customer = await fullWith();
      const owner = customer.owners[0]!;
      const first = await api.attachOwnerFile(caller.token, customer.id, owner.id, 'id_document_front');
      const second = await api.attachOwnerFile(caller.token, customer.id, owner.id, 'id_document_front');
      expect(second.id_document_front?.file_id).not.toBe(first.id_document_front?.file_id);
      expect((await api.getCustomer(caller.token, customer.id)).owners[0]!.id_document_front?.file_id).toBe(
        second.id_document_front?.file_id,
      );
    });

    it('decision 0008: an owner is removed with DELETE /customer/{customer}/owner/{owner}', async () => {
      const customer = await api.createCustomer(
        caller.token,
        businessBody({ owners: [ownerBody({ ownership_percentage: 50 }), ownerBody({ ownership_percentage: 50 })] }),
      );
      const [kept, removed] = customer.owners;
      const after = await api.removeOwner(caller.token, customer.id, removed!.id);
      expect(after.owners.map((owner) => owner.id)).toEqual([kept!.id]);
      expect((await api.getCustomer(caller.token, customer.id)).owners.map((owner) => owner.id)).toEqual([kept!.id]);
      await expectError(await api.call(caller.token, 'DELETE', `/customer/${customer.id}/owner/${removed!.id}`), 404, {
        code: 'OWNER_NOT_FOUND',
      });
    });

    it('decision 0008: an unknown owner is 404 on the owner file routes', async () => {
      const customer = await fullWith();
      const unknown = '00000000-0000-4000-8000-000000000000';
      await expectError(
        await ownerPresign(customer.id, unknown, {
          slot: 'id_document_front',
          content_type: 'image/png',
          content_length: 10,
        }),
        404,
        { code: 'OWNER_NOT_FOUND' },
      );
      await expectError(await attach(customer.id, unknown, 'id_document_front', unknown), 404, {
        code: 'OWNER_NOT_FOUND',
      });
    });
  });

  describe('KYB documents (seed 2.3)', () => {
    it('seed 2.3: a document registers (201) as PENDING with its type, file and empty admin_comments', async () => {
      const customer = await fullWith();
      const document = await api.registerDocument(caller.token, customer.id, 'CERTIFICATE_OF_INCORPORATION');
      expect(document).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: 'CERTIFICATE_OF_INCORPORATION',
        status: 'PENDING',
        admin_comments: [],
        file: {
          file_id: expect.any(String),
          content_type: 'application/pdf',
          size_bytes: PDF_BYTES.length,
          uploaded_at: expect.any(String),
        },
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect((await api.getCustomer(caller.token, customer.id)).documents).toEqual([document]);
    });

    it.each(FORMATION_TYPES)('seed 2.3: %s is a formation type: it satisfies readiness check 7', async (type) => {
      const customer = await api.createCustomer(minimalCaller.token, businessBody());
      await api.registerDocument(minimalCaller.token, customer.id, type);
      expect((await api.submit(minimalCaller.token, customer.id)).verification_status).toBe('PROCESSING');
    });

    it('seed 2.3: other document types register but do not satisfy readiness check 7', async () => {
      const customer = await api.createCustomer(minimalCaller.token, businessBody());
      for (const type of OTHER_TYPES) {
        expect((await api.registerDocument(minimalCaller.token, customer.id, type)).type).toBe(type);
      }
      await expectInvalid(await api.call(minimalCaller.token, 'POST', `/customer/${customer.id}/submit`), {
        documents:
          /must include at least one formation document \(CERTIFICATE_OF_INCORPORATION, ARTICLES_OF_INCORPORATION, BENEFICIAL_OWNERSHIP_CERTIFICATE, INCORPORATION_DOCUMENTS, CAC_STATUS_REPORT\)/,
      });
    });

    it('decision 0008: a document type outside the list is 422; type and file_id are required', async () => {
      const customer = await fullWith();
      const fileId = await api.documentFile(caller.token, customer.id);
      await expectInvalid(
        await api.call(caller.token, 'POST', `/customer/${customer.id}/document`, {
          type: 'PASSPORT',
          file_id: fileId,
        }),
        { type: /must be one of CERTIFICATE_OF_INCORPORATION/ },
      );
      await expectInvalid(await api.call(caller.token, 'POST', `/customer/${customer.id}/document`, {}), {
        type: /is required/,
        file_id: /is required/,
      });
    });

    it('decision 0008: PUT /customer/{customer}/document/{document} replaces the file and may change the type', async () => {
      const customer = await fullWith();
      const document = await api.registerDocument(caller.token, customer.id, 'INCORPORATION_DOCUMENTS');
      const replaced = await api.replaceDocument(caller.token, customer.id, document.id, { type: 'CAC_STATUS_REPORT' });
      expect(replaced).toMatchObject({ id: document.id, type: 'CAC_STATUS_REPORT', status: 'PENDING' });
      expect(replaced.file?.file_id).not.toBe(document.file?.file_id);
      await expectError(
        await api.call(caller.token, 'PUT', `/customer/${customer.id}/document/00000000-0000-4000-8000-000000000000`, {
          file_id: '00000000-0000-4000-8000-000000000000',
        }),
        404,
        { code: 'DOCUMENT_NOT_FOUND' },
      );
    });

    it('decision 0008: KYB documents are for business customers (422 for an individual)', async () => {
      const individual = await api.createCustomer(caller.token, individualBody());
      const { code } = await expectInvalid(
        await api.call(caller.token, 'POST', `/customer/${individual.id}/document/presigned-url`, {
          content_type: 'application/pdf',
          content_length: 10,
        }),
        { customer: /KYB documents are for business customers/ },
      );
      expect(code).toBe('NOT_A_BUSINESS');
    });
  });

  describe('individual ID files (seed 4.4, seed 9)', () => {
    it('seed 4.4: POST /file/get-presigned-url takes file_category identity_front or identity_back; POST /customer/{id}/files attaches them without triggering verification', async () => {
      const individual = await api.createCustomer(
        caller.token,
        individualBody({ id_type: 'id_card', id_number: 'N123' }),
      );
      const upload = (file_category: string) =>
        api.uploadFile(caller.token, '/file/get-presigned-url', {
          customer_id: individual.id,
          file_category,
          content_type: 'image/jpeg',
        });
      const [front, back] = [await upload('identity_front'), await upload('identity_back')];
      const customer = await jsonOf<{ data: CustomerJson }>(
        await api.call(caller.token, 'POST', `/customer/${individual.id}/files`, {
          id_file: front,
          id_file_back: back,
        }),
        200,
        'attach individual files',
      );
      expect(customer.data).toMatchObject({
        verification_status: 'PENDING',
        id_file: { file_id: front, content_type: 'image/jpeg' },
        id_file_back: { file_id: back, content_type: 'image/jpeg' },
      });
      await expectInvalid(
        await api.call(caller.token, 'POST', '/file/get-presigned-url', {
          customer_id: individual.id,
          file_category: 'selfie',
          content_type: 'image/jpeg',
          content_length: 10,
        }),
        { file_category: /must be identity_front or identity_back/ },
      );
    });

    it('seed 9: for a business customer the legacy individual file routes are 422 pointing to the KYB routes', async () => {
      const business = await fullWith();
      const { code } = await expectInvalid(
        await api.call(caller.token, 'POST', '/file/get-presigned-url', {
          customer_id: business.id,
          file_category: 'identity_front',
          content_type: 'image/png',
          content_length: 10,
        }),
        { customer_id: /legacy file-based verification no longer applies to business customers/ },
      );
      expect(code).toBe('NOT_AN_INDIVIDUAL');
      await expectInvalid(
        await api.call(caller.token, 'POST', `/customer/${business.id}/files`, {
          id_file: '00000000-0000-4000-8000-000000000000',
        }),
        { customer: /document\/presigned-url.*owner\/\{owner\}\/file\/presigned-url/ },
      );
      expect((await api.getCustomer(caller.token, business.id)).verification_status).toBe('PENDING');
    });
  });
});
