import { MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { startDashboard, type Dashboard } from '../../test/testing/dashboard-harness.js';
import { fakeMember, PASSWORD } from '../../test/testing/fake-identity.js';
import { CONTENT_SECURITY_POLICY } from './security-headers.js';

describe('security headers and CSRF', () => {
  let dashboard: Dashboard;
  beforeAll(async () => {
    dashboard = await startDashboard();
  });
  afterAll(() => dashboard.close());
  beforeEach(() => {
    dashboard.identity.reset();
    dashboard.identity.add(fakeMember(1, MemberRole.OWNER, { email: 'owner@example.com' }));
  });

  it('sends the policy on pages, assets and errors, and no-store on pages', async () => {
    const browser = dashboard.browser();
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    for (const path of ['/sign-in', '/assets/dashboard.css', '/assets/dashboard.js', '/no-such-page']) {
      const page = await browser.get(path);
      expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('same-origin');
    }
    expect((await browser.get('/sign-in')).headers.get('cache-control')).toBe('no-store');
    expect((await browser.get('/no-such-page')).status).toBe(404);
    await browser.signIn('owner@example.com');
    const home = await browser.get('/');
    expect(home.headers.get('cache-control')).toBe('no-store');
    // No inline script or style for the policy to refuse.
    expect(home.html).not.toMatch(/<script>|<style|style="/);
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/', async () => {
    const response = await fetch(`${dashboard.base}/sign-in`);
    const [formCookie] = response.headers.getSetCookie();
    expect(formCookie).toMatch(/^corridor_form=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  it('refuses a POST without the token, with another token or from another origin (403)', async () => {
    const browser = dashboard.browser();
    await browser.get('/sign-in');
    const sent = { email: 'owner@example.com', password: PASSWORD };
    expect((await browser.post('/sign-in', { ...sent, csrf_token: '' })).status).toBe(403);
    expect((await browser.post('/sign-in', { ...sent, csrf_token: 'x'.repeat(43) })).status).toBe(403);
    await browser.get('/sign-in');
    expect((await browser.post('/sign-in', sent, { origin: 'https://evil.example' })).status).toBe(403);
    expect(dashboard.identity.callsOf('signIn')).toHaveLength(0);

    await browser.signIn('owner@example.com');
    await browser.get('/api-keys/new');
    const forged = await browser.post('/api-keys', { bundles: 'full-access', csrf_token: 'forged' });
    expect(forged.status).toBe(403);
    expect(forged.html).toContain('nothing was changed');
    expect(dashboard.identity.callsOf('createCredential')).toHaveLength(0);
    // A token of the anonymous forms is not the session's: a signed-in POST needs the session's.
    await browser.get('/api-keys/new');
    expect((await browser.post('/api-keys', { bundles: 'read-only' })).status).toBe(201);
  });
});
