import {
  businessBody,
  expectInvalid,
  individualBody,
  isoDay,
  ownerBody,
  registrationNumber,
  type CustomerCaller,
  type CustomerJson,
} from '../support/customers.js';
import { expectError, Platform } from '../support/platform.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** Owners whose shares add up to 100. */
const owners = (...shares: number[]) => shares.map((share) => ownerBody({ ownership_percentage: share }));

describe('customers: upgrade a business customer from MINIMAL to FULL KYB (seed 4.2, 3.1, 7)', () => {
  const platform = Platform.shared();
  const api = platform.customers;
  let caller: CustomerCaller;

  beforeAll(async () => {
    await platform.start();
    caller = await api.caller({ kybMinimalAllowed: true });
  });
  afterAll(() => platform.stop());

  const upgradeCall = (customerId: string, body: unknown, who: CustomerCaller = caller) =>
    api.call(who.token, 'POST', `/customer/${customerId}/upgrade-kyb-scope`, body);
  const minimal = (extra: Record<string, unknown> = {}) => api.createCustomer(caller.token, businessBody(extra));

  describe('success (seed 4.2)', () => {
    it('seed 4.2: 200 with message and the customer: kyb_scope FULL, the business identity, owners PENDING', async () => {
      const customer = await minimal();
      const response = await upgradeCall(customer.id, { owners: owners(60, 40) });
      expect(response.status).toBe(200);
      const { message, data } = (await response.json()) as { message: string; data: CustomerJson };
      expect(message).toEqual(expect.any(String));
      expect(data).toMatchObject({
        id: customer.id,
        type: 'business',
        kyb_scope: 'FULL',
        verification_status: 'PENDING',
        business_name: customer.business_name,
        registration_number: customer.registration_number,
        incorporation_country: 'NG',
        country: 'NG',
      });
      expect(data.owners).toEqual([
        expect.objectContaining({
          id: expect.any(String),
          first_name: 'Ada',
          last_name: 'Obi',
          ownership_percentage: 60,
          status: 'PENDING',
        }),
        expect.objectContaining({ id: expect.any(String), ownership_percentage: 40, status: 'PENDING' }),
      ]);
      expect(await api.getCustomer(caller.token, customer.id)).toEqual(data);
    });

    it('seed 4.2, seed 8: one owner holding 100 is enough', async () => {
      const upgraded = await api.upgrade(caller.token, (await minimal()).id, { owners: owners(100) });
      expect(upgraded.owners).toHaveLength(1);
    });

    it('seed 4.2, seed 8: five owners summing to 100 are accepted', async () => {
      const upgraded = await api.upgrade(caller.token, (await minimal()).id, { owners: owners(20, 20, 20, 20, 20) });
      expect(upgraded.owners.map((owner) => owner.ownership_percentage)).toEqual([20, 20, 20, 20, 20]);
    });

    it('seed 4.2: the optional fields of the table are saved with the upgrade', async () => {
      const augmentations = {
        trading_name: 'Acme Trading',
        business_type: 'llc',
        incorporation_date: '2015-03-01',
        industry_type: 'Logistics',
        business_description: 'Moves goods across West Africa',
        website: 'https://acme.example',
        source_of_funds: 'business_revenue',
        estimated_annual_revenue: '1000000_4999999',
        expected_monthly_payments: 250,
        account_purpose: 'receive_payments_for_goods_and_services',
        operating_street: '10 Downing Street',
        operating_city: 'London',
        operating_state: 'Greater London',
        operating_country: 'GB',
        operating_zip_code: 'SW1A 2AA',
      };
      const upgraded = await api.upgrade(caller.token, (await minimal()).id, { owners: owners(100), ...augmentations });
      expect(upgraded).toMatchObject(augmentations);
    });

    it('seed 4.2: registration_number, incorporation_country and country may be overridden together', async () => {
      const number = registrationNumber();
      const upgraded = await api.upgrade(caller.token, (await minimal()).id, {
        owners: owners(100),
        registration_number: number,
        incorporation_country: 'GH',
        country: 'GH',
      });
      expect(upgraded).toMatchObject({ registration_number: number, incorporation_country: 'GH', country: 'GH' });
    });

    it('seed 3.1, seed 3.2: the upgrade does not run the readiness checks (no document, no owner ID files yet)', async () => {
      const customer = await minimal();
      const upgraded = await api.upgrade(caller.token, customer.id, { owners: owners(100) });
      expect(upgraded).toMatchObject({ kyb_scope: 'FULL', documents: [] });
      expect(upgraded.owners[0]).toMatchObject({ id_document_front: null });
      // They run at the next submit.
      await expectInvalid(await api.call(caller.token, 'POST', `/customer/${customer.id}/submit`), {
        'owners.0.id_document_front': /is required/,
      });
    });
  });

  describe('state (seed 3.1)', () => {
    it('seed 3.1: VERIFIED → PENDING; the customer is editable again', async () => {
      const verified = await api.verifiedMinimal(caller);
      expect(verified.verification_status).toBe('VERIFIED');
      await expectError(await api.call(caller.token, 'PUT', `/customer/${verified.id}`, { trading_name: 'X' }), 400, {
        code: 'CUSTOMER_LOCKED',
      });
      const upgraded = await api.upgrade(caller.token, verified.id, { owners: owners(100) });
      expect(upgraded).toMatchObject({ kyb_scope: 'FULL', verification_status: 'PENDING' });
      expect(
        (await api.updateCustomer(caller.token, verified.id, { trading_name: 'Editable again' })).trading_name,
      ).toBe('Editable again');
      // The approved document stays approved: it is not re-reviewed.
      expect(upgraded.documents).toEqual([expect.objectContaining({ status: 'APPROVED' })]);
    });

    it('seed 3.1: a PENDING customer stays PENDING', async () => {
      const upgraded = await api.upgrade(caller.token, (await minimal()).id, { owners: owners(100) });
      expect(upgraded.verification_status).toBe('PENDING');
    });

    it('seed 3.1: a REJECTED customer stays REJECTED', async () => {
      const ready = await api.minimalReadyToSubmit(caller);
      const submitted = await api.submit(caller.token, ready.id);
      await api.review(ready.id, {
        documents: [{ id: submitted.documents[0]!.id, status: 'REJECTED', admin_comments: ['Blurred'] }],
        verdict: 'REJECTED',
      });
      const upgraded = await api.upgrade(caller.token, ready.id, { owners: owners(100) });
      expect(upgraded).toMatchObject({ kyb_scope: 'FULL', verification_status: 'REJECTED' });
      expect(upgraded.owners[0]!.status).toBe('PENDING');
    });

    it('seed 3.1, seed 7: while PROCESSING the upgrade is 400 and changes nothing', async () => {
      const ready = await api.minimalReadyToSubmit(caller);
      await api.submit(caller.token, ready.id);
      await expectError(await upgradeCall(ready.id, { owners: owners(100) }), 400, {
        code: 'UPGRADE_WHILE_PROCESSING',
        message: /is PROCESSING: it cannot be upgraded while under review/,
      });
      expect(await api.getCustomer(caller.token, ready.id)).toMatchObject({
        kyb_scope: 'MINIMAL',
        verification_status: 'PROCESSING',
        owners: [],
      });
    });

    it('seed 3.1: while PROCESSING the upgrade is 400 whatever the customer (condition "any"), even one already FULL', async () => {
      // seed 3.1's PROCESSING row has the condition "any"; decision 0008 answers 422 ALREADY_FULL first.
      const full = await api.fullReadyToSubmit(caller);
      await api.submit(caller.token, full.id);
      await expectError(await upgradeCall(full.id, { owners: owners(100) }), 400, {
        code: 'UPGRADE_WHILE_PROCESSING',
        message: /is PROCESSING/,
      });
    });

    it('seed 3.1: FULL never returns to MINIMAL: no second upgrade, and kyb_scope cannot be updated', async () => {
      const customer = await minimal();
      await api.upgrade(caller.token, customer.id, { owners: owners(100) });
      await expectInvalid(
        await upgradeCall(customer.id, { owners: owners(100) }),
        { kyb_scope: /is already FULL/ },
        { code: 'ALREADY_FULL' },
      );
      await expectInvalid(await api.call(caller.token, 'PUT', `/customer/${customer.id}`, { kyb_scope: 'MINIMAL' }), {
        kyb_scope: /FULL never returns to MINIMAL/,
      });
      expect((await api.getCustomer(caller.token, customer.id)).kyb_scope).toBe('FULL');
    });

    it('seed 4.2: every upgrade is an audit entry readable with GET /admin/customers/{id}/audit', async () => {
      const verified = await api.verifiedMinimal(caller, { trading_name: 'Old name' });
      const response = await upgradeCall(verified.id, { owners: owners(100), trading_name: 'New name' });
      expect(response.status).toBe(200);
      const upgraded = ((await response.json()) as { data: CustomerJson }).data;
      const entries = await api.audit(verified.id);
      const entry = entries.find((candidate) => candidate.action === 'customer.upgraded');
      expect(entry).toMatchObject({
        actor: `credential:${caller.clientId}`,
        request_id: response.headers.get('x-request-id'),
        occurred_at: expect.any(String),
        changes: expect.objectContaining({
          kyb_scope: { from: 'MINIMAL', to: 'FULL' },
          verification_status: { from: 'VERIFIED', to: 'PENDING' },
          owners_added: [upgraded.owners[0]!.id],
          fields: { trading_name: { from: 'Old name', to: 'New name' } },
        }),
      });
    });

    it('seed 4.2: the audit entry of an upgrade from PENDING has no verification_status change', async () => {
      const customer = await minimal();
      await api.upgrade(caller.token, customer.id, { owners: owners(100) });
      const entry = (await api.audit(customer.id)).find((candidate) => candidate.action === 'customer.upgraded');
      expect(entry?.changes).toMatchObject({ kyb_scope: { from: 'MINIMAL', to: 'FULL' } });
      expect(entry?.changes).not.toHaveProperty('verification_status');
    });
  });

  describe('404 (seed 7)', () => {
    it('seed 7 (404): an unknown customer is 404', async () => {
      await expectError(await upgradeCall(UNKNOWN, { owners: owners(100) }), 404, { code: 'CUSTOMER_NOT_FOUND' });
      await expectError(await upgradeCall('not-a-uuid', { owners: owners(100) }), 404);
    });

    it('seed 7 (404): another business’s customer is 404, exactly like an unknown one, and is not upgraded', async () => {
      const customer = await minimal();
      const other = await api.caller({ kybMinimalAllowed: true });
      await expectError(await upgradeCall(customer.id, { owners: owners(100) }, other), 404, {
        code: 'CUSTOMER_NOT_FOUND',
        message: new RegExp(`customer ${customer.id} not found`),
      });
      expect((await api.getCustomer(caller.token, customer.id)).kyb_scope).toBe('MINIMAL');
    });
  });

  describe('422 cases of seed 7', () => {
    it('seed 7 (422): the customer is not type=business', async () => {
      const individual = await api.createCustomer(caller.token, individualBody());
      const { code } = await expectInvalid(await upgradeCall(individual.id, { owners: owners(100) }), {
        customer: /is an individual: only business customers have a KYB scope/,
      });
      expect(code).toBe('NOT_A_BUSINESS');
    });

    it('seed 7 (422): the customer is already FULL', async () => {
      const full = await api.createCustomer(caller.token, businessBody({ kyb_scope: 'FULL' }));
      await expectInvalid(
        await upgradeCall(full.id, { owners: owners(100) }),
        { kyb_scope: /is already FULL/ },
        { code: 'ALREADY_FULL' },
      );
    });

    it('seed 7 (422): country differs from incorporation_country after the changes', async () => {
      const customer = await minimal();
      await expectInvalid(await upgradeCall(customer.id, { owners: owners(100), country: 'GH' }), {
        country: /must equal incorporation_country \(NG\)/,
      });
      await expectInvalid(await upgradeCall(customer.id, { owners: owners(100), incorporation_country: 'GH' }), {
        incorporation_country: /must equal country \(NG\)/,
      });
      expect((await api.getCustomer(caller.token, customer.id)).kyb_scope).toBe('MINIMAL');
    });

    it('seed 7 (422): another business customer of the platform already has the registration_number and incorporation_country', async () => {
      const taken = await minimal();
      const customer = await minimal();
      const { code } = await expectInvalid(
        await upgradeCall(customer.id, { owners: owners(100), registration_number: taken.registration_number }),
        {
          registration_number: new RegExp(
            `already has registration_number "${String(taken.registration_number)}" in NG`,
          ),
          incorporation_country: /already has registration_number/,
        },
      );
      expect(code).toBe('DUPLICATE_REGISTRATION');
      expect(await api.getCustomer(caller.token, customer.id)).toMatchObject({
        kyb_scope: 'MINIMAL',
        registration_number: customer.registration_number,
        owners: [],
      });
    });

    it('seed 7 (422): owners missing', async () => {
      const customer = await minimal();
      await expectInvalid(await upgradeCall(customer.id, {}), {
        owners: /is required: 1 to 5 owners whose ownership_percentage values sum to exactly 100/,
      });
      await expectInvalid(await upgradeCall(customer.id, { owners: null }), { owners: /is required/ });
    });

    it('seed 7 (422): owners empty', async () => {
      await expectInvalid(await upgradeCall((await minimal()).id, { owners: [] }), {
        owners: /must list at least one owner/,
      });
    });

    it('seed 4.2, seed 8 (422): more than 5 owners', async () => {
      await expectInvalid(await upgradeCall((await minimal()).id, { owners: owners(20, 20, 20, 20, 10, 10) }), {
        owners: /must list at most 5 owners \(got 6\)/,
      });
    });

    it('seed 7 (422): ownership percentages do not sum to 100', async () => {
      const customer = await minimal();
      await expectInvalid(await upgradeCall(customer.id, { owners: owners(50, 40) }), {
        owners: /must sum to exactly 100 \(they sum to 90\)/,
      });
      await expectInvalid(await upgradeCall(customer.id, { owners: owners(60, 50) }), {
        owners: /must sum to exactly 100 \(they sum to 110\)/,
      });
    });

    it('seed 7 (422): owner emails not unique (case-insensitive)', async () => {
      await expectInvalid(
        await upgradeCall((await minimal()).id, {
          owners: [
            ownerBody({ ownership_percentage: 50, email: 'ada@example.com' }),
            ownerBody({ ownership_percentage: 50, email: 'ADA@Example.com' }),
          ],
        }),
        { 'owners.1.email': /must be unique within the customer \(case-insensitive\)/ },
      );
    });

    it('seed 7 (422): an owner under 18 years old', async () => {
      await expectInvalid(
        await upgradeCall((await minimal()).id, { owners: [ownerBody({ date_of_birth: isoDay(1, -18) })] }),
        { 'owners.0.date_of_birth': /at least 18 years before today/ },
      );
    });

    it('seed 7 (422): an owner ID document with a past expiry date', async () => {
      await expectInvalid(
        await upgradeCall((await minimal()).id, { owners: [ownerBody({ id_expiry_date: isoDay(-1) })] }),
        {
          'owners.0.id_expiry_date': /must be after today.*expired/,
        },
      );
    });

    it('seed 7 (422): an invalid ISO code (owner nationality, country, id_document_country)', async () => {
      await expectInvalid(
        await upgradeCall((await minimal()).id, {
          owners: [ownerBody({ nationality: 'XX', country: 'ng', id_document_country: 'EU' })],
        }),
        {
          'owners.0.nationality': /ISO 3166-1 alpha-2/,
          'owners.0.country': /upper case: NG/,
          'owners.0.id_document_country': /reserved/,
        },
      );
    });

    it('seed 7 (422): invalid override values, each named', async () => {
      await expectInvalid(
        await upgradeCall((await minimal()).id, {
          owners: owners(100),
          registration_number: '',
          business_type: 'plc',
          website: 'acme',
          incorporation_date: isoDay(1),
          business_description: 'd'.repeat(2001),
          expected_monthly_payments: -1,
        }),
        {
          registration_number: /must not be blank/,
          business_type: /must be one of/,
          website: /http or https URI/,
          incorporation_date: /must be in the past/,
          business_description: /at most 2000 characters/,
          expected_monthly_payments: /at least 0/,
        },
      );
    });

    it('seed 4.2 (422): operating_country is required when any other operating_* field is sent', async () => {
      await expectInvalid(await upgradeCall((await minimal()).id, { owners: owners(100), operating_city: 'Lagos' }), {
        operating_country: /is required when any other operating_\* field is sent/,
      });
    });

    it('seed 4.2 (422): fields outside the table are refused; country, incorporation_country and registration_number cannot be nulled', async () => {
      await expectInvalid(
        await upgradeCall((await minimal()).id, {
          owners: owners(100),
          business_name: 'Renamed',
          kyb_scope: 'FULL',
          country: null,
        }),
        {
          business_name: /change it with PUT \/customer\/\{id\}/,
          kyb_scope: /an upgrade always sets kyb_scope to FULL/,
          country: /is required and cannot be null/,
        },
      );
    });

    it('seed 4.2 (422): owner ID files are not part of the payload', async () => {
      await expectInvalid(
        await upgradeCall((await minimal()).id, { owners: [ownerBody({ id_document_front: UNKNOWN })] }),
        { 'owners.0.id_document_front': /upload owner ID files per slot/ },
      );
    });

    it('issue 4 item 2: every problem of an upgrade body is reported at once', async () => {
      await expectInvalid(
        await upgradeCall((await minimal()).id, {
          owners: [
            ownerBody({ ownership_percentage: 30, tin: '1' }),
            ownerBody({ ownership_percentage: 30, street: 'short' }),
          ],
          website: 'nope',
        }),
        {
          owners: /sum to exactly 100 \(they sum to 60\)/,
          'owners.0.tin': /5 to 50 characters/,
          'owners.1.street': /9 to 255 characters/,
          website: /http or https URI/,
        },
      );
    });
  });
});
