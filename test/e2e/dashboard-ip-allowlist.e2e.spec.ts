import type { Browser } from 'puppeteer-core';
import { unique } from '../support/customers.js';
import {
  codeOf,
  INVITATION_LINK,
  launchChromium,
  PASSWORD,
  screenshotFolder,
  Visitor,
} from '../support/dashboard-visitor.js';
import { expectError, Platform } from '../support/platform.js';

/**
 * Issue 30 part 3's production IP allow-list, in headless Chromium against a real production
 * platform (identity, gateway, Redis, the dashboard as its own process): the owner the back office
 * invited (two-step sign-in required in production) creates a key, whose token calls the API from
 * 127.0.0.1; the owner then allows only 203.0.113.0/24 on the API keys page and the very next API
 * call and token request are refused (403 IP_NOT_ALLOWED, the gateways read the list the dashboard
 * pushed to their cache); adding 127.0.0.1 lets the same token through again. A typo is refused on
 * the form, and the audit log names both changes. Screenshots in
 * .local/test-output/dashboard/ip-allowlist/.
 */
describe('the dashboard: a production business limits its API keys to its servers’ addresses', () => {
  const platform = new Platform({
    environment: 'production',
    dashboard: true,
    customers: false,
    notifications: false,
    payments: false,
  });
  let browser: Browser;
  let owner: Visitor;
  let screenshots: string;
  const businessName = `Harbour Payments ${unique()}`;
  const ownerEmail = `owner-${unique()}@example.com`;
  let credentials: { client_id: string; client_secret: string };
  let token: string;

  const whoami = () => platform.api('/api/external/whoami', token);

  beforeAll(async () => {
    screenshots = await screenshotFolder('ip-allowlist');
    [browser] = await Promise.all([launchChromium(), platform.start()]);
    owner = await Visitor.open(browser, platform.dashboardUrl, screenshots);
  });
  afterAll(async () => {
    await owner?.close().catch(() => undefined);
    await browser?.close();
    await platform.stop();
  });

  it('the invited owner joins with two-step sign-in (required in production) and creates a key that calls the API', async () => {
    const { id: businessId } = await platform.createBusiness(businessName);
    const invited = await platform.admin(`/admin/businesses/${businessId}/members`, {
      method: 'POST',
      body: JSON.stringify({ email: ownerEmail, role: 'owner' }),
    });
    expect(invited.status).toBe(201);
    const [mail] = (await platform.mail?.waitFor((candidate) => candidate.envelopeTo.includes(ownerEmail))) ?? [];
    const link = INVITATION_LINK.exec(mail?.text ?? '')?.[0];
    if (!link) throw new Error(`no invitation link in the mail to ${ownerEmail}`);

    await owner.goto(link, '01-invitation');
    await owner.type('#field-name', 'Hana Owner');
    await owner.type('#field-password', PASSWORD);
    await owner.type('#field-confirm', PASSWORD);
    await owner.click('button::-p-text(Join)', '02-totp-enrolment');
    expect(await owner.text()).not.toContain('Skip for now');
    const totpSecret = await owner.page.$eval('#totp-secret', (code) => code.textContent ?? '');
    await owner.type('#field-code', await codeOf(totpSecret));
    await owner.click('button::-p-text(Turn on two-step sign-in)', '03-home');
    expect(await owner.heading()).toBe(businessName);

    await owner.goto('/api-keys', '04-api-keys-every-address');
    expect(await owner.text()).toContain('Every address may get a token and call the API');
    await owner.goto('/api-keys/new', '05-api-key-new');
    await owner.click('button::-p-text(Create the key)', '06-api-key-created', 201);
    credentials = {
      client_id: await owner.page.$eval('#client-id', (code) => code.textContent ?? ''),
      client_secret: await owner.page.$eval('#client-secret', (code) => code.textContent ?? ''),
    };
    token = await platform.accessToken(credentials, 'customer:read');
    expect((await whoami()).status).toBe(200);
  });

  it('an entry that is no address is refused on the form, naming it, and changes nothing', async () => {
    await owner.goto('/api-keys', '06b-api-keys-with-key');
    await owner.click('a::-p-text(Change the IP allow-list)', '07-ip-allowlist-form');
    await owner.fill('#field-ip_allowlist', '203.0.113.0/24\nhttps://example.com');
    await owner.click('button::-p-text(Save the IP allow-list)', '08-ip-allowlist-typo', 422);
    expect(await owner.text()).toContain('"https://example.com" is not an IP address or CIDR');
    expect((await whoami()).status).toBe(200);
  });

  it('allowing only 203.0.113.0/24 refuses the very next API call and token request from 127.0.0.1', async () => {
    await owner.fill('#field-ip_allowlist', '203.0.113.0/24');
    await owner.click('button::-p-text(Save the IP allow-list)', '09-ip-allowlist-saved');
    expect(owner.path()).toBe('/api-keys');
    const page = await owner.text();
    expect(page).toContain('The IP allow-list is saved');
    expect(page).toContain('203.0.113.0/24');

    await expectError(await whoami(), 403, { code: 'IP_NOT_ALLOWED', message: /requests from 127\.0\.0\.1 / });
    await expectError(await platform.requestToken(credentials, 'customer:read'), 403, {
      error: 'unauthorized_client',
      message: /requests from 127\.0\.0\.1 are not on this business's IP allow-list/,
    });
  });

  it('adding 127.0.0.1 lets the same token through again; the audit log names both changes', async () => {
    await owner.click('a::-p-text(Change the IP allow-list)', '10-ip-allowlist-form-again');
    expect(await owner.page.$eval('#field-ip_allowlist', (area) => (area as unknown as { value: string }).value)).toBe(
      '203.0.113.0/24',
    );
    await owner.fill('#field-ip_allowlist', '203.0.113.0/24\n127.0.0.1\n::1');
    await owner.click('button::-p-text(Save the IP allow-list)', '11-ip-allowlist-with-localhost');
    expect((await whoami()).status).toBe(200);
    expect((await platform.requestToken(credentials, 'customer:read')).status).toBe(200);

    await owner.goto('/audit', '12-audit');
    const audit = await owner.text();
    expect(audit).toContain('production IP allow-list: 203.0.113.0/24 (was every address)');
    expect(audit).toContain('production IP allow-list: 203.0.113.0/24, 127.0.0.1, ::1 (was 203.0.113.0/24)');
  });
});
