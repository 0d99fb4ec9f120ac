import { query } from '@corridor/testing';
import {
  businessBody,
  expectInvalid,
  isoDay,
  ownerBody,
  type CustomerCaller,
  type CustomerJson,
} from '../support/customers.js';
import { expectError, Platform } from '../support/platform.js';

/**
 * Submit runs seed 3.2's readiness checks in order; each failure is its own 422. Checks 1, 4 and 6
 * guard data the write rules already refuse (an ID that expired since it was written, data stored
 * before the rules existed): those tests put such data in customer-kyb's database directly, as time
 * or an older release would have.
 */
describe('customers: submit and the readiness checks (seed 3.1, 3.2)', () => {
  const platform = Platform.shared();
  const api = platform.customers;
  let caller: CustomerCaller;
  let minimalCaller: CustomerCaller;

  beforeAll(async () => {
    await platform.start();
    [caller, minimalCaller] = await Promise.all([api.caller(), api.caller({ kybMinimalAllowed: true })]);
  });
  afterAll(() => platform.stop());

  const submitCall = (customerId: string, who: CustomerCaller = caller) =>
    api.call(who.token, 'POST', `/customer/${customerId}/submit`);
  const sql = (text: string, params: unknown[]) => query(platform.customerDb!.url, text, params);

  /** A 422 READINESS_CHECK_FAILED, and the customer and its children left exactly as they were. */
  const expectNotReady = async (customer: CustomerJson, errors: Record<string, RegExp>, who = caller) => {
    const failure = await expectInvalid(await submitCall(customer.id, who), errors, { code: 'READINESS_CHECK_FAILED' });
    const after = await api.getCustomer(who.token, customer.id);
    expect(after.verification_status).toBe(customer.verification_status);
    expect(after.owners.map((owner) => owner.status)).toEqual(customer.owners.map((owner) => owner.status));
    expect(after.documents.map((document) => document.status)).toEqual(customer.documents.map((d) => d.status));
    return failure;
  };

  describe('seed 3.2: each readiness check is its own 422', () => {
    it('seed 3.2 rule 1: business_name, registration_number and a valid incorporation_country must be set', async () => {
      const customer = await api.fullReadyToSubmit(caller);
      await sql(`update customer set fields = fields - 'business_name' - 'registration_number' where id = $1`, [
        customer.id,
      ]);
      const { message } = await expectNotReady(customer, {
        business_name: /is required before submitting for verification/,
        registration_number: /is required before submitting for verification/,
      });
      expect(message).toBe('business_name is required before submitting for verification');

      await sql(
        `update customer set fields = fields || '{"business_name":"Acme","registration_number":"RC1","incorporation_country":"XX"}' where id = $1`,
        [customer.id],
      );
      await expectNotReady(customer, { incorporation_country: /ISO 3166-1 alpha-2/ });
    });

    it('seed 3.2 rule 1: country must equal incorporation_country', async () => {
      const customer = await api.fullReadyToSubmit(caller);
      await sql(`update customer set fields = fields || '{"country":"GH"}' where id = $1`, [customer.id]);
      const { message } = await expectNotReady(customer, {
        country: /must equal incorporation_country \(NG\) before submitting/,
      });
      expect(message).toMatch(/^country must equal incorporation_country \(NG\)/);
    });

    it('seed 3.2 rule 2: a FULL business needs at least one owner', async () => {
      const customer = await api.createCustomer(caller.token, businessBody({ kyb_scope: 'FULL' }));
      await api.registerDocument(caller.token, customer.id);
      const { message } = await expectNotReady(await api.getCustomer(caller.token, customer.id), {
        owners: /must include at least one owner for FULL KYB/,
      });
      expect(message).toBe('owners must include at least one owner for FULL KYB');
    });

    it('seed 3.2 rule 3: ownership must sum to exactly 100', async () => {
      const customer = await api.fullReadyToSubmit(caller, [
        ownerBody({ ownership_percentage: 60 }),
        ownerBody({ ownership_percentage: 30 }),
      ]);
      const { message } = await expectNotReady(customer, {
        owners: /ownership_percentage values must sum to exactly 100 \(they sum to 90\)/,
      });
      expect(message).toBe('owners ownership_percentage values must sum to exactly 100 (they sum to 90)');

      // 33.33 + 33.33 + 33.34 is exactly 100: summed without floating-point drift.
      const thirds = await api.fullReadyToSubmit(caller, [
        ownerBody({ ownership_percentage: 33.33 }),
        ownerBody({ ownership_percentage: 33.33 }),
        ownerBody({ ownership_percentage: 33.34 }),
      ]);
      expect((await api.submit(caller.token, thirds.id)).verification_status).toBe('PROCESSING');
    });

    it('seed 3.2 rule 3: more than 100 fails too', async () => {
      const customer = await api.fullReadyToSubmit(caller, [
        ownerBody({ ownership_percentage: 60 }),
        ownerBody({ ownership_percentage: 40.01 }),
      ]);
      await expectNotReady(customer, { owners: /must sum to exactly 100 \(they sum to 100.01\)/ });
    });

    it('seed 3.2 rule 4: owner emails must be unique (case-insensitive)', async () => {
      const customer = await api.fullReadyToSubmit(caller, [
        ownerBody({ ownership_percentage: 50, email: 'ada@example.com' }),
        ownerBody({ ownership_percentage: 50, email: 'bola@example.com' }),
      ]);
      // Stored before the write rule existed: the same address, in another case.
      await sql(`update owner set fields = fields || '{"email":"ADA@example.com"}' where id = $1`, [
        customer.owners[1]!.id,
      ]);
      const { message } = await expectNotReady(customer, {
        'owners.1.email': /must be unique within the customer \(case-insensitive\)/,
      });
      expect(message).toBe('owners.1.email must be unique within the customer (case-insensitive)');
    });

    it('seed 3.2 rule 5: every owner needs an ID front', async () => {
      const customer = await api.createCustomer(caller.token, businessBody({ owners: [ownerBody()] }));
      await api.registerDocument(caller.token, customer.id);
      const { message } = await expectNotReady(await api.getCustomer(caller.token, customer.id), {
        'owners.0.id_document_front': /is required: every owner needs the front of an ID document/,
      });
      expect(message).toMatch(/^owners\.0\.id_document_front /);
    });

    it('seed 3.2 rule 5: drivers_license, id_card and resident_permit need a back', async () => {
      const customer = await api.createCustomer(
        caller.token,
        businessBody({ owners: [ownerBody({ id_document_type: 'resident_permit' })] }),
      );
      await api.attachOwnerFile(caller.token, customer.id, customer.owners[0]!.id, 'id_document_front');
      await api.registerDocument(caller.token, customer.id);
      await expectNotReady(await api.getCustomer(caller.token, customer.id), {
        'owners.0.id_document_back': /is required for a resident_permit/,
      });
    });

    it('seed 3.2 rule 5: a passport must not have a back', async () => {
      const customer = await api.fullReadyToSubmit(caller, [ownerBody({ id_document_type: 'id_card' })]);
      // The type changed to passport after both sides were attached: the back no longer belongs.
      await api.updateCustomer(caller.token, customer.id, {
        owners: [{ id: customer.owners[0]!.id, id_document_type: 'passport' }],
      });
      await expectNotReady(await api.getCustomer(caller.token, customer.id), {
        'owners.0.id_document_back': /must not be present for a passport/,
      });
    });

    it('seed 3.2 rule 5: without id_document_type the slots cannot be judged', async () => {
      const customer = await api.fullReadyToSubmit(caller);
      await api.updateCustomer(caller.token, customer.id, {
        owners: [{ id: customer.owners[0]!.id, id_document_type: null }],
      });
      await expectNotReady(await api.getCustomer(caller.token, customer.id), {
        'owners.0.id_document_type': /is required to check the owner ID files/,
      });
    });

    it('seed 3.2 rule 6: an ID document that has expired since it was written fails at submit', async () => {
      const customer = await api.fullReadyToSubmit(caller);
      await sql(`update owner set fields = fields || jsonb_build_object('id_expiry_date', $2::text) where id = $1`, [
        customer.owners[0]!.id,
        isoDay(0),
      ]);
      const { message } = await expectNotReady(customer, { 'owners.0.id_expiry_date': /must be after today/ });
      expect(message).toMatch(/^owners\.0\.id_expiry_date must be after today/);
    });

    it('seed 3.2 rule 6: date_of_birth at least 18 years ago, and valid alpha-2 nationality, country, id_document_country', async () => {
      const customer = await api.fullReadyToSubmit(caller);
      await sql(
        `update owner set fields = fields || jsonb_build_object('date_of_birth', $2::text, 'nationality', 'XX', 'country', 'UK', 'id_document_country', 'ng') where id = $1`,
        [customer.owners[0]!.id, isoDay(1, -18)],
      );
      await expectNotReady(customer, {
        'owners.0.date_of_birth': /at least 18 years before today/,
        'owners.0.nationality': /ISO 3166-1 alpha-2/,
        'owners.0.country': /reserved.*use GB/,
        'owners.0.id_document_country': /upper case: NG/,
      });
    });

    it('seed 3.2 rule 7: at least one KYB document of a formation type', async () => {
      const customer = await api.createCustomer(caller.token, businessBody({ owners: [ownerBody()] }));
      await api.attachOwnerIdFiles(caller.token, customer.id, customer.owners[0]!);
      const { message } = await expectNotReady(await api.getCustomer(caller.token, customer.id), {
        documents: /must include at least one formation document/,
      });
      expect(message).toMatch(/^documents must include at least one formation document/);
    });

    it('seed 3.2: the checks run in the seed’s order and the first failure is reported', async () => {
      // Fails 2 and 7 at first; each fix reveals the next check, in order.
      const customer = await api.createCustomer(caller.token, businessBody());
      const failedCheck = async (expected: RegExp) => {
        const { message } = await expectInvalid(await submitCall(customer.id), {}, { exact: false });
        expect(message).toMatch(expected);
      };
      await failedCheck(/^owners must include at least one owner/); // 2 (and 5, 7 pending)
      const withOwners = await api.updateCustomer(caller.token, customer.id, {
        owners: [
          ownerBody({ ownership_percentage: 50, id_document_type: 'id_card' }),
          ownerBody({ ownership_percentage: 40 }),
        ],
      });
      await failedCheck(/^owners ownership_percentage values must sum to exactly 100/); // 3
      await api.updateCustomer(caller.token, customer.id, {
        owners: [{ id: withOwners.owners[1]!.id, ownership_percentage: 50 }],
      });
      await failedCheck(/^owners\.0\.id_document_front is required/); // 5
      for (const owner of withOwners.owners)
        await api.attachOwnerFile(caller.token, customer.id, owner.id, 'id_document_front');
      await failedCheck(/^owners\.0\.id_document_back is required for an? id_card/); // 5, the back
      await api.attachOwnerFile(caller.token, customer.id, withOwners.owners[0]!.id, 'id_document_back');
      await failedCheck(/^documents must include at least one formation document/); // 7
      await api.registerDocument(caller.token, customer.id, 'ARTICLES_OF_INCORPORATION');
      expect((await api.submit(caller.token, customer.id)).verification_status).toBe('PROCESSING');
    });
  });

  describe('seed 3.2: the MINIMAL path', () => {
    it('seed 3.2: the MINIMAL path needs no owners or owner ID files: identity fields and a formation document suffice', async () => {
      const customer = await api.minimalReadyToSubmit(minimalCaller);
      const submitted = await api.submit(minimalCaller.token, customer.id);
      expect(submitted).toMatchObject({
        kyb_scope: 'MINIMAL',
        verification_status: 'PROCESSING',
        owners: [],
        documents: [expect.objectContaining({ status: 'PROCESSING' })],
      });
    });

    it('seed 3.2: the MINIMAL path still requires a formation document (check 7, not check 2)', async () => {
      const customer = await api.createCustomer(minimalCaller.token, businessBody());
      const { message } = await expectNotReady(customer, { documents: /formation document/ }, minimalCaller);
      expect(message).toMatch(/^documents /);
    });

    it('seed 3.2: the MINIMAL path still requires the identity fields (check 1)', async () => {
      const customer = await api.minimalReadyToSubmit(minimalCaller);
      await sql(`update customer set fields = fields - 'registration_number' where id = $1`, [customer.id]);
      await expectNotReady(customer, { registration_number: /is required before submitting/ }, minimalCaller);
    });
  });

  describe('seed 3.1: what submit moves', () => {
    it('seed 3.1: submit moves the customer to PROCESSING and its PENDING owners and documents with it', async () => {
      const customer = await api.fullReadyToSubmit(caller, [
        ownerBody({ ownership_percentage: 70 }),
        ownerBody({ ownership_percentage: 30, id_document_type: 'drivers_license' }),
      ]);
      expect(customer.submitted_at).toBeNull();
      const response = await submitCall(customer.id);
      expect(response.status).toBe(200);
      const { message, data } = (await response.json()) as { message: string; data: CustomerJson };
      expect(message).toEqual(expect.any(String));
      expect(data).toMatchObject({
        id: customer.id,
        verification_status: 'PROCESSING',
        submitted_at: expect.any(String),
        owners: [expect.objectContaining({ status: 'PROCESSING' }), expect.objectContaining({ status: 'PROCESSING' })],
        documents: [expect.objectContaining({ status: 'PROCESSING' })],
      });
      expect(await api.getCustomer(caller.token, customer.id)).toEqual(data);
    });

    it('seed 3.1: submit while PROCESSING is 400 ALREADY_PROCESSING; while VERIFIED 400 ALREADY_VERIFIED', async () => {
      const customer = await api.fullReadyToSubmit(caller);
      const submitted = await api.submit(caller.token, customer.id);
      await expectError(await submitCall(customer.id), 400, {
        code: 'ALREADY_PROCESSING',
        message: /already PROCESSING/,
      });
      await api.verify(submitted);
      await expectError(await submitCall(customer.id), 400, { code: 'ALREADY_VERIFIED', message: /already VERIFIED/ });
    });

    it('seed 3.1, 3.3: re-submit after REJECTED: APPROVED owners and documents are not re-reviewed, changed ones are', async () => {
      const customer = await api.fullReadyToSubmit(caller, [
        ownerBody({ ownership_percentage: 50 }),
        ownerBody({ ownership_percentage: 50 }),
      ]);
      const submitted = await api.submit(caller.token, customer.id);
      const [approved, rejected] = submitted.owners;
      const rejectedCustomer = await api.review(customer.id, {
        owners: [
          { id: approved!.id, status: 'APPROVED' },
          { id: rejected!.id, status: 'REJECTED', admin_comments: ['The passport photo is unreadable'] },
        ],
        documents: [{ id: submitted.documents[0]!.id, status: 'APPROVED' }],
        verdict: 'REJECTED',
      });
      expect(rejectedCustomer.verification_status).toBe('REJECTED');

      // The platform replaces the rejected owner's ID file: it is PENDING again, its comments cleared.
      const fixed = await api.attachOwnerFile(caller.token, customer.id, rejected!.id, 'id_document_front');
      expect(fixed).toMatchObject({ status: 'PENDING', admin_comments: [] });

      const resubmitted = await api.submit(caller.token, customer.id);
      expect(resubmitted.verification_status).toBe('PROCESSING');
      expect(resubmitted.owners).toEqual([
        expect.objectContaining({ id: approved!.id, status: 'APPROVED' }),
        expect.objectContaining({ id: rejected!.id, status: 'PROCESSING' }),
      ]);
      expect(resubmitted.documents).toEqual([expect.objectContaining({ status: 'APPROVED' })]);
    });

    it('seed 3.1: a REJECTED customer that fails a readiness check stays REJECTED', async () => {
      const customer = await api.fullReadyToSubmit(caller);
      const submitted = await api.submit(caller.token, customer.id);
      const rejected = await api.review(customer.id, {
        owners: [{ id: submitted.owners[0]!.id, status: 'REJECTED', admin_comments: ['Expired passport'] }],
        documents: [{ id: submitted.documents[0]!.id, status: 'APPROVED' }],
        verdict: 'REJECTED',
      });
      await api.removeOwner(caller.token, customer.id, rejected.owners[0]!.id);
      await expectNotReady(await api.getCustomer(caller.token, customer.id), { owners: /at least one owner/ });
    });
  });
});
