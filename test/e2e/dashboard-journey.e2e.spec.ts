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
import { Platform, type DashboardProcess } from '../support/platform.js';

/**
 * The dashboard (services/dashboard) as its members meet it, in headless Chromium against a real
 * platform: identity (its mails through a real SMTP server, @corridor/testing's MailReceiver), the
 * gateway and Redis, the dashboard as a process of its own.
 *
 * - The journey of the issue: the back office invites the first owner; the invitation mail carries
 *   the link; the owner sets a name and a password, turns on TOTP, signs in again with both, creates
 *   an API key (its secret shown once), gets a token with it and calls whoami, rotates it in the
 *   dashboard (the old token is refused at once, the new secret works), invites a viewer who sees no
 *   way to create a key and whose POST to create one is 403; a POST without the CSRF token is 403;
 *   a session idle longer than SESSION_IDLE_SECONDS (a second dashboard with 3 s) is over.
 * - Security: a session cookie planted before sign-in is not the session after it; repeated wrong
 *   passwords lock the email and the page says until when; markup in a member's name or an email is
 *   shown as text and runs nothing; another business's key or member is 404 and stays unchanged.
 *
 * Every page the browser opens is checked as a person would meet it (test/support/dashboard-visitor.ts);
 * a full-page screenshot of each is saved as .local/test-output/dashboard/journey/<name>.png.
 *
 * On a loaded machine: waits for processes and mails are in quiet-machine time (MachineClock), so
 * they stretch with the load. The idle session is checked after waiting more than its window on the
 * dashboard's own clock, so a slow machine only makes the expiry more certain. TOTP codes are made
 * the moment they are typed, each step's once (identity refuses a code it accepted, RFC 6238 §5.2).
 */

const IDLE_SECONDS = 3;

