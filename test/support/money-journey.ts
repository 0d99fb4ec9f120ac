import { eventually, WebhookReceiver, type ReceivedWebhook, type TestCertificates } from '@corridor/testing';
import type { Browser } from 'puppeteer-core';
import {
  COLLECTION_SCOPES,
  COLLECTION_TIMINGS,
  CollectionsApi,
  collectionHookOf,
  refundHookOf,
  type CollectionTransactionJson,
  type VirtualAccountJson,
} from './collections.js';
import { unique, type CustomerJson } from './customers.js';
import { PASSWORD, screenshotFolder, Visitor } from './dashboard-visitor.js';
import type { Platform, PlatformOptions } from './platform.js';
import { PAYOUT_SCOPES, PAYOUT_TIMINGS, PayoutsApi, type PayoutJson } from './payouts.js';
import { customerOf, expectedSignature, receiverEnv } from './receiving-business.js';

/**
 * The main money journey of issue 33 across every service, as one platform business lives it:
 * the back office makes the business and invites its owner; in the dashboard the owner joins, signs
 * in and creates the API key the platform's code uses, and registers webhook URLs on a receiver on
 * 127.0.0.1; through the API a sandbox customer is VERIFIED, a GBP virtual account opens, two
 * transfers arrive (collections), the first is refunded, a payout is settled by the worker; every
 * webhook arrives signed with the secret the dashboard showed, the wallet holds exactly what is left,
 * the dashboard shows the money, and the books balance. The version-skew suite runs it once per pair.
 */

/** The business's own GBP fees, so every amount is exact: collections 0.50 + 1 %, refunds 1.00, payouts 2.00 + 0.5 %. */
const FEES = [
  { type: 'collection', currency: 'GBP', flat: 50, percentage_bps: 100 },
  { type: 'refund', currency: 'GBP', flat: 100, percentage_bps: 0 },
  { type: 'payout', currency: 'GBP', flat: 200, percentage_bps: 50 },
] as const;
const TRANSFER = 250_00;
const COLLECTION_FEE = 50 + TRANSFER / 100;
const PAYOUT = 100_00;
const PAYOUT_FEE = 200 + PAYOUT / 200;
const REFUND_FEE = 100;
/** Monzo's sort code in the sandbox directory: any 8-digit account settles successfully. */
const MONZO = '040004';

const SCOPES = [...new Set([...COLLECTION_SCOPES, ...PAYOUT_SCOPES, 'webhook:read'])];

/** What the journey needs of a platform's start: receivers on 127.0.0.1, the money rails scaled down, the dashboard. */
export function journeyOptions(certificates: TestCertificates): PlatformOptions {
  return {
    dashboard: true,
    notificationEnv: receiverEnv(certificates, [0, 400, 800, 1200, 1600]),
    paymentsEnv: { ...COLLECTION_TIMINGS, ...PAYOUT_TIMINGS },
  };
}

/** What the journey runs against: the platform as the pair arranged it, a browser, where screenshots go. */
export interface JourneyStage {
  platform: Platform;
  browser: Browser;
  certificates: TestCertificates;
  /** The folder under .local/test-output/dashboard/ for this run's pages. */
  screenshots: string;
}

