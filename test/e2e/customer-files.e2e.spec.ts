import {
  businessBody,
  expectInvalid,
  individualBody,
  jsonOf,
  ownerBody,
  PDF_BYTES,
  type CustomerCaller,
  type CustomerJson,
} from '../support/customers.js';
import { Platform } from '../support/platform.js';

describe('customers: owners, owner ID files and KYB documents (seed 2.2, 2.3, 4.4; decision 0008)', () => {
  const platform = Platform.shared();
  const api = platform.customers;
  let caller: CustomerCaller;

  beforeAll(async () => {
    await platform.start();
    caller = await api.caller();
  });
  afterAll(() => platform.stop());

  const fullWith = (owner: Record<string, unknown> = {}): Promise<CustomerJson> =>
    api.createCustomer(caller.token, businessBody({ owners: [ownerBody(owner)] }));

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
  });
});