describe('the dashboard in headless Chromium: a business team’s journey and its security', () => {
  const platform = new Platform({ dashboard: true, customers: false, notifications: false, payments: false });
  let browser: Browser;
  let dashboard: DashboardProcess;
  const visitors: Visitor[] = [];
  const businessName = `Acme Payments ${unique()}`;
  let businessId: string;
  const ownerEmail = `owner-${unique()}@example.com`;
  let owner: Visitor;
  let ownerTotpSecret: string;

  let screenshots: string;

  const visitor = async (origin = dashboard.url) => {
    const opened = await Visitor.open(browser, origin, screenshots);
    visitors.push(opened);
    return opened;
  };

  /** The invitation mail to `email`: its link. */
  async function invitationLinkMailedTo(email: string): Promise<string> {
    const mail = platform.mail;
    if (!mail) throw new Error('the platform has no mail receiver');
    const [received] = await mail.waitFor((candidate) => candidate.envelopeTo.includes(email));
    if (!received) throw new Error(`no mail to ${email}`);
    expect(received.subject).toBe(`You are invited to ${businessName} on Corridor (sandbox)`);
    const link = INVITATION_LINK.exec(received.text)?.[0];
    if (!link) throw new Error(`no invitation link in the mail: ${received.text}`);
    return link;
  }

  /** Opens an invitation link, sets name and password; lands on TOTP enrolment. */
  async function acceptInvitation(person: Visitor, link: string, email: string, name: string, prefix: string) {
    await person.goto(link, `${prefix}-invitation`);
    expect(await person.heading()).toBe('Accept your invitation');
    expect(await person.text()).toContain(`You are invited to the Corridor dashboard of ${businessName} as ${email}.`);
    await person.type('#field-name', name);
    await person.type('#field-password', PASSWORD);
    await person.type('#field-confirm', PASSWORD);
    await person.click('button::-p-text(Join)', `${prefix}-totp-enrolment`);
    expect(person.path()).toBe('/totp');
  }

  /** Signs in with the password and, when given the secret, the current TOTP code; lands on home. */
  async function signIn(person: Visitor, email: string, totpSecret: string | undefined, prefix: string) {
    await person.goto('/sign-in', `${prefix}-sign-in`);
    await person.type('#field-email', email);
    await person.type('#field-password', PASSWORD);
    if (totpSecret !== undefined) {
      await person.click('button::-p-text(Sign in)', `${prefix}-sign-in-code`);
      expect(person.path()).toBe('/sign-in/totp');
      expect(await person.text()).toContain('Enter the 6-digit code your authenticator app shows');
      await person.type('#field-code', await codeOf(totpSecret));
      await person.click('button::-p-text(Continue)', `${prefix}-home`);
    } else {
      await person.click('button::-p-text(Sign in)', `${prefix}-home`);
    }
    expect(person.path()).toBe('/');
    expect(await person.heading()).toBe(businessName);
  }

  /** A member of the business invited by the back office, joined through the browser (TOTP skipped). */
  async function joinedMember(role: string, name: string, prefix: string): Promise<{ email: string; id: string }> {
    const email = `${prefix}-${unique()}@example.com`;
    const invited = await platform.admin(`/admin/businesses/${businessId}/members`, {
      method: 'POST',
      body: JSON.stringify({ email, role }),
    });
    expect(invited.status).toBe(201);
    const { id, invitation_url } = (await invited.json()) as { id: string; invitation_url: string };
    const person = await visitor();
    await acceptInvitation(person, invitation_url, email, name, prefix);
    await person.close();
    return { email, id };
  }

  /** Client ids of the rows of the key list the page shows. */
  const listedKeys = (person: Visitor) =>
    person.page.$$eval('tbody th code', (codes) => codes.map((code) => code.textContent ?? ''));

  beforeAll(async () => {
    screenshots = await screenshotFolder('journey');
    browser = await launchChromium();
    await platform.start();
    if (!platform.dashboard) throw new Error('the platform started without its dashboard');
    dashboard = platform.dashboard;
    businessId = (await platform.createBusiness(businessName)).id;
  });
  afterAll(async () => {
    for (const opened of visitors) await opened.close().catch(() => undefined);
    await browser?.close();
    await platform.stop();
  });

  describe('the journey', () => {
    let clientId: string;
    let secret: string;
    let token: string;

    it('the back office invites the first owner; the invitation mail carries the link the admin API answered', async () => {
      const response = await platform.admin(`/admin/businesses/${businessId}/members`, {
        method: 'POST',
        body: JSON.stringify({ email: ownerEmail, role: 'owner' }),
      });
      expect(response.status).toBe(201);
      const invitation = (await response.json()) as { status: string; role: string; invitation_url: string };
      expect(invitation).toMatchObject({ status: 'invited', role: 'owner' });
      expect(invitation.invitation_url.startsWith(`${dashboard.url}/invitation/`)).toBe(true);
      expect(await invitationLinkMailedTo(ownerEmail)).toBe(invitation.invitation_url);
    });

    it('the owner opens the link, sets a name and a password and turns on two-step sign-in with the secret shown', async () => {
      const link = await invitationLinkMailedTo(ownerEmail);
      owner = await visitor();
      await acceptInvitation(owner, link, ownerEmail, 'Ada Owner', '01-owner');
      expect(await owner.heading()).toBe('Turn on two-step sign-in');
      ownerTotpSecret = await owner.page.$eval('#totp-secret', (code) => code.textContent ?? '');
      expect(ownerTotpSecret).toMatch(/^[A-Z2-7]{32}$/);
      expect(await owner.page.$eval('img.qr', (img) => img.getAttribute('src'))).toMatch(/^data:image\/svg\+xml/);
      await owner.type('#field-code', await codeOf(ownerTotpSecret));
      await owner.click('button::-p-text(Turn on two-step sign-in)', '02-owner-home-totp-on');
      expect(owner.path()).toBe('/');
      expect(await owner.text()).toContain('Two-step sign-in is on');
      expect(await owner.text()).toContain(platform.publicUrl);
    });

    it('later, the owner signs out and signs in again with the password and a TOTP code', async () => {
      await owner.click('button::-p-text(Sign out)', '03-owner-signed-out');
      expect(owner.path()).toBe('/sign-in');
      expect(await owner.text()).toContain('You are signed out.');
      await owner.goto('/api-keys', '03-owner-api-keys-signed-out');
      expect(owner.path()).toBe('/sign-in');
      await signIn(owner, ownerEmail, ownerTotpSecret, '04-owner');
    });

    it('the owner creates an API key: its secret is shown once and on no page after', async () => {
      await owner.goto('/api-keys', '05-api-keys-none');
      expect(await owner.text()).toContain('There are no API keys yet.');
      await owner.click('a::-p-text(Create an API key)', '06-api-key-new');
      await owner.click('button::-p-text(Create the key)', '07-api-key-secret-shown-once', 201);
      expect(await owner.heading()).toBe('Your new API key');
      expect(await owner.text()).toContain('Corridor does not keep it and cannot show it again.');
      clientId = await owner.page.$eval('#client-id', (code) => code.textContent ?? '');
      secret = await owner.page.$eval('#client-secret', (code) => code.textContent ?? '');
      expect(clientId).toMatch(/^ci_test_[0-9a-f]{32}$/);
      expect(secret.length).toBeGreaterThanOrEqual(32);

      await owner.click('a::-p-text(Back to API keys)', '08-api-keys-one');
      await owner.reload('08-api-keys-one-reloaded');
      expect(await listedKeys(owner)).toEqual([clientId]);
      expect(await owner.page.content()).not.toContain(secret);
      await owner.goto('/', '08-home-after-key');
      expect(await owner.page.content()).not.toContain(secret);
    });

    it('the key gets a token from POST /oauth/token that calls GET /api/external/whoami (200)', async () => {
      token = await platform.accessToken({ client_id: clientId, client_secret: secret });
      const whoami = await platform.api('/api/external/whoami', token);
      expect(whoami.status).toBe(200);
      expect(await whoami.json()).toMatchObject({
        data: { business_id: businessId, client_id: clientId, environment: 'sandbox' },
      });
    });

    it('rotating the key in the dashboard refuses the old token at once (401); the new secret works', async () => {
      await owner.goto('/api-keys', '09-api-keys-before-rotation');
      await owner.click(`a[href="/api-keys/${clientId}/rotate"]`, '10-api-key-rotate');
      expect(await owner.text()).toContain(`Rotating ${clientId} gives it a new secret.`);
      await owner.click('button::-p-text(Rotate the key)', '11-api-key-rotated');
      expect(await owner.heading()).toBe('Your rotated API key');
      expect(await owner.page.$eval('#client-id', (code) => code.textContent)).toBe(clientId);
      const rotated = await owner.page.$eval('#client-secret', (code) => code.textContent ?? '');
      expect(rotated).not.toBe(secret);

      // At once: no eventually, the dashboard told the gateways before it answered.
      expect((await platform.api('/api/external/whoami', token)).status).toBe(401);
      expect((await platform.requestToken({ client_id: clientId, client_secret: secret })).status).toBe(401);
      const fresh = await platform.accessToken({ client_id: clientId, client_secret: rotated });
      expect((await platform.api('/api/external/whoami', fresh)).status).toBe(200);

      await owner.click('a::-p-text(Back to API keys)', '12-api-keys-after-rotation');
      expect(await owner.page.content()).not.toContain(rotated);
    });

    it('the owner invites a viewer, who joins from the mail, signs in and has no way to create a key (403)', async () => {
      const viewerEmail = `viewer-${unique()}@example.com`;
      await owner.goto('/team', '13-team');
      await owner.type('#field-email', viewerEmail);
      await owner.page.select('#invite-role', 'viewer');
      await owner.click('button::-p-text(Send the invitation)', '14-team-invited', 201);
      expect(await owner.text()).toContain('The invitation is sent');
      const shown = await owner.page.$eval('main code', (code) => code.textContent ?? '');
      const link = await invitationLinkMailedTo(viewerEmail);
      expect(link).toBe(shown);

      const viewer = await visitor();
      await acceptInvitation(viewer, link, viewerEmail, 'Vic Viewer', '15-viewer');
      await viewer.click('a::-p-text(Skip for now)', '16-viewer-home');
      expect(await viewer.text()).toContain('Ask an owner or admin of your business for an API key');
      await viewer.click('button::-p-text(Sign out)', '17-viewer-signed-out');
      await signIn(viewer, viewerEmail, undefined, '18-viewer');

      await viewer.goto('/api-keys', '19-viewer-api-keys');
      expect(await listedKeys(viewer)).toEqual([clientId]);
      expect(await viewer.page.$$('a[href="/api-keys/new"]')).toHaveLength(0);
      expect(await viewer.page.$$(`a[href^="/api-keys/${clientId}/"]`)).toHaveLength(0);
      expect(await viewer.text()).not.toContain('Create an API key');
      await viewer.goto('/api-keys/new', '20-viewer-api-key-new-forbidden', 403);
      expect(await viewer.text()).toContain('This needs the owner, admin or developer role; you are a viewer.');

      // The viewer's own valid CSRF token: refused for the role, not for the form.
      await viewer.goto('/api-keys', '19-viewer-api-keys');
      const csrf_token = await viewer.csrfToken();
      await viewer.postForm('/api-keys', { csrf_token, bundles: 'full-access' }, '21-viewer-create-key-refused', 403);
      expect(await viewer.text()).toContain('This needs the owner, admin or developer role; you are a viewer.');
      await viewer.goto('/api-keys', '19-viewer-api-keys');
      expect(await listedKeys(viewer)).toEqual([clientId]);
    });

    it('a state-changing POST without the CSRF token, or from another origin, is 403 and changes nothing', async () => {
      await owner.goto('/api-keys', '22-api-keys-before-forged-posts');
      await owner.postForm('/api-keys', { bundles: 'full-access' }, '23-csrf-token-missing', 403);
      expect(await owner.heading()).toBe('This form cannot be accepted');
      expect(await owner.text()).toContain('did not come from this dashboard, so nothing was changed');
      await owner.postForm(
        '/api-keys',
        { csrf_token: 'x'.repeat(43), bundles: 'full-access' },
        '24-csrf-token-wrong',
        403,
      );

      // The right token and the owner's cookie, sent by another site (its Origin).
      const cookie = await owner.sessionCookie();
      const forged = await fetch(`${dashboard.url}/api-keys`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: `corridor_session=${cookie}`, origin: 'http://evil.example' },
        body: new URLSearchParams({ csrf_token: await owner.csrfToken(), bundles: 'full-access' }),
      });
      expect(forged.status).toBe(403);
      await owner.goto('/api-keys', '22-api-keys-before-forged-posts');
      expect(await listedKeys(owner)).toEqual([clientId]);
    });

    it(`a session idle for longer than SESSION_IDLE_SECONDS (${IDLE_SECONDS} s, a second dashboard) sends the next page to sign-in`, async () => {
      const short = await platform.startDashboard({ SESSION_IDLE_SECONDS: String(IDLE_SECONDS) });
      const member = await visitor(short.url);
      await signIn(member, ownerEmail, ownerTotpSecret, '25-idle');
      await member.goto('/api-keys', '26-idle-api-keys-while-active');
      expect(member.path()).toBe('/api-keys');
      // Real time, the dashboard's clock: a slower machine only waits longer.
      await new Promise((resolve) => setTimeout(resolve, (IDLE_SECONDS + 1.5) * 1000));
      await member.goto('/api-keys', '27-idle-expired-sign-in');
      expect(member.path()).toBe('/sign-in');
      expect(await member.heading()).toBe('Sign in');
      expect(await member.sessionCookie()).toBeUndefined();
    });
  });

  describe('security', () => {
    it('session fixation: a session cookie set before sign-in is not the session after it', async () => {
      const member = await visitor();
      await member.goto('/sign-in', '30-fixation-sign-in');
      // A value of the right shape an attacker planted, then a real pending session of the TOTP step.
      const planted = 'A'.repeat(43);
      await member.page.setCookie({ name: 'corridor_session', value: planted, url: dashboard.url });
      await member.type('#field-email', ownerEmail);
      await member.type('#field-password', PASSWORD);
      await member.click('button::-p-text(Sign in)', '31-fixation-sign-in-code');
      const pending = await member.sessionCookie();
      expect(pending).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(pending).not.toBe(planted);
      await member.type('#field-code', await codeOf(ownerTotpSecret));
      await member.click('button::-p-text(Continue)', '32-fixation-home');
      expect(member.path()).toBe('/');
      const signedIn = await member.sessionCookie();
      expect(signedIn).not.toBe(planted);
      expect(signedIn).not.toBe(pending);

      // Neither earlier value opens a page; the session's does.
      for (const before of [planted, pending]) {
        const response = await fetch(`${dashboard.url}/api-keys`, {
          redirect: 'manual',
          headers: { cookie: `corridor_session=${before}` },
        });
        expect({ before, status: response.status, location: response.headers.get('location') }).toEqual({
          before,
          status: 303,
          location: '/sign-in',
        });
      }
      const own = await fetch(`${dashboard.url}/api-keys`, {
        redirect: 'manual',
        headers: { cookie: `corridor_session=${signedIn}` },
      });
      expect(own.status).toBe(200);
    });

    it('lockout: after five wrong passwords the email is locked and the page says when to retry, the right password too', async () => {
      const { email } = await joinedMember('developer', 'Lou Locked', '33-locked');
      const member = await visitor();
      const attempt = async (password: string, name: string, status: number) => {
        await member.goto('/sign-in', '34-lockout-sign-in');
        await member.type('#field-email', email);
        await member.type('#field-password', password);
        await member.click('button::-p-text(Sign in)', name, status);
      };
      for (let failure = 1; failure <= 4; failure += 1) {
        await attempt(`wrong password number ${failure}`, '35-lockout-wrong-password', 401);
        expect(await member.text()).toContain('The email or the password is wrong.');
      }
      await attempt('wrong password number 5', '36-lockout-locked', 429);
      expect(await member.heading()).toBe('Try again later');
      expect(await member.text()).toMatch(
        /try again after \d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2} UTC \(in 15 minutes\)/,
      );
      await attempt(PASSWORD, '37-lockout-right-password-locked', 429);
      expect(await member.text()).toMatch(/try again after .+ \(in 1[45] minutes\)/);
      expect(await member.sessionCookie()).toBeUndefined();
    });

    it('XSS: markup in a member’s name and in an email is shown as text on the team page and the audit log; nothing runs', async () => {
      const name = `<script>alert("name")</script><img src=x onerror="alert('img')">`;
      const { email } = await joinedMember('developer', name, '38-xss');
      await owner.goto('/team', '39-xss-team');
      const names = await owner.page.$$eval('tbody th', (cells) => cells.map((cell) => cell.textContent));
      expect(names).toContain(name);
      expect(await owner.page.$$('main img')).toHaveLength(0);
      await owner.goto('/audit', '40-xss-audit');
      expect(await owner.page.$$('main img')).toHaveLength(0);

      // An email with markup, sent past the browser's own check: the page answers it back in the form.
      const hostile = `"><script>alert('email')</script>${email}`;
      await owner.goto('/team', '39-xss-team');
      await owner.page.$eval(
        '#field-email',
        (input, value) => ((input as unknown as { value: string }).value = value),
        hostile,
      );
      await owner.navigates(
        () =>
          owner.page.$eval('form[action="/team/invitations"]', (form) =>
            (form as unknown as { submit(): void }).submit(),
          ),
        '41-xss-invite-refused',
        422,
      );
      expect(await owner.page.$eval('#field-email', (input) => (input as unknown as { value: string }).value)).toBe(
        hostile,
      );
      expect(await owner.text()).toContain('email must be an email address');
    });

    it('cross-business: another business’s key and member are 404 to this business’s owner, and stay unchanged', async () => {
      const other = await platform.createBusiness(`Other ${unique()}`);
      const theirKey = await platform.createCredentials(other.id);
      const invited = await platform.admin(`/admin/businesses/${other.id}/members`, {
        method: 'POST',
        body: JSON.stringify({ email: `theirs-${unique()}@example.com`, role: 'viewer' }),
      });
      expect(invited.status).toBe(201);
      const theirMember = (await invited.json()) as { id: string };

      await owner.goto(`/api-keys/${theirKey.client_id}/rotate`, '42-cross-business-rotate', 404);
      expect(await owner.text()).toContain('There is nothing at this address, or it belongs to another business.');
      await owner.goto(`/api-keys/${theirKey.client_id}/revoke`, '43-cross-business-revoke', 404);
      await owner.goto(`/team/${theirMember.id}`, '44-cross-business-member', 404);

      await owner.goto('/api-keys', '09-api-keys-before-rotation');
      const csrf_token = await owner.csrfToken();
      await owner.postForm(
        `/api-keys/${theirKey.client_id}/rotate`,
        { csrf_token },
        '45-cross-business-rotate-post',
        404,
      );
      await owner.postForm(
        `/api-keys/${theirKey.client_id}/revoke`,
        { csrf_token },
        '46-cross-business-revoke-post',
        404,
      );
      await owner.postForm(
        `/team/${theirMember.id}/role`,
        { csrf_token, role: 'owner' },
        '47-cross-business-role-post',
        404,
      );
      await owner.postForm(`/team/${theirMember.id}/remove`, { csrf_token }, '48-cross-business-remove-post', 404);

      // Their key still gets tokens; their member is still an invited viewer.
      expect((await platform.requestToken(theirKey)).status).toBe(200);
      const members = await platform.admin(`/admin/businesses/${other.id}/members`);
      expect(((await members.json()) as { data: unknown[] }).data).toEqual([
        expect.objectContaining({ id: theirMember.id, role: 'viewer', status: 'invited' }),
      ]);
    });
  });
});
