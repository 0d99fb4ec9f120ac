import { DomainError, Status } from '@corridor/grpc';
import { MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { startDashboard, type Dashboard, type TestBrowser } from '../../test/testing/dashboard-harness.js';
import { BUSINESS_ID, fakeMember } from '../../test/testing/fake-identity.js';
import { parseAllowlist } from './ip-allowlist-pages.js';

describe('parseAllowlist', () => {
  it('takes one entry per line, also split by commas and spaces, without blanks or repeats', () => {
    expect(parseAllowlist(' 203.0.113.7\r\n\n198.51.100.0/24, 2001:db8::/32  203.0.113.7\n')).toEqual({
      entries: ['203.0.113.7', '198.51.100.0/24', '2001:db8::/32'],
    });
    expect(parseAllowlist('   \n')).toEqual({ entries: [] });
  });

  it('names the first entry that is no address or CIDR', () => {
    expect(parseAllowlist('203.0.113.7\nexample.com\n10.0.0.0/40').problem).toBe(
      '"example.com" is not an IP address or CIDR (for example 203.0.113.7 or 203.0.113.0/24)',
    );
  });
});

describe('the production IP allow-list on the API keys page', () => {
  let dashboard: Dashboard;
  let owner: TestBrowser;
  let developer: TestBrowser;
  const cachedBusiness = () => dashboard.redis.hGetAll(`${dashboard.prefix}:{${BUSINESS_ID}}:biz`);

  beforeAll(async () => {
    dashboard = await startDashboard({ environment: 'production' });
    dashboard.identity.add(fakeMember(1, MemberRole.OWNER, { email: 'owner@example.com', totpEnabled: true }));
    dashboard.identity.add(fakeMember(2, MemberRole.DEVELOPER, { email: 'dev@example.com' }));
    owner = dashboard.browser();
    developer = dashboard.browser();
    await owner.signIn('owner@example.com');
    await developer.signIn('dev@example.com');
  });
  afterAll(() => dashboard.close());
  beforeEach(() => {
    dashboard.identity.calls.length = 0;
    dashboard.identity.answers.clear();
  });

  it('shows that every address may call while the list is empty, with the way to change it', async () => {
    const page = await owner.get('/api-keys');
    expect(page.status).toBe(200);
    expect(page.html).toContain('Every address may get a token and call the API');
    expect(page.html).toContain('href="/api-keys/ip-allowlist"');
  });

  it('saves the list for the member’s business only: identity first told, the gateways’ cache dropped then pushed, the change audited', async () => {
    await dashboard.redis.hSet(`${dashboard.prefix}:{${BUSINESS_ID}}:biz`, { version: '1' });
    dashboard.identity.answers.set('updateBusiness', async (request) => {
      // The gateways' entry is gone while identity commits: no request is let through on the old list.
      expect(await cachedBusiness()).toEqual({});
      const entries = (request.ipAllowlist as { entries: string[] }).entries;
      return { business: { id: BUSINESS_ID, name: 'Acme', apiEnabled: true, ipAllowlist: entries, version: 2n } };
    });
    const form = await owner.get('/api-keys/ip-allowlist');
    expect(form.status).toBe(200);
    const saved = await owner.post('/api-keys/ip-allowlist', { ip_allowlist: '203.0.113.7\n198.51.100.0/24\n' });
    expect(saved).toMatchObject({ status: 303, location: '/api-keys?notice=ip-allowlist' });
    const [update] = dashboard.identity.callsOf('updateBusiness');
    expect(update?.request).toMatchObject({
      id: BUSINESS_ID,
      ipAllowlist: { entries: ['203.0.113.7', '198.51.100.0/24'] },
    });
    // Only the list: the member cannot reach api_enabled, MINIMAL KYB or rate limits this way.
    expect(Object.keys(update?.request ?? {}).sort()).toEqual(['$typeName', 'id', 'ipAllowlist']);
    expect(update?.caller).toMatchObject({ businessId: BUSINESS_ID });
    expect(await cachedBusiness()).toMatchObject({
      version: '2',
      ip_allowlist: JSON.stringify(['203.0.113.7', '198.51.100.0/24']),
    });
    expect(dashboard.identity.callsOf('recordAudit')[0]?.request).toMatchObject({
      action: 'business.ip_allowlist_changed',
      target: BUSINESS_ID,
      details: 'production IP allow-list: 203.0.113.7, 198.51.100.0/24 (was every address)',
    });
  });

  it('lists the entries and the notice after saving', async () => {
    dashboard.identity.answers.set('getBusiness', () => ({
      business: { id: BUSINESS_ID, name: 'Acme', apiEnabled: true, ipAllowlist: ['203.0.113.7'], version: 2n },
    }));
    const page = await owner.get('/api-keys?notice=ip-allowlist');
    expect(page.html).toContain('The IP allow-list is saved');
    expect(page.html).toContain('<code>203.0.113.7</code>');
    expect(page.html).toContain('IP_NOT_ALLOWED');
  });

  it('refuses an entry that is no address, keeps what was typed, and asks identity nothing', async () => {
    await owner.get('/api-keys/ip-allowlist');
    const page = await owner.post('/api-keys/ip-allowlist', { ip_allowlist: '203.0.113.7\n<script>alert(1)</script>' });
    expect(page.status).toBe(422);
    expect(page.html).toContain('is not an IP address or CIDR');
    expect(page.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.html).not.toContain('<script>alert(1)');
    expect(dashboard.identity.callsOf('updateBusiness')).toHaveLength(0);
  });

  it('shows identity’s refusal (more than 100 entries) on the form, as 422', async () => {
    dashboard.identity.answers.set('updateBusiness', () => {
      throw new DomainError(Status.INVALID_ARGUMENT, 'VALIDATION_FAILED', 'ip_allowlist must have at most 100 entries');
    });
    const many = Array.from({ length: 101 }, (_, i) => `10.0.${i}.0/24`).join('\n');
    await owner.get('/api-keys/ip-allowlist');
    const page = await owner.post('/api-keys/ip-allowlist', { ip_allowlist: many });
    expect(page.status).toBe(422);
    expect(page.html).toContain('ip_allowlist must have at most 100 entries');
    expect(dashboard.identity.callsOf('recordAudit')).toHaveLength(0);
  });

  it('records nothing when the list is saved unchanged', async () => {
    dashboard.identity.answers.set('updateBusiness', () => ({
      business: { id: BUSINESS_ID, name: 'Acme', apiEnabled: true, version: 1n },
    }));
    await owner.get('/api-keys/ip-allowlist');
    expect((await owner.post('/api-keys/ip-allowlist', { ip_allowlist: '' })).status).toBe(303);
    expect(dashboard.identity.callsOf('recordAudit')).toHaveLength(0);
  });

  it('a production developer sees the list but no way to change it, and is refused (403) by the server', async () => {
    const page = await developer.get('/api-keys');
    expect(page.html).toContain('IP allow-list');
    expect(page.html).not.toContain('href="/api-keys/ip-allowlist"');
    expect((await developer.get('/api-keys/ip-allowlist')).status).toBe(403);
    expect((await developer.post('/api-keys/ip-allowlist', { ip_allowlist: '203.0.113.7' })).status).toBe(403);
    expect(dashboard.identity.callsOf('updateBusiness')).toHaveLength(0);
  });

  it('without the CSRF token the change is refused (403)', async () => {
    const page = await owner.post('/api-keys/ip-allowlist', { ip_allowlist: '203.0.113.7', csrf_token: 'forged' });
    expect(page.status).toBe(403);
    expect(dashboard.identity.callsOf('updateBusiness')).toHaveLength(0);
  });
});

describe('the IP allow-list in the sandbox', () => {
  let dashboard: Dashboard;
  let owner: TestBrowser;

  beforeAll(async () => {
    dashboard = await startDashboard({ environment: 'sandbox' });
    dashboard.identity.add(fakeMember(1, MemberRole.OWNER, { email: 'owner@example.com' }));
    owner = dashboard.browser();
    await owner.signIn('owner@example.com');
  });
  afterAll(() => dashboard.close());

  it('is not enforced, so the page says so and there is no form (404)', async () => {
    dashboard.identity.calls.length = 0;
    const page = await owner.get('/api-keys');
    expect(page.html).toContain('The sandbox accepts API calls from any address');
    expect(page.html).not.toContain('href="/api-keys/ip-allowlist"');
    expect(dashboard.identity.callsOf('getBusiness')).toHaveLength(0);
    expect((await owner.get('/api-keys/ip-allowlist')).status).toBe(404);
    expect((await owner.post('/api-keys/ip-allowlist', { ip_allowlist: '203.0.113.7' })).status).toBe(404);
  });
});
