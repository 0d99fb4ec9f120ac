import {
  createTestCertificates,
  WebhookReceiver,
  type ReceivedWebhook,
  type TestCertificates,
} from '@corridor/testing';
import type { Browser } from 'puppeteer-core';
import {
  COLLECTION_SCOPES,
  COLLECTION_TIMINGS,
  CollectionsApi,
  collectionHookOf,
  refundHookOf,
  type VirtualAccountJson,
} from '../support/collections.js';
import { unique, type CustomerJson } from '../support/customers.js';
import { INVITATION_LINK, launchChromium, PASSWORD, screenshotFolder, Visitor } from '../support/dashboard-visitor.js';
import { Platform } from '../support/platform.js';
import { expectedSignature, receiverEnv } from '../support/receiving-business.js';

/**
 * Issue 30's "done when": a new platform, from the back office's invitation alone, reaches its first
 * successful sandbox collection with its webhook verified, without the admin token. The back
 * office provisions the business and invites its owner (the only admin calls until the books are
 * checked at the end); everything else is the owner in the dashboard (headless Chromium) and the
 * platform's own code calling the API with the key the dashboard gave it:
 *
 * invitation mail → password → an API key (secret shown once) → webhook URLs on a receiver on
 * 127.0.0.1 (signing secret shown once) → a FULL-KYB customer created and submitted through the API →
 * the sandbox tools verify it → a GBP virtual account through the API → the sandbox tools send a
 * transfer into it → the collection webhook arrives, signed with the secret the dashboard showed →
 * the Money pages show the collection, the delivery log its delivery → replay, a mock event, a
 * refund started from the collection's page.
 *
 * Every page is checked as the Chromium suite checks pages (status, no dialog, no foreign script,
 * axe-core) and screenshotted into .local/test-output/dashboard/first-collection/.
 *
 * On a loaded machine: webhook and mail waits are in quiet-machine time (MachineClock); the
 * verdict reaches payments through Kafka, so the account is opened once payments knows it
 * (openWhenKnown, the API's own lagging answer, as a platform would retry).
 */
