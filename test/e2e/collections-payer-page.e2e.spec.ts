import { execFileSync } from 'node:child_process';
import { createTestCertificates, WebhookReceiver, type TestCertificates } from '@corridor/testing';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { CollectionsApi, trustedKeyFlag, type CollectionTransactionJson } from '../support/collections.js';
import { businessBody, unique } from '../support/customers.js';
import type { WalletJson } from '../support/payments.js';
import { Platform } from '../support/platform.js';

/** Debian's chromium (npm test installs it when missing); puppeteer-core downloads no browser. */
function chromiumPath(): string {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('no chromium on PATH: `apt-get install chromium` (deploy/local/test.sh does it for npm test)');
  }
}

/**
 * Seed 4.4 in a real browser: the payer opens a money request's payment_link, sees what is asked,
 * answers, and is sent to the business's redirect_url (its own HTTPS site on 127.0.0.1) with
 * transaction_id and status added to the query it had. Only an approved request credits the wallet.
 */
describe('a money request answered on its payment page in headless Chromium (issue 11)', () => {
  let certificates: TestCertificates;
  /** The business's website: records every request the browser makes to it. */
  let site: WebhookReceiver;
  let browser: Browser;
  const platform = new Platform({ notifications: false });
  const api = new CollectionsApi(platform);
  let token: string;
  let customerId: string;
  let walletBefore: WalletJson;
  const approved: CollectionTransactionJson[] = [];

  /** A money request of ₦15,000.00 that returns the payer to https://127.0.0.1:<port>/done?order=42. */
  const moneyRequest = (description: string) =>
    api.moneyRequestWhenKnown(token, {
      customer_id: customerId,
      amount: 15_000_00,
      currency: 'NGN',
      description,
      redirect_url: site.url('/done?order=42'),
      reference: `order-42-${unique()}`,
    });

  /** Opens the payment link, clicks `button` and waits for where the browser ends. */
  async function answer(request: CollectionTransactionJson, button: string): Promise<{ page: Page; landed: URL }> {
    const link = request.collection_details?.payment_link;
    if (!link) throw new Error(`money request ${request.id} has no payment_link`);
    const page = await browser.newPage();
    const opened = await page.goto(link, { waitUntil: 'load' });
    expect(opened?.status()).toBe(200);
    const html = await page.content();
    expect(html).toContain('NGN 15,000.00');
    expect(html).toContain(request.collection_details?.description);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click(button)]);
    return { page, landed: new URL(page.url()) };
  }

  beforeAll(async () => {
    certificates = await createTestCertificates();
    site = await WebhookReceiver.start({ certificates });
    // --headless=new comes with headless: true; the test CA's key is the only certificate excused.
    browser = await puppeteer.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', trustedKeyFlag(certificates)],
    });
    await platform.start();
    const caller = await platform.tokenFor(['customer:write', 'collection:create', 'transaction:read', 'wallet:read']);
    token = caller.token;
    // A money request needs a customer payments knows, verified or not.
    customerId = (await api.createCustomer(token, businessBody({ kyb_scope: 'FULL' }))).id;
    walletBefore = await api.wallet(token, 'NGN');
  });
  afterAll(async () => {
    await browser?.close();
    await site?.stop();
    await platform.stop();
  });

  it('seed 4.4: Approve sends the payer to redirect_url with order=42, transaction_id and status=SUCCESSFUL', async () => {
    const request = await moneyRequest(`Invoice 42 ${unique()}`);
    expect(request.status).toBe('PENDING');
    const { page, landed } = await answer(request, 'button.approve');
    expect({ origin: landed.origin, path: landed.pathname }).toEqual({ origin: site.url(''), path: '/done' });
    expect(Object.fromEntries(landed.searchParams)).toEqual({
      order: '42',
      transaction_id: request.id,
      status: 'SUCCESSFUL',
    });
    expect(site.requests.map((received) => received.path)).toContain(`${landed.pathname}${landed.search}`);
    const paid = await api.collectionTransaction(token, request.id);
    expect(paid).toMatchObject({ status: 'SUCCESSFUL', collection_details: { completed_at: expect.any(String) } });
    approved.push(paid);

    // The link again: the answer stands, nothing left to approve.
    await page.goto(request.collection_details?.payment_link ?? '', { waitUntil: 'load' });
    const again = await page.content();
    expect(again).toContain('Paid');
    expect(again).not.toContain('Approve and pay');
    await page.close();
  });

  it('seed 4.4: Decline sends the payer to redirect_url with status=FAILED; the request is FAILED (declined_by_payer)', async () => {
    const request = await moneyRequest(`Invoice 43 ${unique()}`);
    const { page, landed } = await answer(request, 'button.decline');
    expect(landed.pathname).toBe('/done');
    expect(Object.fromEntries(landed.searchParams)).toEqual({
      order: '42',
      transaction_id: request.id,
      status: 'FAILED',
    });
    await page.close();
    expect(await api.collectionTransaction(token, request.id)).toMatchObject({
      status: 'FAILED',
      collection_details: { failure_reason: 'declined_by_payer' },
    });
  });

  it('seed 3.5: the wallet is credited for the approved request only (its net), nothing for the declined one', async () => {
    const credited = approved.reduce((sum, transaction) => sum + transaction.net, 0);
    expect(approved).toHaveLength(1);
    expect(credited).toBeGreaterThan(0);
    const wallet = await api.wallet(token, 'NGN');
    expect({
      available: wallet.available_balance,
      ledger: wallet.ledger_balance,
      pending: wallet.pending_balance,
    }).toEqual({
      available: walletBefore.available_balance + credited,
      ledger: walletBefore.ledger_balance + credited,
      pending: 0,
    });
  });
});
