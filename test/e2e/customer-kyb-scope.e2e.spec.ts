import { businessBody, expectInvalid, type CustomerCaller } from '../support/customers.js';
import { Platform } from '../support/platform.js';

describe('customers: the KYB scope a business customer gets (seed 5, last paragraph; seed 1, 2.1)', () => {
  const platform = Platform.shared();
  const api = platform.customers;

  beforeAll(() => platform.start());
  afterAll(() => platform.stop());

  const create = (caller: CustomerCaller, body: Record<string, unknown>) =>
    api.call(caller.token, 'POST', '/customer', body);

  it('seed 5: the allow-list is the administrator’s: PATCH /admin/businesses/{id} {kyb_minimal_allowed} applies to the next create', async () => {
    const caller = await api.caller();
    await expectInvalid(await create(caller, businessBody({ kyb_scope: 'MINIMAL' })), {
      kyb_scope: /not allow-listed/,
    });

    expect(await platform.patchBusiness(caller.businessId, { kyb_minimal_allowed: true })).toMatchObject({
      kyb_minimal_allowed: true,
    });
    expect((await api.createCustomer(caller.token, businessBody({ kyb_scope: 'MINIMAL' }))).kyb_scope).toBe('MINIMAL');
    expect((await api.createCustomer(caller.token, businessBody())).kyb_scope).toBe('MINIMAL');

    await platform.patchBusiness(caller.businessId, { kyb_minimal_allowed: false });
    await expectInvalid(await create(caller, businessBody({ kyb_scope: 'MINIMAL' })), {
      kyb_scope: /not allow-listed/,
    });
    expect((await api.createCustomer(caller.token, businessBody())).kyb_scope).toBe('FULL');
  });
});
