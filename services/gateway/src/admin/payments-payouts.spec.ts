import { invalidArgument, notFound } from '@corridor/grpc';
import { adminUnderTest } from '../../test/admin/admin-listener.fixture.js';
import { startFakePayments } from '../../test/public/payments/fake-payments-service.js';
import { BUSINESS_ID } from '../../test/public/payments/payments.fixtures.js';
import { PAYOUT_ID } from '../../test/public/payments/payout.fixtures.js';

const ADMIN_TOKEN = 'admin-token-for-the-payout-admin-spec';

/** The back office's payout controls on the admin listener as bootstrap builds it, over a fake payments. */
describe('admin payouts: daily limits and the sandbox rail’s view of a payout', () => {
  const backOffice = adminUnderTest(startFakePayments, (service) => service.clients, ADMIN_TOKEN, 'req-admin-payouts');

  const admin = (method: string, path: string, body?: unknown, token?: string) =>
    backOffice.admin(method, path, body, token);

  /** The one call payments received, for no business (Admin* name it in the request). */
  const received = (method: string) => {
    expect(backOffice.calls).toHaveLength(1);
    expect(backOffice.calls[0]?.method).toBe(method);
    expect(backOffice.calls[0]?.caller.businessId).toBeUndefined();
    expect(backOffice.calls[0]?.caller).toMatchObject({ requestId: 'req-admin-payouts', environment: 'sandbox' });
    return backOffice.calls[0]?.request;
  };

  const limitPath = `/admin/businesses/${BUSINESS_ID}/payout-limits/NGN`;

  it('PUT payout-limits sets a business’s daily limit in a currency, as int64 minor units', async () => {
    const response = await admin('PUT', limitPath, { daily_limit: 10_000_000 });
    expect(response).toEqual({
      status: 200,
      body: { business_id: BUSINESS_ID, currency: 'NGN', daily_limit: 10_000_000 },
    });
    expect(received('adminSetPayoutLimit')).toMatchObject({
      businessId: BUSINESS_ID,
      currency: 'NGN',
      dailyLimit: 10_000_000n,
    });
  });

  it('PUT payout-limits with daily_limit null removes the limit', async () => {
    const response = await admin('PUT', limitPath, { daily_limit: null });
    expect(response).toEqual({ status: 200, body: { business_id: BUSINESS_ID, currency: 'NGN', daily_limit: null } });
    expect(received('adminSetPayoutLimit')?.dailyLimit).toBeUndefined();
  });

  it('PUT payout-limits takes 0: no payouts in that currency', async () => {
    expect((await admin('PUT', limitPath, { daily_limit: 0 })).body).toMatchObject({ daily_limit: 0 });
    expect(received('adminSetPayoutLimit')?.dailyLimit).toBe(0n);
  });

  it.each([
    [{}, 'daily_limit', /^is required$/],
    [{ daily_limit: 1.5 }, 'daily_limit', /whole number of minor units/],
    [{ daily_limit: '100000' }, 'daily_limit', /got a string$/],
    [{ daily_limit: 9_007_199_254_740_992 }, 'daily_limit', /at most 9007199254740991/],
    [{ daily_limit: 100, currency: 'NGN' }, 'currency', /^is not a recognised field$/],
  ])('PUT payout-limits refuses %j, naming %s', async (body, field, problem) => {
    const response = await admin('PUT', limitPath, body);
    expect(response).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED' } });
    const errors = response.body.errors as Record<string, string[]>;
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field]?.[0]).toMatch(problem);
    expect(backOffice.calls).toHaveLength(0);
  });

  it('PUT payout-limits passes the currency and a negative limit to payments, which checks them', async () => {
    const errors = { currency: ['must be one of NGN, USD'] };
    backOffice.answers.set('adminSetPayoutLimit', () => {
      throw invalidArgument('currency "ngn" is not a currency Corridor supports', errors, 'UNKNOWN_CURRENCY');
    });
    const path = `/admin/businesses/${BUSINESS_ID}/payout-limits/ngn`;
    expect(await admin('PUT', path, { daily_limit: -1 })).toMatchObject({
      status: 422,
      body: { code: 'UNKNOWN_CURRENCY', errors },
    });
    expect(received('adminSetPayoutLimit')).toMatchObject({ currency: 'ngn', dailyLimit: -1n });
  });

  it('PUT payout-limits answers 404 for a business id that is not a uuid, without asking payments', async () => {
    expect(await admin('PUT', '/admin/businesses/b001/payout-limits/NGN', { daily_limit: 1 })).toMatchObject({
      status: 404,
      body: { code: 'BUSINESS_NOT_FOUND' },
    });
    expect(backOffice.calls).toHaveLength(0);
  });

  it('GET /admin/payouts/{id}/rail answers how often the rail was asked to submit and where it stands', async () => {
    backOffice.answers.set('adminGetRailPayout', (request) => ({
      payoutId: request.payoutId,
      submitCalls: 2,
      state: 'reversed',
    }));
    expect(await admin('GET', `/admin/payouts/${PAYOUT_ID}/rail`)).toEqual({
      status: 200,
      body: { payout_id: PAYOUT_ID, submit_calls: 2, state: 'reversed' },
    });
    expect(received('adminGetRailPayout')).toMatchObject({ payoutId: PAYOUT_ID });
  });

  it('GET /admin/payouts/{id}/rail answers 404 for an id that is not a uuid, and passes payments’ 404 on', async () => {
    expect(await admin('GET', '/admin/payouts/po_1/rail')).toMatchObject({
      status: 404,
      body: { code: 'PAYOUT_NOT_FOUND' },
    });
    expect(backOffice.calls).toHaveLength(0);
    backOffice.answers.set('adminGetRailPayout', () => {
      throw notFound('PAYOUT_NOT_FOUND', `the rail has no payout ${PAYOUT_ID}`);
    });
    expect(await admin('GET', `/admin/payouts/${PAYOUT_ID}/rail`)).toMatchObject({
      status: 404,
      body: { code: 'PAYOUT_NOT_FOUND', message: `the rail has no payout ${PAYOUT_ID}` },
    });
  });

  it('refuses a caller without the admin token before calling payments', async () => {
    expect(await admin('PUT', limitPath, { daily_limit: 1 }, 'wrong')).toMatchObject({
      status: 401,
      body: { code: 'ADMIN_TOKEN_INVALID' },
    });
    expect(await admin('GET', `/admin/payouts/${PAYOUT_ID}/rail`, undefined, 'wrong')).toMatchObject({ status: 401 });
    expect(backOffice.calls).toHaveLength(0);
  });
});
