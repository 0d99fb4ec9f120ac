import { randomUUID } from 'node:crypto';
import { Corridor, CorridorError, verifyWebhook, type Schemas } from '@corridor/sdk';
import { createTestCertificates, eventually, type TestCertificates } from '@corridor/testing';
import { COLLECTION_TIMINGS, CollectionsApi } from '../support/collections.js';
import type { CustomerJson } from '../support/customers.js';
import { Platform } from '../support/platform.js';
import { ReceivingBusiness, receiverEnv } from '../support/receiving-business.js';

/** A 422 while payments' customer projection has not caught up with customer-kyb's verdict. */
const PROJECTION_LAGS = ['CUSTOMER_NOT_FOUND', 'CUSTOMER_NOT_VERIFIED'];

/** What the journey asks of its token, and nothing more. */
const SDK_SCOPES = [
  'webhook:read',
  'webhook:write',
  'virtual-account:read',
  'virtual-account:create',
  'transaction:read',
];

/**
 * Issue 31 part 3: packages/sdk's README journey, written with @corridor/sdk only, against a live
 * platform. Only the VERIFIED customer comes the long way (test/support's files, documents, submit
 * and the back office's review): the sandbox's one-call shortcut is not what this suite is about.
 */
describe('@corridor/sdk against a live platform (issue 31 part 3)', () => {
  let certificates: TestCertificates;
  let platform: Platform;
  let business: ReceivingBusiness;
  let customer: CustomerJson;
  let corridor: Corridor;
  let signingSecret: string;
  let account: Schemas['VirtualAccount'];
  const collections: Schemas['Transaction'][] = [];

  beforeAll(async () => {
    certificates = await createTestCertificates();
    platform = new Platform({
      notificationEnv: receiverEnv(certificates, [0, 400, 800, 1200, 1600]),
      paymentsEnv: COLLECTION_TIMINGS,
    });
    await platform.start();
    // A business with credentials and an HTTPS receiver on 127.0.0.1, not yet registered: the SDK registers it.
    business = await ReceivingBusiness.create(platform, certificates, { register: false });
    customer = await new CollectionsApi(platform).verifiedCustomer(business.token, 'FULL');
    corridor = new Corridor({
      clientId: business.credentials.client_id,
      clientSecret: business.credentials.client_secret,
      baseUrl: platform.publicUrl,
      scope: SDK_SCOPES,
    });
  });
  afterAll(async () => {
    await business?.stop();
    await platform?.stop();
  });

  it('gets its token by itself: the first call answers as the business', async () => {
    const me = await corridor.get('/api/external/whoami');
    expect(me.data).toMatchObject({ business_id: business.businessId, environment: 'sandbox' });
  });

  it('registers the webhook receiver and gets the signing secret', async () => {
    const registered = await corridor.post('/api/external/webhook', {
      body: { collection_url: business.receiver.url('/collection'), payout_url: business.receiver.url('/payout') },
    });
    expect(registered.data).toMatchObject({ collection_url: business.receiver.url('/collection') });
    signingSecret = registered.data.signing_secret;
    expect(signingSecret).toEqual(expect.any(String));
  });

  it('opens a GBP virtual account for the VERIFIED customer', async () => {
    const open = () =>
      corridor.post('/api/external/virtual-account', { body: { customer_id: customer.id, currency: 'GBP' } });
    // payments learns of the verdict through Kafka: until then it answers the customer as unknown or
    // unverified. Those two are waited out; any other refusal fails at once.
    const opened = await eventually(
      async () => {
        const outcome = await open().then(
          (answer) => ({ answer }),
          (error: unknown) => ({ error }),
        );
        const error = 'error' in outcome ? outcome.error : undefined;
        if (error instanceof CorridorError && PROJECTION_LAGS.includes(error.code)) throw error;
        return outcome;
      },
      15_000,
      200,
    );
    if ('error' in opened) throw opened.error;
    account = opened.answer.data;
    expect(account).toMatchObject({ customer_id: customer.id, currency: 'GBP', status: 'active' });
    expect(account.account_number).toMatch(/^GB\d{2}/);
  });

  it('receives two sandbox transfers; the same Idempotency-Key answers the first again', async () => {
    const key = randomUUID();
    const transfer = (amount: number, sender_name: string, headers: Record<string, string> = {}) =>
      corridor.post('/api/external/sandbox/virtual-account/{id}/incoming-transfer', {
        params: { path: { id: account.id } },
        body: { amount, sender_name },
        headers,
      });
    const first = await transfer(250_00, 'Jane Payer', { 'Idempotency-Key': key });
    const again = await transfer(250_00, 'Jane Payer', { 'Idempotency-Key': key });
    const second = await transfer(120_00, 'Ade Payer');
    expect(again.data.id).toBe(first.data.id);
    expect(second.data.id).not.toBe(first.data.id);
    for (const { data } of [first, second]) {
      expect(data).toMatchObject({ type: 'COLLECTION', status: 'SUCCESSFUL', currency: 'GBP' });
      collections.push(data);
    }
  });

  it('lists the transactions with async iteration over cursor pages (one per page)', async () => {
    const seen: string[] = [];
    for await (const tx of corridor.paginate('/api/external/transaction', {
      params: { query: { type: 'COLLECTION', currency: 'GBP', per_page: 1 } },
    })) {
      seen.push(tx.id);
    }
    // Newest first, each on its own page: the second page came through meta.next_cursor.
    expect(seen).toEqual(collections.map((tx) => tx.id).reverse());
  });

  it('gets the collection webhooks, which verify with the SDK’s verifyWebhook', async () => {
    // The customer's own status_changed may reach collection_url too (no kyc_url is registered) if it
    // is delivered after the registration: only the collections' webhooks are counted.
    const isCollectionHook = (request: { path: string; json: unknown }) =>
      request.path === '/collection' &&
      String((request.json as { event?: string } | undefined)?.event).startsWith('collection.');
    const hooks = await business.receiver.waitFor(isCollectionHook, collections.length);
    const events = hooks.map((hook) =>
      verifyWebhook({ secret: signingSecret, rawBody: hook.rawBody, headers: hook.headers }),
    );
    expect(events.map((event) => event.event)).toEqual(collections.map(() => 'collection.successful'));
    expect(events.map((event) => (event.data as { transaction_id: string }).transaction_id).sort()).toEqual(
      collections.map((tx) => tx.id).sort(),
    );
    expect(() =>
      verifyWebhook({ secret: 'not the secret', rawBody: hooks[0]!.rawBody, headers: hooks[0]!.headers }),
    ).toThrow(/(does not match|no v1 entry of webhook-signature matches) .* under the signing secret/);
  });

  it('throws a CorridorError carrying the code and the field errors of a refusal', async () => {
    const error = await corridor
      .post('/api/external/virtual-account', { body: { customer_id: customer.id, currency: 'gbp' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CorridorError);
    expect(error).toMatchObject({ status: 422, code: 'VALIDATION_FAILED', errors: { currency: expect.any(Array) } });
  });

  it('runs the README’s first collection as written: a VERIFIED customer in one call, an NGN account, a transfer', async () => {
    const readme = new Corridor({
      clientId: business.credentials.client_id,
      clientSecret: business.credentials.client_secret,
      baseUrl: platform.publicUrl,
      scope: ['customer:write', 'virtual-account:create', 'transaction:read'],
    });
    const { data: verified } = await readme.post('/api/external/sandbox/customer', {
      body: { type: 'individual', first_name: 'Ada', last_name: 'Obi', country: 'NG', verification_status: 'VERIFIED' },
    });
    expect(verified.verification_status).toBe('VERIFIED');
    const { data: ngn } = await readme.post('/api/external/virtual-account', {
      body: { customer_id: verified.id, currency: 'NGN' },
    });
    const { data: transfer } = await readme.post('/api/external/sandbox/virtual-account/{id}/incoming-transfer', {
      params: { path: { id: ngn.id } },
      body: { amount: 250_000, sender_name: 'Jane Payer' },
    });
    const listed: string[] = [];
    for await (const tx of readme.paginate('/api/external/transaction', {
      params: { query: { type: 'COLLECTION' } },
    })) {
      listed.push(tx.id);
    }
    expect(listed).toContain(transfer.id);
  });
});
