import { randomUUID } from 'node:crypto';
import { createTestCertificates, type TestCertificates } from '@corridor/testing';
import { individualBody, jsonOf, unique, type CustomerCaller, type CustomerJson } from '../support/customers.js';
import { OpenApiContract } from '../support/openapi.js';
import { expectError, Platform } from '../support/platform.js';
import { ReceivingBusiness, receiverEnv } from '../support/receiving-business.js';
import { PUBLIC_URLS, type AttemptMadeJson, type WebhookCaller, type WebhookJson } from '../support/webhooks.js';

/** Notification gives up on a receiver after this long: the in-flight window of a mock trigger. */
const ATTEMPT_TIMEOUT_MS = 3_000;

/**
 * DESIGN.md "Idempotent by construction" (Stripe's semantics) through the gateway, against the
 * services that claim the key: customer-kyb (POST /customer) and notification (POST /webhook, the
 * mock trigger).
 */
describe('Idempotency-Key on public POSTs: replay, reuse, in flight, invalid', () => {
  let certificates: TestCertificates;
  let platform: Platform;
  let contract: OpenApiContract;
  const receivers: ReceivingBusiness[] = [];

  beforeAll(async () => {
    certificates = await createTestCertificates();
    platform = new Platform({
      notificationEnv: { ...receiverEnv(certificates, [0, 200]), WEBHOOK_TIMEOUT_MS: String(ATTEMPT_TIMEOUT_MS) },
    });
    await platform.start();
    contract = await OpenApiContract.load(platform.publicUrl);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    await platform?.stop();
  });

  /** A POST with an Idempotency-Key; a string body is sent as is (its own spacing and key order). */
  const post = (token: string, path: string, body: unknown, key?: string) =>
    platform.api(`/api/external${path}`, token, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'Idempotency-Key': key }) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  const replayedHeader = (response: Response) => response.headers.get('idempotent-replayed');

  describe('POST /api/external/customer (customer-kyb)', () => {
    let caller: CustomerCaller;
    beforeAll(async () => {
      caller = await platform.customers.caller();
    });

    const customersWithEmail = async (who: CustomerCaller, email: string) =>
      (
        await jsonOf<{ data: CustomerJson[] }>(
          await platform.customers.call(who.token, 'GET', `/customer?email=${encodeURIComponent(email)}`),
          200,
          'list customers',
        )
      ).data;

    it('answers a retry with the same key and body with the stored 201, Idempotent-Replayed: true, and one customer', async () => {
      const key = randomUUID();
      const email = `ada.${unique()}@example.com`;
      const body = individualBody({ email, city: 'Lagos' });

      const first = await post(caller.token, '/customer', body, key);
      expect(replayedHeader(first)).toBeNull();
      const created = await contract.expectDocumented(first, 'post', '/api/external/customer');
      expect(first.status).toBe(201);

      // The same request, spaced and ordered otherwise: the parsed body is what counts.
      const respaced = JSON.stringify(Object.fromEntries(Object.entries(body).reverse()), null, 2);
      const retry = await post(caller.token, '/customer', respaced, key);
      expect(retry.status).toBe(201);
      expect(replayedHeader(retry)).toBe('true');
      expect(await contract.expectDocumented(retry, 'post', '/api/external/customer')).toEqual(created);

      expect((await customersWithEmail(caller, email)).map((customer) => customer.id)).toEqual([
        (created.data as CustomerJson).id,
      ]);
    });

    it('refuses the key with another body as 422 IDEMPOTENCY_KEY_REUSED, creating nothing', async () => {
      const key = randomUUID();
      const email = `obi.${unique()}@example.com`;
      await jsonOf(await post(caller.token, '/customer', individualBody({ email }), key), 201, 'create');

      const other = await post(caller.token, '/customer', individualBody({ email, first_name: 'Chidi' }), key);
      await contract.expectDocumented(other.clone(), 'post', '/api/external/customer');
      const refused = await expectError(other, 422, { code: 'IDEMPOTENCY_KEY_REUSED', message: /another request/ });
      expect(String(refused.message)).toContain(key);
      expect(await customersWithEmail(caller, email)).toHaveLength(1);
    });

    it('refuses the key on another path (kyc-data of another customer) as 422 IDEMPOTENCY_KEY_REUSED', async () => {
      const key = randomUUID();
      const [one, two] = await Promise.all([
        platform.customers.createCustomer(caller.token, individualBody()),
        platform.customers.createCustomer(caller.token, individualBody()),
      ]);
      const change = { city: 'Abuja' };
      expect((await post(caller.token, `/customer/${one?.id}/kyc-data`, change, key)).status).toBe(200);
      await expectError(await post(caller.token, `/customer/${two?.id}/kyc-data`, change, key), 422, {
        code: 'IDEMPOTENCY_KEY_REUSED',
      });
      expect((await platform.customers.getCustomer(caller.token, two?.id ?? '')).city).not.toBe('Abuja');
    });

    it('keeps keys apart per business: another business with the same key and body gets its own customer', async () => {
      const key = randomUUID();
      const email = `eze.${unique()}@example.com`;
      const other = await platform.customers.caller();
      const mine = await post(caller.token, '/customer', individualBody({ email }), key);
      const theirs = await post(other.token, '/customer', individualBody({ email }), key);
      expect([mine.status, theirs.status]).toEqual([201, 201]);
      expect(replayedHeader(theirs)).toBeNull();
      expect(await customersWithEmail(other, email)).toHaveLength(1);
      expect(await customersWithEmail(caller, email)).toHaveLength(1);
    });

    it('stores nothing for a request that failed: the key then serves the corrected request', async () => {
      const key = randomUUID();
      const email = `ngozi.${unique()}@example.com`;
      await expectError(await post(caller.token, '/customer', individualBody({ email, country: 'XX' }), key), 422, {
        code: 'VALIDATION_FAILED',
      });
      const corrected = await post(caller.token, '/customer', individualBody({ email }), key);
      expect(corrected.status).toBe(201);
      expect(replayedHeader(corrected)).toBeNull();
      expect(await customersWithEmail(caller, email)).toHaveLength(1);
    });

    it.each([
      ['empty', ''],
      ['longer than 255 characters', 'k'.repeat(256)],
      ['with a space', 'my key'],
    ])('refuses a key %s with 400 IDEMPOTENCY_KEY_INVALID naming the header, creating nothing', async (_, key) => {
      const email = `invalid.${unique()}@example.com`;
      const response = await post(caller.token, '/customer', individualBody({ email }), key);
      await contract.expectDocumented(response.clone(), 'post', '/api/external/customer');
      await expectError(response, 400, { code: 'IDEMPOTENCY_KEY_INVALID', message: /Idempotency-Key header/ });
      expect(await customersWithEmail(caller, email)).toEqual([]);
    });
  });

  describe('POST /api/external/webhook (notification)', () => {
    let caller: WebhookCaller;
    beforeAll(async () => {
      caller = await platform.webhooks.caller();
    });

    it('answers a retried registration with the stored 201, signing secret included; without the key it is the 409 it is', async () => {
      const key = randomUUID();
      const first = await post(caller.token, '/webhook', PUBLIC_URLS, key);
      const registered = await contract.expectDocumented(first, 'post', '/api/external/webhook');
      expect(first.status).toBe(201);
      expect((registered.data as WebhookJson).signing_secret).toMatch(/^whsec_/);

      const retry = await post(caller.token, '/webhook', PUBLIC_URLS, key);
      expect(retry.status).toBe(201);
      expect(replayedHeader(retry)).toBe('true');
      expect(await contract.expectDocumented(retry, 'post', '/api/external/webhook')).toEqual(registered);

      await expectError(await post(caller.token, '/webhook', PUBLIC_URLS), 409, {
        code: 'WEBHOOK_ALREADY_REGISTERED',
      });
      await expectError(await post(caller.token, '/webhook', { ...PUBLIC_URLS, kyc_url: null }, key), 422, {
        code: 'IDEMPOTENCY_KEY_REUSED',
      });
      expect((await platform.webhooks.get(caller.token)).id).toBe((registered.data as WebhookJson).id);
    });

    it('refuses an invalid key before notification is asked: 400 IDEMPOTENCY_KEY_INVALID, nothing registered', async () => {
      const fresh = await platform.webhooks.caller();
      await expectError(await post(fresh.token, '/webhook', PUBLIC_URLS, 'x'.repeat(300)), 400, {
        code: 'IDEMPOTENCY_KEY_INVALID',
        message: /Idempotency-Key header is 300 characters long/,
      });
      await expectError(await platform.webhooks.call(fresh.token, 'GET', '/webhook'), 404);
    });

    it('answers 409 IDEMPOTENCY_REQUEST_IN_FLIGHT while the first mock trigger with the key waits on the receiver, then replays it', async () => {
      const owner = await ReceivingBusiness.create(platform, certificates);
      receivers.push(owner);
      // The receiver holds the first request unanswered until notification gives up on it.
      owner.receiver.respondWith((_, index) => (index === 0 ? 'hang' : { status: 200 }));
      const key = randomUUID();
      const body = { event: 'collection.expired' };

      const first = post(owner.token, '/webhook/mock', body, key);
      await owner.receiver.waitFor(() => true, 1, 10_000);
      const meanwhile = await post(owner.token, '/webhook/mock', body, key);
      await contract.expectDocumented(meanwhile.clone(), 'post', '/api/external/webhook/mock');
      await expectError(meanwhile, 409, { code: 'IDEMPOTENCY_REQUEST_IN_FLIGHT' });

      const answered = await first;
      const made = await jsonOf<{ data: AttemptMadeJson }>(answered, 200, 'mock');
      expect(made.data.attempt).toMatchObject({ trigger: 'mock', outcome: 'failed', error_class: 'timeout' });

      const retry = await post(owner.token, '/webhook/mock', body, key);
      expect(replayedHeader(retry)).toBe('true');
      expect(await jsonOf(retry, 200, 'mock replayed')).toEqual(made);
      expect(owner.receiver.requests).toHaveLength(1);
      const mocks = await platform.webhooks.deliveries(owner.token);
      expect(mocks.data.map((delivery) => delivery.id)).toEqual([made.data.id]);
    });
  });
});
