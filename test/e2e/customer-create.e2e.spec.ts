import {
  businessBody,
  expectInvalid,
  individualBody,
  isoDay,
  ownerBody,
  registrationNumber,
  unique,
  type CustomerCaller,
} from '../support/customers.js';
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
  const update = (id: string, body: Record<string, unknown>) => api.call(caller.token, 'PUT', `/customer/${id}`, body);

  /** No customer of the caller carries this email: the failed request wrote nothing. */
  const expectNoCustomerWithEmail = async (email: string) => {
    const response = await api.call(caller.token, 'GET', `/customer?email=${encodeURIComponent(email)}`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: unknown[] }).data).toEqual([]);
  };

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

  describe('seed 2.1 rule 1: fields that do not apply to the type fail the whole request', () => {
    it('seed 2.1 rule 1: operating_* fields on an individual fail the whole request with 422', async () => {
      const email = `ind.${unique()}@example.com`;
      await expectInvalid(await create(individualBody({ email, operating_country: 'NG', operating_city: 'Lagos' })), {
        operating_country: /applies only to business customers/,
        operating_city: /applies only to business customers/,
      });
      await expectNoCustomerWithEmail(email);
    });

    it('seed 2.1 rule 1: KYB fields, owners and kyb_scope on an individual are 422, each named', async () => {
      await expectInvalid(
        await create(
          individualBody({
            business_name: 'Acme',
            registration_number: 'RC1',
            kyb_scope: 'FULL',
            owners: [ownerBody()],
          }),
        ),
        {
          business_name: /applies only to business customers/,
          registration_number: /applies only to business customers/,
          kyb_scope: /business/,
          owners: /business/,
        },
      );
    });

    it('seed 2.1 rule 1, seed 7: id_type or id_number on a business customer is 422', async () => {
      const email = `biz.${unique()}@example.com`;
      await expectInvalid(await create(businessBody({ email, id_type: 'passport', id_number: 'A1' })), {
        id_type: /applies only to individual customers/,
        id_number: /applies only to individual customers/,
      });
      await expectNoCustomerWithEmail(email);
    });

    it('seed 2.1 rule 1: individual fields on a business (first_name, date_of_birth) are 422', async () => {
      await expectInvalid(await create(businessBody({ first_name: 'Ada', date_of_birth: '1980-01-01' })), {
        first_name: /applies only to individual customers/,
        date_of_birth: /applies only to individual customers/,
      });
    });

    it('seed 2.1 rule 1: on update, a field of the other type is 422 and nothing is written', async () => {
      const customer = await api.createCustomer(caller.token, individualBody());
      await expectInvalid(await update(customer.id, { first_name: 'Changed', operating_city: 'Lagos' }), {
        operating_city: /applies only to business customers/,
      });
      await expectInvalid(await update(customer.id, { id_number: 'X1', business_name: 'Acme' }), {
        business_name: /applies only to business customers/,
      });
      expect(await api.getCustomer(caller.token, customer.id)).toMatchObject({ first_name: 'Ada', id_number: null });
    });

    it('seed 2.1 rule 1: fields that do not apply fail even when sent as null', async () => {
      await expectInvalid(await create(individualBody({ operating_country: null })), {
        operating_country: /applies only to business customers/,
      });
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

    it('seed 2.1 rule 2: a required field cannot be written null (422); omitting it is fine', async () => {
      const customer = await api.createCustomer(caller.token, businessBody({ owners: [ownerBody()] }));
      await expectInvalid(await update(customer.id, { business_name: null }), {
        business_name: /is required and cannot be null/,
      });
      await expectInvalid(await update(customer.id, { owners: [{ id: customer.owners[0]!.id, last_name: null }] }), {
        'owners.0.last_name': /is required and cannot be null/,
      });
      expect((await api.updateCustomer(caller.token, customer.id, { trading_name: 'Only this' })).business_name).toBe(
        customer.business_name,
      );
    });

    it('seed 2.1 rule 2, seed 4.4: POST /customer/{id}/kyc-data changes data fields with the same semantics, never owners', async () => {
      const customer = await api.createCustomer(
        caller.token,
        businessBody({ trading_name: 'Acme', industry_type: 'Retail' }),
      );
      const response = await api.call(caller.token, 'POST', `/customer/${customer.id}/kyc-data`, {
        trading_name: null,
        website: 'https://acme.example',
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { data: Record<string, unknown> }).data).toMatchObject({
        trading_name: null,
        website: 'https://acme.example',
        industry_type: 'Retail',
      });
      await expectInvalid(
        await api.call(caller.token, 'POST', `/customer/${customer.id}/kyc-data`, { owners: [ownerBody()] }),
        { owners: /cannot be sent to kyc-data/ },
      );
    });

    it('seed 2.1: type cannot change on update (sending the current one is harmless)', async () => {
      const customer = await api.createCustomer(caller.token, businessBody());
      await expectInvalid(await update(customer.id, { type: 'individual' }), {
        type: /cannot be changed after the customer is created \(this customer is business\)/,
      });
      expect((await api.updateCustomer(caller.token, customer.id, { type: 'business', trading_name: 'T' })).type).toBe(
        'business',
      );
    });

    it('seed 2.1 rule 2: an owners entry naming an owner the customer does not have is 422 at its id', async () => {
      const customer = await api.createCustomer(caller.token, businessBody({ owners: [ownerBody()] }));
      await expectInvalid(
        await update(customer.id, { owners: [{ id: '00000000-0000-4000-8000-000000000000', title: 'CEO' }] }),
        { 'owners.0.id': /is not an owner of this customer/ },
      );
    });
  });

  describe('seed 2.1 rule 3: (registration_number, incorporation_country) is unique per platform', () => {
    it('seed 2.1 rule 3: (registration_number, incorporation_country) is unique per platform', async () => {
      const number = registrationNumber();
      await api.createCustomer(caller.token, businessBody({ registration_number: number }));
      const { code } = await expectInvalid(await create(businessBody({ registration_number: number })), {
        registration_number: new RegExp(`already has registration_number "${number}" in NG`),
        incorporation_country: new RegExp(`already has registration_number "${number}" in NG`),
      });
      expect(code).toBe('DUPLICATE_REGISTRATION');
    });

    it('seed 2.1 rule 3: the same number with a different country is allowed', async () => {
      const number = registrationNumber();
      await api.createCustomer(caller.token, businessBody({ registration_number: number }));
      const ghana = await api.createCustomer(
        caller.token,
        businessBody({ registration_number: number, incorporation_country: 'GH', country: 'GH' }),
      );
      expect(ghana).toMatchObject({ registration_number: number, incorporation_country: 'GH' });
    });

    it('seed 2.1 rule 3: another platform may hold the same pair (the rule is per platform)', async () => {
      const number = registrationNumber();
      await api.createCustomer(caller.token, businessBody({ registration_number: number }));
      const other = await api.caller();
      expect(
        (await api.createCustomer(other.token, businessBody({ registration_number: number }))).registration_number,
      ).toBe(number);
    });

    it('seed 2.1 rule 3: an update that would duplicate the pair is 422 and changes nothing', async () => {
      const number = registrationNumber();
      await api.createCustomer(caller.token, businessBody({ registration_number: number }));
      const second = await api.createCustomer(caller.token, businessBody());
      const { code } = await expectInvalid(await update(second.id, { registration_number: number }), {
        registration_number: /already has registration_number/,
        incorporation_country: /already has registration_number/,
      });
      expect(code).toBe('DUPLICATE_REGISTRATION');
      expect((await api.getCustomer(caller.token, second.id)).registration_number).toBe(second.registration_number);
    });

    it('seed 2.1 rule 3: individuals are not business customers: the pair rule does not touch them', async () => {
      // Two individuals with the same id_number are two people's documents of different countries, say.
      await api.createCustomer(caller.token, individualBody({ id_number: 'SAME-1' }));
      await api.createCustomer(caller.token, individualBody({ id_number: 'SAME-1' }));
    });
  });

  describe('seed 2.1: countries, operating address and postal codes', () => {
    it('seed 2.1 (country): a business whose country differs from incorporation_country is 422 on create', async () => {
      await expectInvalid(await create(businessBody({ country: 'GH' })), {
        country: /must equal incorporation_country \(NG\)/,
      });
    });

    it('seed 2.1 (country): checked on update too; changing jurisdiction needs both sent together', async () => {
      const customer = await api.createCustomer(caller.token, businessBody());
      await expectInvalid(await update(customer.id, { country: 'GH' }), {
        country: /must equal incorporation_country \(NG\).*send country and incorporation_country together/,
      });
      await expectInvalid(await update(customer.id, { incorporation_country: 'GH' }), {
        incorporation_country: /must equal country \(NG\)/,
      });
      expect(
        await api.updateCustomer(caller.token, customer.id, { country: 'GH', incorporation_country: 'GH' }),
      ).toMatchObject({ country: 'GH', incorporation_country: 'GH' });
    });

    it('seed 2.1 (country): country is required for both types', async () => {
      await expectInvalid(await create(individualBody({ country: undefined })), { country: /is required/ });
      await expectInvalid(await create(businessBody({ country: undefined })), { country: /is required/ });
    });

    it('seed 2.1 (country): country codes are assigned ISO 3166-1 alpha-2 codes in upper case', async () => {
      await expectInvalid(await create(businessBody({ country: 'XX', incorporation_country: 'XX' })), {
        country: /ISO 3166-1 alpha-2/,
        incorporation_country: /ISO 3166-1 alpha-2/,
      });
      await expectInvalid(await create(individualBody({ country: 'ng' })), { country: /upper case: NG/ });
      await expectInvalid(await create(individualBody({ country: 'UK' })), { country: /reserved.*use GB/ });
    });

    it('seed 2.1 (operating_country): required whenever any other operating_* field is supplied, on create and update', async () => {
      await expectInvalid(await create(businessBody({ operating_city: 'Lagos', operating_street: '1 Marina Road' })), {
        operating_country: /is required when any other operating_\* field is sent/,
      });
      const customer = await api.createCustomer(caller.token, businessBody());
      await expectInvalid(await update(customer.id, { operating_state: 'Lagos' }), {
        operating_country: /is required when any other operating_\* field is sent/,
      });
    });

    it('seed 2.1 (operating_country): may differ from country and incorporation_country', async () => {
      const customer = await api.createCustomer(
        caller.token,
        businessBody({ operating_country: 'GB', operating_city: 'London', operating_zip_code: 'SW1A 1AA' }),
      );
      expect(customer).toMatchObject({ country: 'NG', incorporation_country: 'NG', operating_country: 'GB' });
    });

    it('seed 2.1 (operating_zip_code): validated against operating_country', async () => {
      await expectInvalid(await create(businessBody({ operating_country: 'US', operating_zip_code: 'SW1A 1AA' })), {
        operating_zip_code: /not a valid postal code for US/,
      });
      expect(
        (await api.createCustomer(caller.token, businessBody({ operating_country: 'US', operating_zip_code: '94103' })))
          .operating_zip_code,
      ).toBe('94103');
    });

    it('seed 2.1 (zip_code): validated against country, on create and on update', async () => {
      const us = { incorporation_country: 'US', country: 'US' };
      await expectInvalid(await create(businessBody({ ...us, zip_code: '1234' })), {
        zip_code: /not a valid postal code for US/,
      });
      const customer = await api.createCustomer(caller.token, businessBody({ ...us, zip_code: '94103' }));
      await expectInvalid(await update(customer.id, { zip_code: 'SW1A 1AA' }), {
        zip_code: /not a valid postal code for US/,
      });
    });
  });

  describe('seed 4.4 and the field formats of seed 2.1 and 8', () => {
    it('seed 4.4: a business requires business_name, registration_number, incorporation_country and country', async () => {
      await expectInvalid(await create({ type: 'business' }), {
        business_name: /is required/,
        registration_number: /is required/,
        incorporation_country: /is required/,
        country: /is required/,
      });
    });

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

    it('seed 2.1: type is required and is individual or business', async () => {
      await expectInvalid(await create({ country: 'NG' }), { type: /is required: individual or business/ });
      await expectInvalid(await create(businessBody({ type: 'company' })), {
        type: /must be one of individual, business/,
      });
    });

    it.each([
      [
        'business_type',
        ['corporation', 'government_entity', 'llc', 'non_profit', 'other', 'partnership', 'sole_proprietorship'],
      ],
      ['source_of_funds', ['business_revenue', 'business_loans', 'investment_income', 'third_party_funds', 'other']],
      [
        'estimated_annual_revenue',
        [
          '0_99999',
          '100000_499999',
          '500000_999999',
          '1000000_4999999',
          '5000000_24999999',
          '25000000_99999999',
          '100000000_249999999',
          '250000000_plus',
        ],
      ],
      [
        'account_purpose',
        [
          'receive_payments_for_goods_and_services',
          'send_payments_for_goods_and_services',
          'send_receive_funds_related_parties',
          'other',
        ],
      ],
    ])('seed 2.1 (%s): accepts exactly the listed values', async (field, values) => {
      await expectInvalid(await create(businessBody({ [field]: 'something_else' })), {
        [field]: new RegExp(`must be one of ${values.join(', ')}`),
      });
      // Exactly as written: another case is another value.
      await expectInvalid(await create(businessBody({ [field]: values.at(-1)!.toUpperCase() })), {
        [field]: /must be one of/,
      });
      const customer = await api.createCustomer(caller.token, businessBody({ [field]: values[0] }));
      for (const value of values) {
        expect((await api.updateCustomer(caller.token, customer.id, { [field]: value }))[field]).toBe(value);
      }
    });

    it('seed 2.1 (incorporation_date): must be in the past', async () => {
      await expectInvalid(await create(businessBody({ incorporation_date: isoDay(0) })), {
        incorporation_date: /must be in the past/,
      });
      await expectInvalid(await create(businessBody({ incorporation_date: isoDay(30) })), {
        incorporation_date: /must be in the past/,
      });
      await expectInvalid(await create(businessBody({ incorporation_date: '2023-02-29' })), {
        incorporation_date: /real calendar date/,
      });
      expect(
        (await api.createCustomer(caller.token, businessBody({ incorporation_date: isoDay(-1) }))).incorporation_date,
      ).toBe(isoDay(-1));
    });

    it('seed 2.1, seed 8: business_description is at most 2000 characters', async () => {
      await expectInvalid(await create(businessBody({ business_description: 'a'.repeat(2001) })), {
        business_description: /at most 2000 characters \(got 2001\)/,
      });
      const customer = await api.createCustomer(caller.token, businessBody({ business_description: 'a'.repeat(2000) }));
      expect(customer.business_description).toHaveLength(2000);
    });

    it('seed 2.1 (website): must be a uri', async () => {
      await expectInvalid(await create(businessBody({ website: 'acme dot com' })), { website: /http or https URI/ });
      await expectInvalid(await create(businessBody({ website: 'ftp://acme.example' })), {
        website: /http or https URI/,
      });
      expect(
        (await api.createCustomer(caller.token, businessBody({ website: 'https://acme.example/about' }))).website,
      ).toBe('https://acme.example/about');
    });

    it('seed 2.1 (expected_monthly_payments): an integer', async () => {
      await expectInvalid(await create(businessBody({ expected_monthly_payments: 12.5 })), {
        expected_monthly_payments: /whole number/,
      });
      await expectInvalid(await create(businessBody({ expected_monthly_payments: '12' })), {
        expected_monthly_payments: /whole number.*got a string/,
      });
      expect(
        (await api.createCustomer(caller.token, businessBody({ expected_monthly_payments: 40 })))
          .expected_monthly_payments,
      ).toBe(40);
    });

    it('issue 4 item 2: every problem of a body is reported at once, each under its field', async () => {
      await expectInvalid(
        await create(
          businessBody({
            country: 'GH',
            business_type: 'plc',
            website: 'nope',
            surprise: true,
            owners: [{ first_name: 'x'.repeat(256), ownership_percentage: 101 }],
          }),
        ),
        {
          country: /must equal incorporation_country/,
          business_type: /must be one of/,
          website: /http or https URI/,
          surprise: /is not a recognised field/,
          'owners.0.first_name': /at most 255 characters/,
          'owners.0.last_name': /is required/,
          'owners.0.ownership_percentage': /from 0 to 100/,
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

  describe('owners (seed 2.2, seed 8)', () => {
    const withOwner = (owner: Record<string, unknown>, extra: Record<string, unknown>[] = []) =>
      create(businessBody({ owners: [ownerBody(owner), ...extra] }));

    it('seed 2.2: first_name, last_name and ownership_percentage are required', async () => {
      await expectInvalid(await create(businessBody({ owners: [{ email: `x.${unique()}@example.com` }] })), {
        'owners.0.first_name': /is required/,
        'owners.0.last_name': /is required/,
        'owners.0.ownership_percentage': /is required/,
      });
    });

    it('seed 2.2, seed 8: first_name and last_name are at most 255 characters', async () => {
      await expectInvalid(await withOwner({ first_name: 'a'.repeat(256), last_name: 'b'.repeat(256) }), {
        'owners.0.first_name': /at most 255 characters \(got 256\)/,
        'owners.0.last_name': /at most 255 characters \(got 256\)/,
      });
      const customer = await api.createCustomer(
        caller.token,
        businessBody({ owners: [ownerBody({ first_name: 'a'.repeat(255), last_name: 'b'.repeat(255) })] }),
      );
      expect(customer.owners[0]!.first_name).toHaveLength(255);
    });

    it('seed 2.2: ownership_percentage is a number from 0 to 100', async () => {
      await expectInvalid(await withOwner({ ownership_percentage: 100.5 }), {
        'owners.0.ownership_percentage': /from 0 to 100/,
      });
      await expectInvalid(await withOwner({ ownership_percentage: -1 }), {
        'owners.0.ownership_percentage': /from 0 to 100/,
      });
      await expectInvalid(await withOwner({ ownership_percentage: '50' }), {
        'owners.0.ownership_percentage': /number from 0 to 100, got a string/,
      });
      const customer = await api.createCustomer(
        caller.token,
        businessBody({ owners: [ownerBody({ ownership_percentage: 0 }), ownerBody({ ownership_percentage: 100 })] }),
      );
      expect(customer.owners.map((owner) => owner.ownership_percentage)).toEqual([0, 100]);
    });

    it('seed 2.2: owner emails are unique within the customer, case-insensitive, on create and on update', async () => {
      const email = `Same.${unique()}@Example.com`;
      await expectInvalid(
        await withOwner({ email, ownership_percentage: 50 }, [
          ownerBody({ email: email.toLowerCase(), ownership_percentage: 50 }),
        ]),
        { 'owners.1.email': /must be unique within the customer \(case-insensitive\)/ },
      );
      const customer = await api.createCustomer(
        caller.token,
        businessBody({ owners: [ownerBody({ email, ownership_percentage: 50 })] }),
      );
      await expectInvalid(await update(customer.id, { owners: [ownerBody({ email: email.toUpperCase() })] }), {
        'owners.0.email': /must be unique within the customer/,
      });
      // Another customer may have an owner with the same address.
      await api.createCustomer(caller.token, businessBody({ owners: [ownerBody({ email })] }));
    });

    it('seed 2.2: email must be an email address', async () => {
      await expectInvalid(await withOwner({ email: 'not-an-email' }), { 'owners.0.email': /email address/ });
    });

    it('seed 2.2, seed 8: date_of_birth is at least 18 years ago', async () => {
      await expectInvalid(await withOwner({ date_of_birth: isoDay(1, -18) }), {
        'owners.0.date_of_birth': /at least 18 years before today/,
      });
      const customer = await api.createCustomer(
        caller.token,
        businessBody({ owners: [ownerBody({ date_of_birth: isoDay(-1, -18) })] }),
      );
      expect(customer.owners[0]!.date_of_birth).toBe(isoDay(-1, -18));
    });

    it('seed 2.2: nationality, country and id_document_country are ISO alpha-2', async () => {
      await expectInvalid(await withOwner({ nationality: 'XX', country: 'Nigeria', id_document_country: 'UK' }), {
        'owners.0.nationality': /ISO 3166-1 alpha-2/,
        'owners.0.country': /ISO 3166-1 alpha-2/,
        'owners.0.id_document_country': /reserved.*use GB/,
      });
    });

    it('seed 2.2, seed 8: street is 9 to 255 characters', async () => {
      await expectInvalid(await withOwner({ street: '1 Marina' }), {
        'owners.0.street': /9 to 255 characters \(got 8\)/,
      });
      await expectInvalid(await withOwner({ street: 's'.repeat(256) }), {
        'owners.0.street': /9 to 255 characters \(got 256\)/,
      });
      const customer = await api.createCustomer(
        caller.token,
        businessBody({ owners: [ownerBody({ street: '1 Marina ' })] }),
      );
      expect(customer.owners[0]!.street).toBe('1 Marina ');
    });

    it('seed 2.2, seed 8: tin is 5 to 50 characters', async () => {
      await expectInvalid(await withOwner({ tin: '1234' }), { 'owners.0.tin': /5 to 50 characters \(got 4\)/ });
      await expectInvalid(await withOwner({ tin: '1'.repeat(51) }), {
        'owners.0.tin': /5 to 50 characters \(got 51\)/,
      });
      const customer = await api.createCustomer(
        caller.token,
        businessBody({
          owners: [
            ownerBody({ tin: '12345', ownership_percentage: 50 }),
            ownerBody({ tin: '9'.repeat(50), ownership_percentage: 50 }),
          ],
        }),
      );
      expect(customer.owners.map((owner) => owner.tin)).toEqual(['12345', '9'.repeat(50)]);
    });

    it('seed 2.2: id_document_type is passport, drivers_license, id_card or resident_permit', async () => {
      await expectInvalid(await withOwner({ id_document_type: 'visa' }), {
        'owners.0.id_document_type': /must be one of passport, drivers_license, id_card, resident_permit/,
      });
    });

    it('seed 2.2: id_expiry_date is strictly in the future (a document expiring today has expired)', async () => {
      await expectInvalid(await withOwner({ id_expiry_date: isoDay(0) }), {
        'owners.0.id_expiry_date': /must be after today/,
      });
      await expectInvalid(await withOwner({ id_expiry_date: isoDay(-1) }), { 'owners.0.id_expiry_date': /expired/ });
      const customer = await api.createCustomer(
        caller.token,
        businessBody({ owners: [ownerBody({ id_expiry_date: isoDay(1) })] }),
      );
      expect(customer.owners[0]!.id_expiry_date).toBe(isoDay(1));
    });

    it('seed 2.2: the boolean fields take true or false only', async () => {
      await expectInvalid(
        await withOwner({ has_control: 'yes', is_signer: 1, is_pep: null, usa_tax_residency: false }),
        {
          'owners.0.has_control': /must be true or false, got a string/,
          'owners.0.is_signer': /must be true or false, got a number/,
        },
      );
    });

    it('seed 2.2: an owner zip_code is validated against the owner country', async () => {
      await expectInvalid(await withOwner({ country: 'US', zip_code: 'ABC' }), {
        'owners.0.zip_code': /not a valid postal code for US/,
      });
    });

    it('seed 2.2: status, admin_comments and ID file slots are not input fields of an owner', async () => {
      await expectInvalid(
        await withOwner({
          status: 'APPROVED',
          admin_comments: [],
          id_document_front: '00000000-0000-4000-8000-000000000000',
        }),
        {
          'owners.0.status': /is set by Corridor/,
          'owners.0.admin_comments': /is set by Corridor/,
          'owners.0.id_document_front': /POST \/customer\/\{id\}\/owner\/\{owner\}\/files/,
        },
      );
    });
  });
});
