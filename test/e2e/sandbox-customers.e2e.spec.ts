import { createTestCertificates, eventually, type TestCertificates } from '@corridor/testing';
import { COLLECTION_SCOPES, CollectionsApi, ibanIsValid } from '../support/collections.js';
import type { CustomerJson } from '../support/customers.js';
import { expectError, Platform } from '../support/platform.js';
import {
  expectedSignature,
  ReceivingBusiness,
  receiverEnv,
  type StatusChangedBody,
} from '../support/receiving-business.js';

/**
 * Issue 31 part 1 end to end (decision 0031): one sandbox call makes a VERIFIED customer that payments
 * learns of over Kafka and opens a GBP virtual account for, with the long way's signed
 * customer.status_changed webhooks to kyc_url; a REJECTED one is refused an account; production
 * answers 403 SANDBOX_ONLY.
 */
describe('sandbox shortcuts to a customer in a final state (issue 31)', () => {
  let certificates: TestCertificates;
  let platform: Platform;
  /** Production: customer-kyb refuses the shortcuts there; no notification or payments needed. */
  const production = new Platform({ environment: 'production', notifications: false, payments: false });
  let api: CollectionsApi;
  let owner: ReceivingBusiness;
  let token: string;

  const sandboxCustomer = (body?: unknown, headers: Record<string, string> = {}) =>
    api.call(token, 'POST', '/sandbox/customer', body, headers);

  beforeAll(async () => {
    certificates = await createTestCertificates();
    platform = new Platform({ notificationEnv: receiverEnv(certificates, [0, 400, 800, 1200, 1600]) });
    api = new CollectionsApi(platform);
    await Promise.all([platform.start(), production.start()]);
    owner = await ReceivingBusiness.create(platform, certificates);
    token = await owner.tokenWith([...COLLECTION_SCOPES]);
  });
  afterAll(async () => {
    await owner?.stop();
    await Promise.all([platform?.stop(), production.stop()]);
  });

  it('one call with no body: a VERIFIED FULL business, a GBP account opens for it, and its two customer.status_changed webhooks arrive signed at kyc_url', async () => {
    const response = await sandboxCustomer();
    expect(response.status).toBe(201);
    const { data: customer } = (await response.json()) as { data: CustomerJson };
    expect(response.headers.get('location')).toBe(`/api/external/customer/${customer.id}`);
    expect(customer).toMatchObject({
      type: 'business',
      kyb_scope: 'FULL',
      verification_status: 'VERIFIED',
      business_name: 'Sandbox Trading Ltd',
      country: 'GB',
    });
    expect(customer.owners.map((o) => o.status)).toEqual(['APPROVED']);
    expect(
      customer.documents.map((d) => [d.status, (d as { file?: { size_bytes: number } }).file?.size_bytes]),
    ).toEqual([['APPROVED', 0]]);

    // payments learns the verdict from customer-kyb's event over Kafka: retried while it lags.
    const account = await api.openWhenKnown(token, customer.id, 'GBP');
    expect(account).toMatchObject({ customer_id: customer.id, currency: 'GBP', status: 'active' });
    expect(ibanIsValid(account.account_number)).toBe(true);

    const hooks = await owner.waitForCustomer(customer.id, 2);
    expect(hooks.map((hook) => [hook.path, hook.verified, hook.verificationError])).toEqual([
      ['/kyc', true, undefined],
      ['/kyc', true, undefined],
    ]);
    for (const hook of hooks) expect(hook.headers['x-corridor-signature']).toBe(expectedSignature(owner.secret, hook));
    // Each status is its own delivery, so the two may arrive either way round (decision 0010): a
    // receiver follows old_status -> new_status and changed_at, as this does.
    const moves = hooks
      .map((hook) => (hook.json as StatusChangedBody).data)
      .sort((a, b) => (a.new_status === b.old_status ? -1 : b.new_status === a.old_status ? 1 : 0));
    expect(moves[0]!.changed_at <= moves[1]!.changed_at).toBe(true);
    expect(moves.map(({ old_status, new_status }) => [old_status, new_status])).toEqual([
      ['PENDING', 'PROCESSING'],
      ['PROCESSING', 'VERIFIED'],
    ]);
    expect(moves.every((move) => move.customer_id === customer.id && move.kyb_scope === 'FULL')).toBe(true);
  });

  it('an Idempotency-Key makes a retry the same customer (Idempotent-Replayed), not a second one', async () => {
    const key = `sandbox-${Date.now()}`;
    const first = await sandboxCustomer({ type: 'individual', first_name: 'Ada' }, { 'idempotency-key': key });
    const again = await sandboxCustomer({ type: 'individual', first_name: 'Ada' }, { 'idempotency-key': key });
    expect([first.status, again.status]).toEqual([201, 201]);
    const [a, b] = (await Promise.all([first.json(), again.json()])) as { data: CustomerJson }[];
    expect(b?.data.id).toBe(a?.data.id);
    expect(a?.data).toMatchObject({ type: 'individual', first_name: 'Ada', verification_status: 'VERIFIED' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('REJECTED: the customer is refused a virtual account (CUSTOMER_NOT_VERIFIED, once payments knows the verdict)', async () => {
    const response = await sandboxCustomer({ verification_status: 'REJECTED' });
    expect(response.status).toBe(201);
    const { data: customer } = (await response.json()) as { data: CustomerJson };
    expect(customer.verification_status).toBe('REJECTED');
    await eventually(
      async () => {
        const answer = await (await api.virtualAccountResponse(token, customer.id, 'GBP')).text();
        if (!answer.includes('is REJECTED')) throw new Error(answer);
      },
      15_000,
      200,
    );
    await expectError(await api.virtualAccountResponse(token, customer.id, 'GBP'), 422, {
      code: 'CUSTOMER_NOT_VERIFIED',
      message: /REJECTED/,
    });
  });

  it('the review shortcut: a customer under review is VERIFIED by POST /sandbox/customer/{id}/review; one not under review is 400 NOT_UNDER_REVIEW', async () => {
    const submitted = await api.submittedCustomer(token, 'MINIMAL');
    const reviewed = await api.call(token, 'POST', `/sandbox/customer/${submitted.id}/review`, { verdict: 'VERIFIED' });
    expect(reviewed.status).toBe(200);
    expect(((await reviewed.json()) as { data: CustomerJson }).data.verification_status).toBe('VERIFIED');
    await expectError(
      await api.call(token, 'POST', `/sandbox/customer/${submitted.id}/review`, { verdict: 'REJECTED' }),
      400,
      { code: 'NOT_UNDER_REVIEW' },
    );
    const other = await platform.tokenFor(['customer:write']);
    await expectError(
      await api.call(other.token, 'POST', `/sandbox/customer/${submitted.id}/review`, { verdict: 'REJECTED' }),
      404,
      { code: 'CUSTOMER_NOT_FOUND' },
    );
  });

  it('production: both shortcuts are 403 SANDBOX_ONLY, and no customer is made', async () => {
    const { token: live } = await production.tokenFor(['customer:read', 'customer:write']);
    const prodApi = new CollectionsApi(production);
    await expectError(await prodApi.call(live, 'POST', '/sandbox/customer', {}), 403, { code: 'SANDBOX_ONLY' });
    const created = await prodApi.createCustomer(live, {
      type: 'individual',
      first_name: 'Ada',
      last_name: 'Obi',
      country: 'GB',
    });
    await expectError(
      await prodApi.call(live, 'POST', `/sandbox/customer/${created.id}/review`, { verdict: 'VERIFIED' }),
      403,
      { code: 'SANDBOX_ONLY' },
    );
    const listed = (await (await prodApi.call(live, 'GET', '/customer')).json()) as { data: CustomerJson[] };
    expect(listed.data.map((customer) => customer.id)).toEqual([created.id]);
  });
});
