import { businessBody, ownerBody, type CustomerCaller, type CustomerJson } from '../support/customers.js';
import { Platform } from '../support/platform.js';

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
  });

  describe('state (seed 3.1)', () => {
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
  });
});
