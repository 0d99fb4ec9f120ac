import { MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { resourceExhausted } from '../../test/testing/errors.js';
import { startDashboard, type Dashboard } from '../../test/testing/dashboard-harness.js';
import { fakeMember, PASSWORD, TOTP_CODE } from '../../test/testing/fake-identity.js';

describe('sign-in, TOTP and sign-out', () => {
  let dashboard: Dashboard;
  beforeAll(async () => {
    dashboard = await startDashboard({ signInFailures: 3 });
  });
  afterAll(() => dashboard.close());
  beforeEach(async () => {
    dashboard.identity.reset();
    const keys = await dashboard.redis.keys(`${dashboard.prefix}:*`);
    if (keys.length > 0) await dashboard.redis.del(keys);
  });

  it('signs in with password and TOTP code, with a session id new at each step', async () => {
    dashboard.identity.add(fakeMember(1, MemberRole.OWNER, { email: 'owner@example.com', totpEnabled: true }));
    const browser = dashboard.browser();
    await browser.get('/sign-in');
    const planted = 'A'.repeat(43);
    browser.cookies.set('corridor_session', planted);
    const first = await browser.post('/sign-in', { email: 'owner@example.com', password: PASSWORD });
    expect(first.status).toBe(303);
    expect(first.location).toBe('/sign-in/totp');
    const pendingId = browser.cookies.get('corridor_session');
    expect(pendingId).toBeDefined();
    expect(pendingId).not.toBe(planted);
    expect((await browser.get('/')).location).toBe('/sign-in');

    await browser.get('/sign-in/totp');
    const second = await browser.post('/sign-in/totp', { code: TOTP_CODE });
    expect(second).toMatchObject({ status: 303, location: '/' });
    const signedInId = browser.cookies.get('corridor_session');
    expect(signedInId).not.toBe(pendingId);
    const signIns = dashboard.identity.callsOf('signIn');
    expect(signIns.map((call) => call.request.totpCode)).toEqual(['', TOTP_CODE]);
    expect(signIns[1]?.request.password).toBe(PASSWORD);

    const home = await browser.get('/');
    expect(home.status).toBe(200);
    expect(home.html).toContain('Acme');
    expect(home.html).toContain('Sandbox');
  });

  it('says the email or password is wrong, and refuses an address after too many failures', async () => {
    const browser = dashboard.browser();
    await browser.get('/sign-in');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const page = await browser.post('/sign-in', { email: 'nobody@example.com', password: 'wrong' });
      expect(page.status).toBe(401);
      expect(page.html).toContain('The email or the password is wrong.');
    }
    const refused = await browser.post('/sign-in', { email: 'nobody@example.com', password: 'wrong' });
    expect(refused.status).toBe(429);
    expect(refused.html).toMatch(/Try again after \d\d:\d\d UTC/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(dashboard.identity.callsOf('signIn')).toHaveLength(3);
  });

  it('shows identity’s lockout message naming when to retry', async () => {
    dashboard.identity.answers.set('signIn', () => {
      throw resourceExhausted('SIGN_IN_LOCKED', 'too many failed sign-ins for this email; try again after 09:45 UTC');
    });
    const browser = dashboard.browser();
    await browser.get('/sign-in');
    const page = await browser.post('/sign-in', { email: 'owner@example.com', password: PASSWORD });
    expect(page.status).toBe(429);
    expect(page.html).toContain('try again after 09:45 UTC');
  });

  it('shows the lockout’s end as a time in words, rounded up to its minute, keeping “(in N minutes)”', async () => {
    // identity's own wording (services/identity/src/members/sign-in.ts).
    dashboard.identity.answers.set('signIn', () => {
      throw resourceExhausted(
        'SIGN_IN_LOCKED',
        'too many failed sign-ins for this email: try again after 2026-11-21T09:45:12.345Z (in 15 minutes)',
      );
    });
    const browser = dashboard.browser();
    await browser.get('/sign-in');
    const page = await browser.post('/sign-in', { email: 'owner@example.com', password: PASSWORD });
    expect(page.status).toBe(429);
    expect(page.html).toContain(
      '<p role="alert">Too many failed sign-ins for this email: try again after ' +
        '<time dateTime="2026-11-21T09:46:00.000Z">21 Nov 2026, 09:46 UTC</time> (in 15 minutes)</p>',
    );
    expect(page.html).not.toContain('09:45:12');
  });

  it('signs out, and signs out everywhere', async () => {
    dashboard.identity.add(fakeMember(2, MemberRole.VIEWER, { email: 'viewer@example.com' }));
    const laptop = dashboard.browser();
    const phone = dashboard.browser();
    await laptop.signIn('viewer@example.com');
    await phone.signIn('viewer@example.com');
    expect((await phone.get('/')).status).toBe(200);

    await laptop.get('/');
    expect((await laptop.post('/sign-out')).location).toBe('/sign-in?notice=signed-out');
    expect((await laptop.get('/')).location).toBe('/sign-in');
    expect((await phone.get('/')).status).toBe(200);

    await laptop.signIn('viewer@example.com');
    await laptop.get('/');
    expect((await laptop.post('/sign-out-everywhere')).status).toBe(303);
    expect((await phone.get('/')).location).toBe('/sign-in');
    expect((await laptop.get('/')).location).toBe('/sign-in');
  });

  it('sends production owners without TOTP to enrol before anything else', async () => {
    const production = await startDashboard({ environment: 'production' });
    try {
      production.identity.add(fakeMember(3, MemberRole.ADMIN, { email: 'admin@example.com' }));
      const browser = production.browser();
      expect((await browser.signIn('admin@example.com')).location).toBe('/totp');
      expect((await browser.get('/api-keys')).location).toBe('/totp');
      const enrol = await browser.get('/totp');
      expect(enrol.status).toBe(200);
      expect(enrol.html).toMatch(/<img[^>]+src="data:image\/svg\+xml;base64,/);
      expect(enrol.html).toContain('JBSWY3DPEHPK3PXPJBSWY3DP');
      expect(enrol.html).not.toContain('Skip for now');
      const before = browser.cookies.get('corridor_session');
      const done = await browser.post('/totp', {
        code: TOTP_CODE,
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
        otpauth_uri: 'otpauth://totp/Corridor:me',
      });
      expect(done.location).toBe('/?notice=totp-on');
      expect(browser.cookies.get('corridor_session')).not.toBe(before);
      expect((await browser.get('/api-keys')).status).toBe(200);
    } finally {
      await production.close();
    }
  });
});