/** Declares the journey's tests, in order, against the stage `stage()` answers once they run. */
export function describeMoneyJourney(stage: () => JourneyStage): void {
  let platform: Platform;
  let collections: CollectionsApi;
  let payouts: PayoutsApi;
  let receiver: WebhookReceiver;
  let owner: Visitor;
  let signingSecret: string | undefined;
  const businessName = `Skew Payments ${unique()}`;
  const ownerEmail = `owner-${unique()}@example.com`;
  let businessId: string;
  let token: string;
  let customer: CustomerJson;
  let account: VirtualAccountJson;
  let first: CollectionTransactionJson;
  let refundId: string;
  let payout: PayoutJson;

  /** The journey's webhooks `count` times matching `what`, each checked signed with the dashboard's secret. */
  const signedHooks = async (what: (hook: ReceivedWebhook) => boolean, count = 1): Promise<ReceivedWebhook[]> => {
    const hooks = await receiver.waitFor(what, count, 60_000);
    for (const hook of hooks) {
      expect({ verified: hook.verified, error: hook.verificationError }).toEqual({ verified: true, error: undefined });
      expect(hook.headers['x-corridor-signature']).toBe(expectedSignature(signingSecret ?? '', hook));
    }
    return hooks;
  };
  const eventOf = (hook: ReceivedWebhook) => (hook.json as { event?: string } | undefined)?.event;

  beforeAll(async () => {
    const { browser, certificates, screenshots } = stage();
    platform = stage().platform;
    collections = new CollectionsApi(platform);
    payouts = new PayoutsApi(platform);
    receiver = await WebhookReceiver.start({ certificates, secret: () => signingSecret });
    owner = await Visitor.open(browser, platform.dashboardUrl, await screenshotFolder(screenshots));
  });
  afterAll(async () => {
    await owner?.close().catch(() => undefined);
    await receiver?.stop();
  });

  it('the back office makes a business and invites its owner; in the dashboard the owner joins, signs in and creates the API key the platform uses', async () => {
    businessId = (await platform.createBusiness(businessName)).id;
    // The journey polls more than the default 120 calls a minute (seed 8): limits are not under test.
    await platform.patchBusiness(businessId, { rate_limits: { per_minute: 100_000, per_hour: 6_000_000 } });
    for (const rule of FEES) await collections.setFeeRule({ business_id: businessId, ...rule });
    const invited = await platform.admin(`/admin/businesses/${businessId}/members`, {
      method: 'POST',
      body: JSON.stringify({ email: ownerEmail, role: 'owner' }),
    });
    expect(invited.status).toBe(201);
    const { invitation_url } = (await invited.json()) as { invitation_url: string };

    await owner.goto(invitation_url, '01-invitation');
    await owner.type('#field-name', 'Skew Owner');
    await owner.type('#field-password', PASSWORD);
    await owner.type('#field-confirm', PASSWORD);
    await owner.click('button::-p-text(Join)', '02-totp-enrolment');
    await owner.click('a::-p-text(Skip for now)', '03-home');
    await owner.click('button::-p-text(Sign out)', '04-signed-out');
    await owner.goto('/sign-in', '05-sign-in');
    await owner.type('#field-email', ownerEmail);
    await owner.type('#field-password', PASSWORD);
    await owner.click('button::-p-text(Sign in)', '06-home');
    expect(owner.path()).toBe('/');
    expect(await owner.heading()).toBe(businessName);

    await owner.goto('/api-keys/new', '07-api-key-new');
    await owner.click('button::-p-text(Create the key)', '08-api-key-created', 201);
    const clientId = await owner.page.$eval('#client-id', (code) => code.textContent ?? '');
    const clientSecret = await owner.page.$eval('#client-secret', (code) => code.textContent ?? '');
    token = await platform.accessToken({ client_id: clientId, client_secret: clientSecret }, SCOPES.join(' '));
    const whoami = await platform.api('/api/external/whoami', token);
    expect(whoami.status).toBe(200);
    expect(((await whoami.json()) as { data: { business_id: string } }).data.business_id).toBe(businessId);
  });

  it('the owner registers webhook URLs in the dashboard; the signing secret is shown once', async () => {
    await owner.goto('/webhooks', '09-webhooks-none');
    await owner.type('#field-collection_url', receiver.url('/collection'));
    await owner.type('#field-payout_url', receiver.url('/payout'));
    await owner.type('#field-kyc_url', receiver.url('/kyc'));
    await owner.click('button::-p-text(Register the URLs)', '10-webhooks-secret-once', 201);
    const shown = await owner.page.$eval('#signing-secret', (code) => code.textContent ?? '');
    expect(shown.length).toBeGreaterThanOrEqual(32);
    signingSecret = shown;
  });

  it('a sandbox customer is VERIFIED in one call; its two status webhooks arrive signed', async () => {
    const created = await collections.call(token, 'POST', '/sandbox/customer', { verification_status: 'VERIFIED' });
    expect(created.status).toBe(201);
    customer = ((await created.json()) as { data: CustomerJson }).data;
    expect(customer.verification_status).toBe('VERIFIED');
    const hooks = await signedHooks((hook) => customerOf(hook) === customer.id, 2);
    expect(hooks.map((hook) => hook.path)).toEqual(['/kyc', '/kyc']);
  });

  it('a GBP virtual account opens once payments knows the customer; two transfers into it are collections, each webhook signed', async () => {
    account = await collections.openWhenKnown(token, customer.id, 'GBP');
    expect(account).toMatchObject({ customer_id: customer.id, currency: 'GBP', status: 'active' });
    first = await collections.incomingTransfer(token, account.id, { amount: TRANSFER, sender_name: 'Ada Payer' });
    const second = await collections.incomingTransfer(token, account.id, { amount: TRANSFER, sender_name: 'Bo Payer' });
    for (const collection of [first, second]) {
      expect(collection).toMatchObject({
        type: 'COLLECTION',
        status: 'SUCCESSFUL',
        amount: TRANSFER,
        fee: COLLECTION_FEE,
        net: TRANSFER - COLLECTION_FEE,
      });
      const hooks = await signedHooks((request) => collectionHookOf(request, collection.id) !== undefined);
      expect(hooks.map((hook) => collectionHookOf(hook, collection.id))).toMatchObject([
        {
          event: 'collection.successful',
          data: { transaction_id: collection.id, business_id: businessId, amount: TRANSFER, currency: 'GBP' },
        },
      ]);
    }
  });

  it('the first collection is refunded in full: processing, then successful; refund_initiated and refund arrive signed', async () => {
    const refund = await collections.refund(token, { transaction_id: first.id, reference: `rf-${unique()}` });
    expect(refund).toMatchObject({ transaction_id: first.id, status: 'processing', amount: TRANSFER, currency: 'GBP' });
    refundId = refund.id;
    const refunded = await collections.transactionWhen(token, first.id, (read) => read.refund_status === 'successful');
    expect(refunded.refund).toMatchObject({ id: refundId, status: 'successful' });
    const hooks = await signedHooks((request) => refundHookOf(request, refundId) !== undefined, 2);
    expect(hooks.map(eventOf).sort()).toEqual(['refund', 'refund_initiated']);
  });

  it('a GBP payout is settled by the worker: pending, processing, successful, each webhook signed', async () => {
    payout = await payouts.payout(token, {
      amount: PAYOUT,
      currency: 'GBP',
      bank_code: MONZO,
      account_number: String(10_000_000 + Math.floor(Math.random() * 89_999_999)),
      narration: `Invoice ${unique()}`,
      reference: `po-${unique()}`,
    });
    expect(payout).toMatchObject({ status: 'pending', amount: PAYOUT, fee: PAYOUT_FEE, currency: 'GBP' });
    await payouts.payoutWhen(token, payout.id, (read) => read.status === 'successful');
    const isPayout = (request: ReceivedWebhook) =>
      request.path === '/payout' && (request.json as { data?: { id?: string } }).data?.id === payout.id;
    await signedHooks((request) => isPayout(request) && eventOf(request) === 'payout.successful');
    const events = new Set(receiver.requests.filter(isPayout).map(eventOf));
    expect(events).toEqual(new Set(['payout.pending', 'payout.processing', 'payout.successful']));
  });

  it('every webhook of the journey arrived signed and the delivery log shows each succeeded', async () => {
    for (const hook of receiver.requests) expect(hook.verified).toBe(true);
    // notification records an attempt's outcome just after the receiver has answered it.
    const deliveries = await eventually(
      async () => {
        const all = await platform.webhooks.allDeliveries(token);
        if (all.some((delivery) => delivery.status === 'pending')) throw new Error('a delivery is still pending');
        return all;
      },
      30_000,
      200,
    );
    expect(deliveries.length).toBeGreaterThanOrEqual(9); // 2 kyc, 2 collections, 2 refund, 3 payout
    expect(deliveries.filter((delivery) => delivery.status !== 'succeeded')).toEqual([]);
  });

  it('the wallet holds exactly what is left, the dashboard shows the payout, and the books balance', async () => {
    const expected = 2 * (TRANSFER - COLLECTION_FEE) - (TRANSFER + REFUND_FEE) - (PAYOUT + PAYOUT_FEE);
    expect(await collections.wallet(token, 'GBP')).toMatchObject({
      available_balance: expected,
      pending_balance: 0,
      ledger_balance: expected,
    });
    await owner.goto('/money/transactions', '11-transactions');
    expect(await owner.page.$$(`a[href="/money/transactions/${payout.id}"]`)).not.toHaveLength(0);
    await owner.goto(`/money/transactions/${payout.id}`, '12-payout');
    expect(await owner.text()).toContain('100.00 GBP');
    await collections.expectBooksBalance();
  });
}
