import {
  businessBody,
  expectInvalid,
  ownerBody,
  type CustomerCaller,
  type CustomerJson,
} from '../support/customers.js';
import { Platform } from '../support/platform.js';

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

  beforeAll(async () => {
    await platform.start();
    caller = await api.caller();
  });
  afterAll(() => platform.stop());

  const submitCall = (customerId: string, who: CustomerCaller = caller) =>
    api.call(who.token, 'POST', `/customer/${customerId}/submit`);

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
    it('seed 3.2 rule 7: at least one KYB document of a formation type', async () => {
      const customer = await api.createCustomer(caller.token, businessBody({ owners: [ownerBody()] }));
      await api.attachOwnerIdFiles(caller.token, customer.id, customer.owners[0]!);
      const { message } = await expectNotReady(await api.getCustomer(caller.token, customer.id), {
        documents: /must include at least one formation document/,
      });
      expect(message).toMatch(/^documents must include at least one formation document/);
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
  });
});
