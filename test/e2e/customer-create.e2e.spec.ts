import { businessBody, expectInvalid, individualBody, ownerBody, type CustomerCaller } from '../support/customers.js';
import { Platform } from '../support/platform.js';

const BUSINESS_FIELDS = [
  'business_name',
  'registration_number',
  'incorporation_country',
  'country',
  'trading_name',
  'business_type',
  'incorporation_date',
  'industry_type',
  'business_description',
  'website',
  'source_of_funds',
  'estimated_annual_revenue',
  'expected_monthly_payments',
  'account_purpose',
  'operating_country',
  'operating_street',
  'operating_city',
  'operating_state',
  'operating_zip_code',
  'street',
  'city',
  'state',
  'zip_code',
  'email',
  'phone',
];

describe('customers: create and update validation through the gateway (seed 2.1, 2.2, 4.4, 8)', () => {
  const platform = Platform.shared();
  const api = platform.customers;
  let caller: CustomerCaller;

  beforeAll(async () => {
    await platform.start();
    caller = await api.caller();
  });
  afterAll(() => platform.stop());

  const create = (body: Record<string, unknown>, who: CustomerCaller = caller) =>
    api.call(who.token, 'POST', '/customer', body);

  describe('responses (decision 0008)', () => {
    it('seed 2.1: a business customer is created PENDING (201) with every business field present, null when unset', async () => {
      const body = businessBody({ trading_name: 'Acme' });
      const response = await create(body);
      expect(response.status).toBe(201);
      const answer = (await response.json()) as { message: string; data: Record<string, unknown> };
      expect(answer.message).toEqual(expect.any(String));
      const customer = answer.data;
      expect(customer).toMatchObject({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: 'business',
        kyb_scope: 'FULL',
        verification_status: 'PENDING',
        business_name: body.business_name,
        registration_number: body.registration_number,
        incorporation_country: 'NG',
        country: 'NG',
        trading_name: 'Acme',
        website: null,
        operating_country: null,
        owners: [],
        documents: [],
        created_at: expect.any(String),
        updated_at: expect.any(String),
        submitted_at: null,
      });
      for (const field of BUSINESS_FIELDS)
        expect({ field, present: field in customer }).toEqual({ field, present: true });
      // Fields of the other type are not returned.
      for (const field of ['first_name', 'last_name', 'id_type', 'id_number', 'date_of_birth', 'id_file']) {
        expect({ field, present: field in customer }).toEqual({ field, present: false });
      }
      expect(await api.getCustomer(caller.token, String(customer.id))).toEqual(customer);
    });

    it('seed 2.1: an individual customer has no kyb_scope, owners or documents, and its ID file slots read null', async () => {
      const customer = await api.createCustomer(
        caller.token,
        individualBody({ id_type: 'passport', id_number: 'A123' }),
      );
      expect(customer).toMatchObject({
        type: 'individual',
        verification_status: 'PENDING',
        first_name: 'Ada',
        id_type: 'passport',
        id_number: 'A123',
        date_of_birth: null,
        id_file: null,
        id_file_back: null,
      });
      for (const field of ['kyb_scope', 'owners', 'documents', 'business_name', 'operating_country']) {
        expect({ field, present: field in customer }).toEqual({ field, present: false });
      }
    });

    it('seed 2.2: owners are returned with id, status PENDING, empty admin_comments and every owner field', async () => {
      const owner = ownerBody({ title: 'CEO' });
      const customer = await api.createCustomer(caller.token, businessBody({ owners: [owner] }));
      expect(customer.owners).toEqual([
        expect.objectContaining({
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          first_name: 'Ada',
          last_name: 'Obi',
          ownership_percentage: 100,
          status: 'PENDING',
          admin_comments: [],
          title: 'CEO',
          tin: null,
          id_document_front: null,
          id_document_back: null,
        }),
      ]);
    });
  });

  describe('seed 2.1 rule 2: null writes null, omitted is unchanged', () => {
    it('seed 2.1 rule 2: on update, a property sent as null writes null and an omitted property is left unchanged', async () => {
      const customer = await api.createCustomer(
        caller.token,
        businessBody({ trading_name: 'Acme', website: 'https://acme.example', industry_type: 'Retail' }),
      );
      const updated = await api.updateCustomer(caller.token, customer.id, {
        trading_name: null,
        industry_type: 'Fintech',
      });
      expect(updated).toMatchObject({
        trading_name: null,
        industry_type: 'Fintech',
        website: 'https://acme.example',
        business_name: customer.business_name,
      });
      expect(await api.getCustomer(caller.token, customer.id)).toMatchObject({
        trading_name: null,
        industry_type: 'Fintech',
        website: 'https://acme.example',
      });
    });

    it('seed 2.1 rule 2: the same holds for entries of owners; owners not listed are untouched; entries without id add an owner', async () => {
      const customer = await api.createCustomer(
        caller.token,
        businessBody({
          owners: [
            ownerBody({ ownership_percentage: 60, title: 'CEO', phone: '+2348000000000' }),
            ownerBody({ ownership_percentage: 40, first_name: 'Bola', title: 'CFO' }),
          ],
        }),
      );
      const [first, second] = customer.owners;
      const updated = await api.updateCustomer(caller.token, customer.id, {
        owners: [
          { id: first!.id, title: null, first_name: 'Adaeze' },
          ownerBody({ ownership_percentage: 0, first_name: 'Chidi' }),
        ],
      });
      expect(updated.owners).toEqual([
        expect.objectContaining({ id: first!.id, first_name: 'Adaeze', title: null, phone: '+2348000000000' }),
        expect.objectContaining({ id: second!.id, first_name: 'Bola', title: 'CFO' }),
        expect.objectContaining({ first_name: 'Chidi', status: 'PENDING' }),
      ]);
      expect((await api.getCustomer(caller.token, customer.id)).owners).toEqual(updated.owners);
    });
  });

  describe('seed 4.4 and the field formats of seed 2.1 and 8', () => {
    it('issue 18: a control character in any text field, an owner’s included, is 422 naming it; nothing is created', async () => {
      const before = await api.call(caller.token, 'GET', '/customer');
      const count = ((await before.json()) as { data: unknown[] }).data.length;
      await expectInvalid(
        await api.call(
          caller.token,
          'POST',
          '/customer',
          businessBody({ business_name: 'Acme\u0000', owners: [ownerBody({ first_name: 'A\u0007' })] }),
        ),
        { business_name: /control characters/, 'owners.0.first_name': /control characters/ },
      );
      const after = await api.call(caller.token, 'GET', '/customer');
      expect(((await after.json()) as { data: unknown[] }).data).toHaveLength(count);
    });

    it('issue 4 item 2: every problem of a body is reported at once, each under its field', async () => {
      await expectInvalid(
        await create(
          businessBody({
            country: 'GH',
            website: 'nope',
            owners: [{ first_name: 'x'.repeat(256), ownership_percentage: 101 }],
          }),
        ),
        {
          country: /must equal incorporation_country/,
          website: /http or https URI/,
          'owners.0.first_name': /at most 255 characters/,
          'owners.0.last_name': /is required/,
          'owners.0.ownership_percentage': /from 0 to 100/,
        },
      );
    });

    it('decision 0025: the gateway reports every wrong type, unknown field and word outside an enum at once', async () => {
      await expectInvalid(
        await create(
          businessBody({
            business_type: 'plc',
            surprise: true,
            website: 42,
            owners: [{ first_name: 'Ada', ownership_percentage: 'fifty', has_control: 'yes' }],
          }),
        ),
        {
          business_type: /must be one of/,
          surprise: /is not a recognised field/,
          website: /must be an http or https URI, got a number/,
          'owners.0.ownership_percentage': /must be a number from 0 to 100, got a string/,
          'owners.0.has_control': /must be true or false, got a string/,
        },
      );
    });

    it('issue 4 item 2: fields the API returns but never accepts are 422, naming where they belong', async () => {
      await expectInvalid(
        await create(
          businessBody({ id: '00000000-0000-4000-8000-000000000000', verification_status: 'VERIFIED', documents: [] }),
        ),
        {
          id: /is set by Corridor/,
          verification_status: /is set by Corridor/,
          documents: /POST \/customer\/\{id\}\/document/,
        },
      );
    });

    it('issue 4 item 2: a body that is not a JSON object is 422 at (body)', async () => {
      await expectInvalid(await api.call(caller.token, 'POST', '/customer', [businessBody()]), {
        '(body)': /must be a JSON object/,
      });
    });
  });
});
