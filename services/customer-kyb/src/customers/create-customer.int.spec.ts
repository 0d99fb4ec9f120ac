import {
  CustomerType,
  IdDocumentType,
  KybScope,
  ReviewStatus,
  VerificationStatus,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { dateOf } from '../../test/customer-kyb-spec-kit.js';
import {
  businessBody,
  customerSpecKit,
  expectInvalid,
  fieldOf,
  individualBody,
  type PlatformActor,
  dataOf,
  nth,
} from '../../test/customers/customer-spec-kit.js';

// POST /customer as customer-kyb serves it (seed 2.1, 2.2, 4.4, 5, 8), against real PostgreSQL and a
// real identity gRPC server for the MINIMAL allow-list. The field formats are the pure rules'
// (rules/*.spec.ts); here each rule family is held at the use case: refused with the field named,
// nothing written, and what a success writes in one transaction.

describe('customer-kyb: creating a customer (real PostgreSQL)', () => {
  const kit = customerSpecKit('create_customer');
  let actor: PlatformActor;
  const create = (body: Record<string, unknown>, who: PlatformActor = actor) => kit.create(who, body);

  beforeAll(async () => {
    await kit.start();
    actor = kit.platform();
  });
  afterAll(() => kit.stop());

  describe('what a create writes', () => {
    it('seed 2.1: a business is PENDING with every business field (null when unset), and its audit entry and customer.created commit with it', async () => {
      const body = businessBody({ trading_name: 'Acme' });
      const customer = await create(body);
      expect(customer).toMatchObject({
        businessId: actor.businessId,
        type: CustomerType.BUSINESS,
        kybScope: KybScope.FULL,
        verificationStatus: VerificationStatus.PENDING,
        owners: [],
        documents: [],
      });
      expect(customer.submittedAt).toBeUndefined();
      expect(dataOf(customer)).toMatchObject({
        business_name: body.business_name,
        registration_number: body.registration_number,
        incorporation_country: 'NG',
        country: 'NG',
        trading_name: 'Acme',
        website: null,
        operating_country: null,
      });
      // decision 0061: the typed data beside the Struct, unset where the Struct says null.
      expect(customer.data).toMatchObject({
        case: 'business',
        value: { businessName: body.business_name, country: 'NG', tradingName: 'Acme' },
      });
      expect(customer.data.value).not.toHaveProperty('website');
      for (const field of ['first_name', 'last_name', 'id_type', 'id_number', 'date_of_birth']) {
        expect({ field, present: field in dataOf(customer) }).toEqual({ field, present: false });
      }
      expect(dateOf(customer.createdAt)).toEqual(kit.clock.now());
      expect(await kit.current(actor, customer.id)).toEqual(customer);
      expect(await kit.auditOf(customer.id)).toEqual([
        { action: 'customer.created', actor: actor.name, request_id: actor.requestId, changes: { owners_added: [] } },
      ]);
      const [created] = await kit.outboxEvents(customer.id);
      expect(await kit.eventCases(customer.id)).toEqual(['customerCreated']);
      expect(created?.topic).toBe(kit.context().topic);
      expect(created?.event).toMatchObject({
        businessId: actor.businessId,
        payload: {
          case: 'customerCreated',
          value: {
            customerId: customer.id,
            type: CustomerType.BUSINESS,
            scope: KybScope.FULL,
            status: VerificationStatus.PENDING,
          },
        },
      });
    });

    it('seed 2.1: an individual has no kyb_scope, owners, documents or ID files; its fields are the individual ones', async () => {
      const customer = await create(individualBody({ id_type: 'passport', id_number: 'A123' }));
      expect(customer).toMatchObject({
        type: CustomerType.INDIVIDUAL,
        kybScope: KybScope.UNSPECIFIED,
        owners: [],
        documents: [],
        idFiles: [],
      });
      expect(dataOf(customer)).toMatchObject({
        first_name: 'Ada',
        id_type: 'passport',
        id_number: 'A123',
        date_of_birth: null,
      });
      expect(customer.data).toMatchObject({
        case: 'individual',
        value: { firstName: 'Ada', idType: IdDocumentType.PASSPORT, idNumber: 'A123' },
      });
      expect(customer.data.value).not.toHaveProperty('dateOfBirth');
      for (const field of ['business_name', 'operating_country']) {
        expect({ field, present: field in dataOf(customer) }).toEqual({ field, present: false });
      }
    });

    it('seed 2.2: owners are PENDING with empty admin_comments and every owner field, in the order sent, named in the audit entry', async () => {
      const customer = await create(
        businessBody({
          owners: [
            kit.ownerBody({ ownership_percentage: 60, title: 'CEO' }),
            kit.ownerBody({ ownership_percentage: 40 }),
          ],
        }),
      );
      expect(customer.owners).toHaveLength(2);
      expect(customer.owners[0]).toMatchObject({ status: ReviewStatus.PENDING, adminComments: [], idFiles: [] });
      expect(dataOf(nth(customer.owners))).toMatchObject({
        first_name: 'Ada',
        ownership_percentage: 60,
        title: 'CEO',
        tin: null,
      });
      expect(customer.owners[0]?.data).toMatchObject({
        firstName: 'Ada',
        ownershipPercentage: '60',
        title: 'CEO',
      });
      expect(customer.owners[0]?.data).not.toHaveProperty('tin');
      expect(customer.owners.map((owner) => fieldOf(owner, 'ownership_percentage'))).toEqual([60, 40]);
      expect((await kit.auditOf(customer.id))[0]?.changes).toEqual({ owners_added: customer.owners.map((o) => o.id) });
    });
  });

  describe('seed 5 and seed 2.1: the KYB scope', () => {
    it('seed 5: an allow-listed platform gets MINIMAL when kyb_scope is omitted, and may send MINIMAL or FULL', async () => {
      const listed = kit.platform({ minimalAllowed: true });
      expect((await create(businessBody(), listed)).kybScope).toBe(KybScope.MINIMAL);
      expect((await create(businessBody({ kyb_scope: 'MINIMAL' }), listed)).kybScope).toBe(KybScope.MINIMAL);
      const full = await create(businessBody({ kyb_scope: 'FULL', owners: [kit.ownerBody()] }), listed);
      expect(full).toMatchObject({
        kybScope: KybScope.FULL,
        owners: [expect.objectContaining({ status: ReviewStatus.PENDING })],
      });
    });

    it('seed 5, seed 7: a platform not on the list gets FULL by default, and MINIMAL is a 422 naming kyb_scope; the list is read at each create', async () => {
      const notListed = kit.platform();
      expect((await create(businessBody(), notListed)).kybScope).toBe(KybScope.FULL);
      await expectInvalid(create(businessBody({ kyb_scope: 'MINIMAL' }), notListed), {
        kyb_scope: /MINIMAL is not available to this platform \(it is not allow-listed for MINIMAL KYB\)/,
      });
      expect(await kit.customerCount(notListed.businessId)).toBe(1);
      kit.allowMinimal(notListed.businessId);
      expect((await create(businessBody(), notListed)).kybScope).toBe(KybScope.MINIMAL);
      kit.allowMinimal(notListed.businessId, false);
      expect((await create(businessBody(), notListed)).kybScope).toBe(KybScope.FULL);
    });

    it('seed 2.1: kyb_scope is FULL or MINIMAL exactly; seed 1: a MINIMAL business takes no owners', async () => {
      const listed = kit.platform({ minimalAllowed: true });
      await expectInvalid(create(businessBody({ kyb_scope: 'LITE' }), listed), {
        kyb_scope: /must be FULL or MINIMAL; got "LITE"/,
      });
      await expectInvalid(create(businessBody({ kyb_scope: 'full' }), listed), {
        kyb_scope: /must be FULL or MINIMAL/,
      });
      await expectInvalid(create(businessBody({ owners: [kit.ownerBody()] }), listed), {
        owners: /do not apply to a MINIMAL KYB customer.*upgrade-kyb-scope/,
      });
      expect(await kit.customerCount(listed.businessId)).toBe(0);
    });

    it('seed 2.1: a business stored with no scope (created before scopes existed) reads as MINIMAL', async () => {
      const customer = await create(businessBody());
      await query(kit.databaseUrl(), 'update customer set kyb_scope = null where id = $1', [customer.id]);
      expect((await kit.current(actor, customer.id)).kybScope).toBe(KybScope.MINIMAL);
    });
  });

  describe('seed 2.1 rule 1: fields that do not apply to the type fail the whole request', () => {
    it.each<[string, Record<string, unknown>, Record<string, RegExp>]>([
      [
        'operating_* on an individual',
        individualBody({ operating_country: 'NG', operating_city: 'Lagos' }),
        {
          operating_country: /applies only to business customers/,
          operating_city: /applies only to business customers/,
        },
      ],
      [
        'KYB fields, owners and kyb_scope on an individual',
        individualBody({ business_name: 'Acme', registration_number: 'RC1', kyb_scope: 'FULL', owners: [{}] }),
        {
          business_name: /applies only to business customers/,
          registration_number: /applies only to business customers/,
          kyb_scope: /business/,
          owners: /business/,
        },
      ],
      [
        'seed 7: id_type or id_number on a business',
        businessBody({ id_type: 'passport', id_number: 'A1' }),
        { id_type: /applies only to individual customers/, id_number: /applies only to individual customers/ },
      ],
      [
        'individual fields on a business',
        businessBody({ first_name: 'Ada', date_of_birth: '1980-01-01' }),
        { first_name: /applies only to individual customers/, date_of_birth: /applies only to individual customers/ },
      ],
      [
        'a field of the other type sent as null',
        individualBody({ operating_country: null }),
        { operating_country: /applies only to business customers/ },
      ],
    ])('%s is 422 naming each field, and nothing is written', async (_case, body, expected) => {
      const who = kit.platform();
      await expectInvalid(create(body, who), expected);
      expect(await kit.customerCount(who.businessId)).toBe(0);
    });
  });

  describe('seed 2.1 rule 3: (registration_number, incorporation_country) is unique per platform', () => {
    it('a second business with the pair is 422 DUPLICATE_REGISTRATION naming both fields; nothing of it is written', async () => {
      const who = kit.platform();
      const first = await create(businessBody(), who);
      const number = fieldOf(first, 'registration_number');
      const duplicate = new RegExp(`"${String(number)}" in NG is already another of your business customers`);
      await expectInvalid(
        create(businessBody({ registration_number: number }), who),
        { registration_number: duplicate, incorporation_country: duplicate },
        'DUPLICATE_REGISTRATION',
      );
      expect(await kit.customerCount(who.businessId)).toBe(1);
      const outboxRows = await query(
        kit.databaseUrl(),
        'select 1 from outbox o join customer c on c.id::text = o.message_key where c.business_id = $1',
        [who.businessId],
      );
      expect(outboxRows).toHaveLength(1);
    });

    it('the same number in another country, on another platform, or on individuals is allowed', async () => {
      const who = kit.platform();
      const number = `RC${randomUUID().slice(0, 8).toUpperCase()}`;
      await create(businessBody({ registration_number: number }), who);
      const ghana = await create(
        businessBody({ registration_number: number, incorporation_country: 'GH', country: 'GH' }),
        who,
      );
      expect(dataOf(ghana)).toMatchObject({ registration_number: number, incorporation_country: 'GH' });
      expect(
        fieldOf(await create(businessBody({ registration_number: number }), kit.platform()), 'registration_number'),
      ).toBe(number);
      await create(individualBody({ id_number: 'SAME-1' }), who);
      await create(individualBody({ id_number: 'SAME-1' }), who);
      expect(await kit.customerCount(who.businessId)).toBe(4);
    });

    it('two creates of the pair at once: one wins, the other is the same 422 (the unique index holds the race)', async () => {
      const who = kit.platform();
      const body = businessBody();
      const results = await Promise.allSettled([create(body, who), create(body, who)]);
      expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
      const lost = results.find((result) => result.status === 'rejected');
      expect(lost?.status === 'rejected' ? lost.reason : undefined).toMatchObject({ reason: 'DUPLICATE_REGISTRATION' });
      expect(await kit.customerCount(who.businessId)).toBe(1);
    });
  });

  describe('seed 2.1, 4.4, 8: the fields of a customer, each refused with its field named', () => {
    it.each<[string, Record<string, unknown>, Record<string, RegExp>]>([
      [
        'seed 4.4: the four business fields are required',
        { type: 'business' },
        {
          business_name: /is required/,
          registration_number: /is required/,
          incorporation_country: /is required/,
          country: /is required/,
        },
      ],
      ['type is required', { country: 'NG' }, { type: /is required: individual or business/ }],
      ['type is individual or business', businessBody({ type: 'company' }), { type: /must be individual or business/ }],
      [
        'country must equal incorporation_country',
        businessBody({ country: 'GH' }),
        { country: /must equal incorporation_country \(NG\)/ },
      ],
      ['country is required for an individual', individualBody({ country: undefined }), { country: /is required/ }],
      ['country is required for a business', businessBody({ country: undefined }), { country: /is required/ }],
      [
        'country codes are assigned alpha-2',
        businessBody({ country: 'XX', incorporation_country: 'XX' }),
        {
          country: /ISO 3166-1 alpha-2/,
          incorporation_country: /ISO 3166-1 alpha-2/,
        },
      ],
      ['country codes are upper case', individualBody({ country: 'ng' }), { country: /upper case: NG/ }],
      ['UK is reserved', individualBody({ country: 'UK' }), { country: /reserved.*use GB/ }],
      [
        'operating_country is required with another operating_* field',
        businessBody({ operating_city: 'Lagos', operating_street: '1 Marina Road' }),
        {
          operating_country: /is required when any other operating_\* field is sent/,
        },
      ],
      [
        'operating_zip_code is checked against operating_country',
        businessBody({ operating_country: 'US', operating_zip_code: 'SW1A 1AA' }),
        {
          operating_zip_code: /not a valid postal code for US/,
        },
      ],
      [
        'zip_code is checked against country',
        businessBody({ incorporation_country: 'US', country: 'US', zip_code: '1234' }),
        {
          zip_code: /not a valid postal code for US/,
        },
      ],
      [
        'business_type',
        businessBody({ business_type: 'something_else' }),
        {
          business_type:
            /must be one of corporation, government_entity, llc, non_profit, other, partnership, sole_proprietorship/,
        },
      ],
      [
        'source_of_funds',
        businessBody({ source_of_funds: 'OTHER' }),
        {
          source_of_funds:
            /must be one of business_revenue, business_loans, investment_income, third_party_funds, other/,
        },
      ],
      [
        'estimated_annual_revenue',
        businessBody({ estimated_annual_revenue: '0_100' }),
        {
          estimated_annual_revenue:
            /must be one of 0_99999, 100000_499999, 500000_999999, 1000000_4999999, 5000000_24999999, 25000000_99999999, 100000000_249999999, 250000000_plus/,
        },
      ],
      [
        'account_purpose',
        businessBody({ account_purpose: 'something_else' }),
        {
          account_purpose:
            /must be one of receive_payments_for_goods_and_services, send_payments_for_goods_and_services, send_receive_funds_related_parties, other/,
        },
      ],
      [
        'incorporation_date today',
        businessBody({ incorporation_date: '2026-11-24' }),
        { incorporation_date: /must be in the past/ },
      ],
      [
        'incorporation_date in the future',
        businessBody({ incorporation_date: '2026-12-24' }),
        { incorporation_date: /must be in the past/ },
      ],
      [
        'incorporation_date not a real date',
        businessBody({ incorporation_date: '2023-02-29' }),
        { incorporation_date: /real calendar date/ },
      ],
      [
        'business_description over 2000',
        businessBody({ business_description: 'a'.repeat(2001) }),
        {
          business_description: /at most 2000 characters \(got 2001\)/,
        },
      ],
      ['website not a URI', businessBody({ website: 'acme dot com' }), { website: /http or https URI/ }],
      ['website not http(s)', businessBody({ website: 'ftp://acme.example' }), { website: /http or https URI/ }],
      [
        'expected_monthly_payments a fraction',
        businessBody({ expected_monthly_payments: 12.5 }),
        { expected_monthly_payments: /whole number/ },
      ],
      [
        'expected_monthly_payments a string',
        businessBody({ expected_monthly_payments: '12' }),
        {
          expected_monthly_payments: /whole number.*got a string/,
        },
      ],
      [
        'issue 4: fields the API returns but never accepts',
        businessBody({ id: randomUUID(), verification_status: 'VERIFIED', documents: [] }),
        {
          id: /is set by Corridor/,
          verification_status: /is set by Corridor/,
          documents: /POST \/customer\/\{id\}\/document/,
        },
      ],
      [
        'issue 4: every problem of a body at once',
        businessBody({
          country: 'GH',
          website: 'nope',
          owners: [{ first_name: 'x'.repeat(256), ownership_percentage: 101 }],
        }),
        {
          country: /must equal incorporation_country/,
          website: /http or https URI/,
          'owners.0.first_name': /at most 255 characters/,
          'owners.0.last_name': /is required/,
          'owners.0.ownership_percentage': /from 0 to 100/,
        },
      ],
    ])('%s', async (_rule, body, expected) => {
      const who = kit.platform();
      await expectInvalid(create(body, who), expected);
      expect(await kit.customerCount(who.businessId)).toBe(0);
    });

    it('each enum value of the lists, the limits themselves and an operating_country of its own are accepted', async () => {
      const accepted = await create(
        businessBody({
          business_type: 'sole_proprietorship',
          source_of_funds: 'third_party_funds',
          estimated_annual_revenue: '250000000_plus',
          account_purpose: 'send_receive_funds_related_parties',
          incorporation_date: '2026-11-23',
          business_description: 'a'.repeat(2000),
          website: 'https://acme.example/about',
          expected_monthly_payments: 40,
          operating_country: 'US',
          operating_city: 'San Francisco',
          operating_zip_code: '94103',
        }),
      );
      expect(dataOf(accepted)).toMatchObject({
        country: 'NG',
        operating_country: 'US',
        operating_zip_code: '94103',
        incorporation_date: '2026-11-23',
        expected_monthly_payments: 40,
      });
      expect(String(fieldOf(accepted, 'business_description'))).toHaveLength(2000);
    });
  });

  describe('owners (seed 2.2, seed 8)', () => {
    const withOwner = (owner: Record<string, unknown>, others: Record<string, unknown>[] = []) =>
      businessBody({ owners: [kit.ownerBody(owner), ...others] });

    it.each<[string, () => Record<string, unknown>, Record<string, RegExp>]>([
      [
        'first_name, last_name and ownership_percentage are required',
        () => businessBody({ owners: [{ email: 'x@example.com' }] }),
        {
          'owners.0.first_name': /is required/,
          'owners.0.last_name': /is required/,
          'owners.0.ownership_percentage': /is required/,
        },
      ],
      [
        'names are at most 255 characters',
        () => withOwner({ first_name: 'a'.repeat(256), last_name: 'b'.repeat(256) }),
        {
          'owners.0.first_name': /at most 255 characters \(got 256\)/,
          'owners.0.last_name': /at most 255 characters \(got 256\)/,
        },
      ],
      [
        'ownership_percentage over 100',
        () => withOwner({ ownership_percentage: 100.5 }),
        { 'owners.0.ownership_percentage': /from 0 to 100/ },
      ],
      [
        'ownership_percentage under 0',
        () => withOwner({ ownership_percentage: -1 }),
        { 'owners.0.ownership_percentage': /from 0 to 100/ },
      ],
      [
        'emails unique, case-insensitive',
        () =>
          withOwner({ email: 'Same@Example.com', ownership_percentage: 50 }, [
            kit.ownerBody({ email: 'same@example.com', ownership_percentage: 50 }),
          ]),
        {
          'owners.1.email': /must be unique within the customer \(case-insensitive\)/,
        },
      ],
      ['email is an address', () => withOwner({ email: 'not-an-email' }), { 'owners.0.email': /email address/ }],
      [
        'date_of_birth at least 18 years ago',
        () => withOwner({ date_of_birth: kit.isoDay(1, -18) }),
        {
          'owners.0.date_of_birth': /at least 18 years before today/,
        },
      ],
      [
        'nationality, country, id_document_country alpha-2',
        () => withOwner({ nationality: 'XX', country: 'Nigeria', id_document_country: 'UK' }),
        {
          'owners.0.nationality': /ISO 3166-1 alpha-2/,
          'owners.0.country': /ISO 3166-1 alpha-2/,
          'owners.0.id_document_country': /reserved.*use GB/,
        },
      ],
      [
        'street under 9',
        () => withOwner({ street: '1 Marina' }),
        { 'owners.0.street': /9 to 255 characters \(got 8\)/ },
      ],
      [
        'street over 255',
        () => withOwner({ street: 's'.repeat(256) }),
        { 'owners.0.street': /9 to 255 characters \(got 256\)/ },
      ],
      ['tin under 5', () => withOwner({ tin: '1234' }), { 'owners.0.tin': /5 to 50 characters \(got 4\)/ }],
      ['tin over 50', () => withOwner({ tin: '1'.repeat(51) }), { 'owners.0.tin': /5 to 50 characters \(got 51\)/ }],
      [
        'id_document_type',
        () => withOwner({ id_document_type: 'visa' }),
        {
          'owners.0.id_document_type': /must be one of passport, drivers_license, id_card, resident_permit/,
        },
      ],
      [
        'id_expiry_date today has expired',
        () => withOwner({ id_expiry_date: kit.isoDay(0) }),
        { 'owners.0.id_expiry_date': /must be after today/ },
      ],
      [
        'id_expiry_date in the past',
        () => withOwner({ id_expiry_date: kit.isoDay(-1) }),
        { 'owners.0.id_expiry_date': /expired/ },
      ],
      [
        'booleans are true or false (null is not set)',
        () => withOwner({ has_control: 'yes', is_signer: 1, is_pep: null, usa_tax_residency: false }),
        {
          'owners.0.has_control': /must be true or false, got a string/,
          'owners.0.is_signer': /must be true or false, got a number/,
        },
      ],
      [
        'zip_code against the owner country',
        () => withOwner({ country: 'US', zip_code: 'ABC' }),
        { 'owners.0.zip_code': /not a valid postal code for US/ },
      ],
      [
        'status, admin_comments and ID file slots are not input',
        () => withOwner({ status: 'APPROVED', admin_comments: [], id_document_front: randomUUID() }),
        {
          'owners.0.status': /is set by Corridor/,
          'owners.0.admin_comments': /is set by Corridor/,
          'owners.0.id_document_front': /POST \/customer\/\{id\}\/owner\/\{owner\}\/files/,
        },
      ],
    ])('seed 2.2: %s', async (_rule, body, expected) => {
      const who = kit.platform();
      await expectInvalid(create(body(), who), expected);
      expect(await kit.customerCount(who.businessId)).toBe(0);
    });

    it('seed 2.2, seed 8: the limits themselves are accepted', async () => {
      const customer = await create(
        businessBody({
          owners: [
            kit.ownerBody({
              ownership_percentage: 0,
              first_name: 'a'.repeat(255),
              last_name: 'b'.repeat(255),
              tin: '12345',
              street: '1 Marina ',
            }),
            kit.ownerBody({
              ownership_percentage: 100,
              tin: '9'.repeat(50),
              date_of_birth: kit.isoDay(0, -18),
              id_expiry_date: kit.isoDay(1),
            }),
          ],
        }),
      );
      expect(customer.owners.map((owner) => dataOf(owner))).toEqual([
        expect.objectContaining({ ownership_percentage: 0, tin: '12345', street: '1 Marina ' }),
        expect.objectContaining({
          ownership_percentage: 100,
          tin: '9'.repeat(50),
          date_of_birth: kit.isoDay(0, -18),
          id_expiry_date: kit.isoDay(1),
        }),
      ]);
      expect(String(fieldOf(nth(customer.owners), 'first_name'))).toHaveLength(255);
      // Another customer may have an owner with the same address.
      const email = String(fieldOf(nth(customer.owners), 'email'));
      await create(businessBody({ owners: [kit.ownerBody({ email })] }));
    });
  });
});
