import { query } from '@corridor/testing';
import { businessBody, expectInvalid, individualBody, ownerBody, type CustomerCaller } from '../support/customers.js';
import { Platform } from '../support/platform.js';

describe('customers: the KYB scope a business customer gets (seed 5, last paragraph; seed 1, 2.1)', () => {
  const platform = Platform.shared();
  const api = platform.customers;
  let allowListed: CustomerCaller;
  let notListed: CustomerCaller;

  beforeAll(async () => {
    await platform.start();
    [allowListed, notListed] = await Promise.all([api.caller({ kybMinimalAllowed: true }), api.caller()]);
  });
  afterAll(() => platform.stop());

  const create = (caller: CustomerCaller, body: Record<string, unknown>) =>
    api.call(caller.token, 'POST', '/customer', body);

  it('seed 5: a platform on the MINIMAL allow-list gets MINIMAL when kyb_scope is omitted', async () => {
    expect((await api.createCustomer(allowListed.token, businessBody())).kyb_scope).toBe('MINIMAL');
  });

  it('seed 5: a platform on the MINIMAL allow-list may send FULL', async () => {
    const customer = await api.createCustomer(
      allowListed.token,
      businessBody({ kyb_scope: 'FULL', owners: [ownerBody()] }),
    );
    expect(customer).toMatchObject({ kyb_scope: 'FULL', owners: [expect.objectContaining({ status: 'PENDING' })] });
  });

  it('seed 5: a platform on the MINIMAL allow-list may also send MINIMAL explicitly', async () => {
    expect((await api.createCustomer(allowListed.token, businessBody({ kyb_scope: 'MINIMAL' }))).kyb_scope).toBe(
      'MINIMAL',
    );
  });

  it('seed 5: a platform not on the allow-list gets FULL when kyb_scope is omitted', async () => {
    expect((await api.createCustomer(notListed.token, businessBody())).kyb_scope).toBe('FULL');
  });

  it('seed 5, seed 7: a platform not on the allow-list that requests MINIMAL gets 422 naming kyb_scope', async () => {
    await expectInvalid(await create(notListed, businessBody({ kyb_scope: 'MINIMAL' })), {
      kyb_scope: /MINIMAL is not available to this platform \(it is not allow-listed for MINIMAL KYB\)/,
    });
  });

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

  it('seed 2.1: kyb_scope is FULL or MINIMAL; anything else is 422', async () => {
    await expectInvalid(await create(allowListed, businessBody({ kyb_scope: 'LITE' })), {
      kyb_scope: /must be FULL or MINIMAL; got "LITE"/,
    });
    await expectInvalid(await create(allowListed, businessBody({ kyb_scope: 'full' })), {
      kyb_scope: /must be FULL or MINIMAL/,
    });
  });

  it('seed 1: a MINIMAL business has no owners: owners on create or update are 422 pointing to the upgrade', async () => {
    await expectInvalid(await create(allowListed, businessBody({ owners: [ownerBody()] })), {
      owners: /do not apply to a MINIMAL KYB customer.*upgrade-kyb-scope/,
    });
    const minimal = await api.createCustomer(allowListed.token, businessBody());
    await expectInvalid(
      await api.call(allowListed.token, 'PUT', `/customer/${minimal.id}`, { owners: [ownerBody()] }),
      {
        owners: /do not apply to a MINIMAL KYB customer/,
      },
    );
  });

  it('seed 2.1: kyb_scope is returned for business customers only', async () => {
    const individual = await api.createCustomer(allowListed.token, individualBody());
    expect('kyb_scope' in individual).toBe(false);
  });

  it('seed 2.1: a business stored with no scope (created before scopes existed) reads as MINIMAL and follows the MINIMAL path', async () => {
    const customer = await api.createCustomer(notListed.token, businessBody());
    // A customer from before the scope was introduced: the column was not there to fill.
    await query(platform.customerDb!.url, 'update customer set kyb_scope = null where id = $1', [customer.id]);
    expect((await api.getCustomer(notListed.token, customer.id)).kyb_scope).toBe('MINIMAL');

    // MINIMAL path at submit: no owner checks, a formation document suffices (seed 3.2).
    await api.registerDocument(notListed.token, customer.id);
    const submitted = await api.submit(notListed.token, customer.id);
    expect(submitted).toMatchObject({ kyb_scope: 'MINIMAL', verification_status: 'PROCESSING', owners: [] });
  });

  it('seed 2.1: a business stored with no scope can be upgraded to FULL like any MINIMAL one', async () => {
    const customer = await api.createCustomer(notListed.token, businessBody());
    await query(platform.customerDb!.url, 'update customer set kyb_scope = null where id = $1', [customer.id]);
    const upgraded = await api.upgrade(notListed.token, customer.id, { owners: [ownerBody()] });
    expect(upgraded).toMatchObject({ kyb_scope: 'FULL', verification_status: 'PENDING' });
  });
});