describe('the dashboard: from the back office’s invitation alone to a first sandbox collection', () => {
  let certificates: TestCertificates;
  let receiver: WebhookReceiver;
  let platform: Platform;
  let api: CollectionsApi;
  let browser: Browser;
  let screenshots: string;
  let owner: Visitor;
  /** Admin API calls: the back office's, counted to prove the journey needs no other. */
  const adminCalls: string[] = [];
  const businessName = `First Light Payments ${unique()}`;
  const ownerEmail = `founder-${unique()}@example.com`;
  let businessId: string;
  let token: string;
  /** The signing secret as the dashboard showed it, once: what the receiver verifies with. */
  let signingSecret: string | undefined;
  let customer: CustomerJson;
  let account: VirtualAccountJson;
  let collectionId: string;

  const collectionHooks = (transactionId: string, count = 1) =>
    receiver.waitFor((request) => collectionHookOf(request, transactionId) !== undefined, count);

  const expectSignedBy = (hook: ReceivedWebhook, secret: string) => {
    expect({ verified: hook.verified, error: hook.verificationError }).toEqual({ verified: true, error: undefined });
    expect(hook.headers['x-corridor-signature']).toBe(expectedSignature(secret, hook));
  };

  beforeAll(async () => {
    certificates = await createTestCertificates();
    receiver = await WebhookReceiver.start({ certificates, secret: () => signingSecret });
    platform = new Platform({
      dashboard: true,
      notificationEnv: receiverEnv(certificates, [0, 400, 800, 1200, 1600]),
      paymentsEnv: COLLECTION_TIMINGS,
    });
    api = new CollectionsApi(platform);
    screenshots = await screenshotFolder('first-collection');
    [browser] = await Promise.all([launchChromium(), platform.start()]);
    const admin = platform.admin.bind(platform);
    platform.admin = (path: string, init: RequestInit = {}) => {
      adminCalls.push(`${init.method ?? 'GET'} ${path.replace(/[0-9a-f-]{36}/g, ':id')}`);
      return admin(path, init);
    };
    businessId = (await platform.createBusiness(businessName)).id;
    owner = await Visitor.open(browser, platform.dashboardUrl, screenshots);
  });
  afterAll(async () => {
    await owner?.close().catch(() => undefined);
    await browser?.close();
    await receiver?.stop();
    await platform?.stop();
  });

  it('the back office invites the owner; from the mail, the owner sets a password and is in the sandbox dashboard', async () => {
    const invited = await platform.admin(`/admin/businesses/${businessId}/members`, {
      method: 'POST',
      body: JSON.stringify({ email: ownerEmail, role: 'owner' }),
    });
    expect(invited.status).toBe(201);
    const mail = platform.mail;
    if (!mail) throw new Error('the platform has no mail receiver');
    const [received] = await mail.waitFor((candidate) => candidate.envelopeTo.includes(ownerEmail));
    const link = INVITATION_LINK.exec(received?.text ?? '')?.[0];
    if (!link) throw new Error(`no invitation link in the mail to ${ownerEmail}`);

    await owner.goto(link, '01-invitation');
    await owner.type('#field-name', 'Fola Founder');
    await owner.type('#field-password', PASSWORD);
    await owner.type('#field-confirm', PASSWORD);
    await owner.click('button::-p-text(Join)', '02-totp-enrolment');
    // Two-step sign-in is optional in the sandbox (decision 0028); the owner turns it on later.
    await owner.click('a::-p-text(Skip for now)', '03-home');
    expect(await owner.heading()).toBe(businessName);
  });

  it('the owner creates an API key; the platform’s code gets a token with it', async () => {
    await owner.goto('/api-keys/new', '04-api-key-new');
    await owner.click('button::-p-text(Create the key)', '05-api-key-created', 201);
    const clientId = await owner.page.$eval('#client-id', (code) => code.textContent ?? '');
    const clientSecret = await owner.page.$eval('#client-secret', (code) => code.textContent ?? '');
    token = await platform.accessToken(
      { client_id: clientId, client_secret: clientSecret },
      COLLECTION_SCOPES.join(' '),
    );
    expect((await platform.api('/api/external/whoami', token)).status).toBe(200);
  });

  it('the owner registers webhook URLs on a receiver on 127.0.0.1; the signing secret is shown once', async () => {
    await owner.goto('/webhooks', '06-webhooks-none');
    expect(await owner.text()).toContain('No webhook URLs are registered yet');
    await owner.type('#field-collection_url', receiver.url('/collection'));
    await owner.type('#field-payout_url', receiver.url('/payout'));
    await owner.type('#field-kyc_url', receiver.url('/kyc'));
    await owner.click('button::-p-text(Register the URLs)', '07-webhooks-registered-secret-once', 201);
    const shown = await owner.page.$eval('#signing-secret', (code) => code.textContent ?? '');
    expect(shown.length).toBeGreaterThanOrEqual(32);
    signingSecret = shown;
    expect(await owner.text()).toContain('x-corridor-signature');

    await owner.goto('/webhooks', '08-webhooks');
    expect(await owner.page.content()).not.toContain(shown);
    expect(await owner.text()).toContain(receiver.url('/collection'));
  });

  it('a customer created and submitted through the API is verified with the sandbox tools; its webhook arrives signed', async () => {
    customer = await api.submittedCustomer(token, 'FULL');
    expect(customer.verification_status).toBe('PROCESSING');

    await owner.goto('/customers', '09-customers');
    await owner.click(`a[href="/customers/${customer.id}"]`, '10-customer-under-review');
    expect(await owner.text()).toContain('PROCESSING');

    await owner.click(`a[href="/sandbox?customer_id=${customer.id}"]`, '11-sandbox-tools');
    expect(await owner.page.$eval('#field-customer_id', (input) => (input as unknown as { value: string }).value)).toBe(
      customer.id,
    );
    await owner.page.select('#field-verdict', 'VERIFIED');
    await owner.click('form[action="/sandbox/customer-review"] button[type="submit"]', '12-sandbox-customer-verified');
    await owner.click(`a[href="/customers/${customer.id}"]`, '13-customer-verified');
    expect(await owner.text()).toContain('VERIFIED');

    const [hook] = await receiver.waitFor(
      (request) =>
        request.path === '/kyc' &&
        (request.json as { data?: { customer_id?: string; verification_status?: string } } | undefined)?.data
          ?.customer_id === customer.id,
    );
    if (!hook) throw new Error('no customer webhook');
    expectSignedBy(hook, signingSecret ?? '');
  });

  it('money arrives in a GBP virtual account through the sandbox tools: the first collection, its webhook verified', async () => {
    // Through the API, as the platform's code does; payments learns the verdict over Kafka.
    account = await api.openWhenKnown(token, customer.id, 'GBP');
    await owner.goto('/money/virtual-accounts', '14-virtual-accounts');
    expect(await owner.text()).toContain(account.account_number);

    await owner.click(`a[href="/money/virtual-accounts/${account.id}"]`, '15-virtual-account');
    await owner.click(`a[href="/sandbox?virtual_account_id=${account.id}"]`, '16-sandbox-transfer-form');
    await owner.fill('#field-amount', '250.00');
    await owner.fill('#field-sender_name', 'Ada Payer');
    await owner.click(
      'form[action="/sandbox/incoming-transfer"] button[type="submit"]',
      '16b-sandbox-transfer-sent',
      201,
    );
    const href = await owner.page.$eval('a::-p-text(See the transaction)', (a) => a.getAttribute('href') ?? '');
    collectionId = href.split('/').at(-1) ?? '';

    const [hook] = await collectionHooks(collectionId);
    if (!hook) throw new Error('no collection webhook');
    expectSignedBy(hook, signingSecret ?? '');
    expect(collectionHookOf(hook, collectionId)).toMatchObject({
      event: 'collection.successful',
      data: { transaction_id: collectionId, amount: 25_000, currency: 'GBP', transaction_status: 'SUCCESSFUL' },
    });

    await owner.click('a::-p-text(See the transaction)', '17-collection');
    expect(await owner.text()).toContain('Successful');
    expect(await owner.text()).toContain('250.00 GBP');
    expect(await owner.text()).toContain('Ada Payer');
    await owner.goto('/money/transactions?type=COLLECTION', '18-collections');
    expect(await owner.page.$$(`a[href="/money/transactions/${collectionId}"]`)).not.toHaveLength(0);
    await owner.goto('/money', '19-wallets');
    expect(await owner.text()).toContain('GBP');
  });

  it('the delivery log shows the collection’s delivery; replaying it sends the same webhook again', async () => {
    const [first] = await collectionHooks(collectionId);
    await owner.goto('/webhooks/deliveries', '20-deliveries');
    await owner.goto('/webhooks/deliveries?status=succeeded', '21-deliveries-succeeded');
    const links = await owner.page.$$eval('tbody a[href^="/webhooks/deliveries/"]', (anchors) =>
      anchors.map((a) => a.getAttribute('href') ?? ''),
    );
    expect(links.length).toBeGreaterThanOrEqual(2); // the customer's and the collection's
    let opened = false;
    for (const link of links) {
      await owner.goto(link, '22-delivery');
      if ((await owner.text()).includes(collectionId)) {
        opened = true;
        break;
      }
    }
    expect(opened).toBe(true);
    await owner.click('button::-p-text(Replay this delivery)', '23-delivery-replayed');
    expect(await owner.text()).toMatch(/replay/i);

    const hooks = await collectionHooks(collectionId, 2);
    const replayed = hooks.at(-1);
    if (!first || !replayed) throw new Error('no replay arrived');
    expect(replayed.webhookId).toBe(first.webhookId);
    expectSignedBy(replayed, signingSecret ?? '');
  });

  it('a mock event from the dashboard arrives at the receiver, signed', async () => {
    const before = receiver.requests.length;
    await owner.goto('/webhooks/mock-event', '24-mock-event');
    await owner.page.select('#field-event', 'collection.successful');
    await owner.click('button::-p-text(Send the mock event)', '25-mock-event-sent');
    const [mock] = await receiver.waitFor(
      (request) =>
        receiver.requests.indexOf(request) >= before &&
        (request.json as { event?: string } | undefined)?.event === 'collection.successful',
    );
    if (!mock) throw new Error('no mock event');
    expectSignedBy(mock, signingSecret ?? '');
  });

  it('a refund started from the collection’s page reaches the receiver', async () => {
    // A second transfer first: the wallet holds the first's amount less its fee, and a refund
    // reserves the full amount and the refund fee.
    await owner.goto(`/sandbox?virtual_account_id=${account.id}`, '26-sandbox-second-transfer');
    await owner.fill('#field-amount', '250.00');
    await owner.fill('#field-sender_name', 'Bo Payer');
    await owner.click(
      'form[action="/sandbox/incoming-transfer"] button[type="submit"]',
      '27-sandbox-second-transfer-sent',
      201,
    );

    await owner.goto(`/money/transactions/${collectionId}`, '28-collection-refund-form');
    await owner.fill('#field-amount', '250.00');
    await owner.fill('#field-reason', 'Order cancelled');
    await owner.click('button::-p-text(Refund the collection)', '29-refund');
    expect(owner.path()).toMatch(/^\/money\/transactions\/[0-9a-f-]{36}$/);
    expect(await owner.text()).toContain('Order cancelled');

    const [initiated] = await receiver.waitFor(
      (request) =>
        (request.json as { event?: string; data?: { transaction_id?: string } } | undefined)?.data?.transaction_id ===
          collectionId && (request.json as { event?: string }).event === 'refund_initiated',
    );
    if (!initiated) throw new Error('no refund webhook');
    expectSignedBy(initiated, signingSecret ?? '');
    const refundId = (initiated.json as { data: { refund_id: string } }).data.refund_id;
    expect(refundHookOf(initiated, refundId)).toMatchObject({ data: { reason: 'Order cancelled', amount: 25_000 } });
  });

  it('the other pages a platform reads: all transactions, the account, a merchant KYC session, revoking a key', async () => {
    await owner.goto('/money/transactions', '30-transactions');
    await owner.goto(`/money/virtual-accounts/${account.id}`, '31-virtual-account');
    expect(await owner.text()).toContain(account.account_number);

    const reference = `merchant-${unique()}`;
    const created = await platform.api('/api/external/kyc-session', token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customer_reference: reference, requirements: ['DOCUMENTS', 'SELFIE'] }),
    });
    expect(created.status).toBe(201);
    const session = ((await created.json()) as { data: { id: string } }).data;
    await owner.goto('/kyc-sessions', '32-kyc-sessions');
    await owner.click(`a[href="/kyc-sessions/${session.id}"]`, '33-kyc-session');
    expect(await owner.text()).toContain(reference);

    await owner.goto('/api-keys', '34-api-keys');
    const revoke = await owner.page.$eval('a[href$="/revoke"]', (a) => a.getAttribute('href') ?? '');
    await owner.goto(revoke, '35-api-key-revoke');
  });

  it('the owner resets a forgotten password from the mailed link and signs in with the new one', async () => {
    await owner.click('button::-p-text(Sign out)', '36-signed-out');
    await owner.goto('/password-reset', '37-password-reset');
    await owner.type('#field-email', ownerEmail);
    await owner.click('button::-p-text(Send the link)', '38-password-reset-sent');
    const mail = platform.mail;
    if (!mail) throw new Error('the platform has no mail receiver');
    const [received] = await mail.waitFor(
      (candidate) => candidate.envelopeTo.includes(ownerEmail) && /\/password-reset\//.test(candidate.text),
    );
    const link = /http:\/\/127\.0\.0\.1:\d+\/password-reset\/[A-Za-z0-9_-]{16,200}/.exec(received?.text ?? '')?.[0];
    if (!link) throw new Error(`no reset link in the mail: ${received?.text}`);
    await owner.goto(link, '39-password-reset-new');
    const renewed = `${PASSWORD} renewed`;
    await owner.type('#field-password', renewed);
    await owner.type('#field-confirm', renewed);
    await owner.click('button::-p-text(Set the password)', '40-password-reset-done');

    await owner.goto('/sign-in', '41-sign-in');
    await owner.type('#field-email', ownerEmail);
    await owner.type('#field-password', renewed);
    await owner.click('button::-p-text(Sign in)', '42-home-after-reset');
    expect(owner.path()).toBe('/');
  });

  it('the back office did nothing but provision the business and invite its owner; the books balance', async () => {
    expect(adminCalls).toEqual(['POST /admin/businesses', 'POST /admin/businesses/:id/members']);
    await api.expectBooksBalance();
  });

  it('another business’s customer, delivery and KYC session are 404, and its customer cannot be reviewed to this owner, as in the API', async () => {
    // The back office provisions a second platform; everything else is that platform's own API calls.
    const other = await platform.createBusiness(`Other Platform ${unique()}`);
    const theirToken = await platform.accessToken(
      await platform.createCredentials(other.id),
      'webhook:read webhook:write mock:webhook:trigger customer:read customer:write',
    );
    await platform.webhooks.register(theirToken, {
      collection_url: receiver.url('/theirs'),
      payout_url: receiver.url('/theirs'),
    });
    const theirCustomer = await platform.api('/api/external/sandbox/customer', theirToken, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ verification_status: 'VERIFIED' }),
    });
    expect(theirCustomer.status).toBe(201);
    const { id: customerId } = ((await theirCustomer.json()) as { data: { id: string } }).data;
    const mock = await platform.webhooks.mock(theirToken, { event: 'collection.successful' });
    const theirSession = await platform.api('/api/external/kyc-session', theirToken, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customer_reference: `theirs-${unique()}`, requirements: ['DOCUMENTS'] }),
    });
    const { id: sessionId } = ((await theirSession.json()) as { data: { id: string } }).data;

    await owner.goto(`/customers/${customerId}`, '44-cross-business-customer', 404);
    await owner.goto(`/webhooks/deliveries/${mock.id}`, '45-cross-business-delivery', 404);
    await owner.goto(`/kyc-sessions/${sessionId}`, '46-cross-business-kyc-session', 404);
    await owner.goto(`/sandbox?customer_id=${customerId}`, '47-sandbox-their-customer');
    await owner.page.select('#field-verdict', 'REJECTED');
    await owner.click(
      'form[action="/sandbox/customer-review"] button[type="submit"]',
      '48-sandbox-their-customer-refused',
      404,
    );
    expect(await owner.text()).toContain('Your business has no customer with this ID.');
  });
});
