import { REVOKED_GENERATION } from '@corridor/access-cache';
import { MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { startDashboard, type Dashboard, type TestBrowser } from '../../test/testing/dashboard-harness.js';
import { BUSINESS_ID, CLIENT_ID, credential, fakeMember, OTHER_CLIENT_ID } from '../../test/testing/fake-identity.js';

describe('API keys', () => {
  let dashboard: Dashboard;
  let owner: TestBrowser;
  const cachedGeneration = () => dashboard.redis.get(`${dashboard.prefix}:{${BUSINESS_ID}}:cred:${CLIENT_ID}`);

  beforeAll(async () => {
    dashboard = await startDashboard();
    dashboard.identity.add(fakeMember(1, MemberRole.OWNER, { email: 'owner@example.com' }));
    owner = dashboard.browser();
    await owner.signIn('owner@example.com');
  });
  afterAll(() => dashboard.close());
  beforeEach(() => {
    dashboard.identity.calls.length = 0;
    dashboard.identity.answers.clear();
  });

  it('shows a new secret once, in the answer to the POST, and records the change', async () => {
    await owner.get('/api-keys/new');
    const created = await owner.post('/api-keys', { bundles: 'read-only', scopes: 'payout:create' });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.html).toContain('cs_test_shown_once_secret');
    expect(dashboard.identity.callsOf('createCredential')[0]?.request).toMatchObject({
      businessId: BUSINESS_ID,
      bundles: ['read-only'],
      scopes: ['payout:create'],
    });
    const [audit] = dashboard.identity.callsOf('recordAudit');
    expect(audit?.request).toMatchObject({ action: 'credential.created', target: CLIENT_ID, businessId: BUSINESS_ID });
    expect(JSON.stringify(audit?.request)).not.toContain('cs_test_shown_once_secret');
    expect(audit?.caller).toMatchObject({
      businessId: BUSINESS_ID,
      credentialId: 'member:00000000-0000-4000-8000-000000000001',
    });
    const list = await owner.get('/api-keys');
    expect(list.html).not.toContain('cs_test_shown_once_secret');
  });

  it('refuses an unknown scope before identity is asked', async () => {
    await owner.get('/api-keys/new');
    const page = await owner.post('/api-keys', { scopes: 'money:print' });
    expect(page.status).toBe(422);
    expect(page.html).toContain('unknown scope money:print');
    expect(dashboard.identity.callsOf('createCredential')).toHaveLength(0);
  });

  it('rotates: drops the cached generation before identity commits and stores the new one after', async () => {
    await dashboard.redis.set(`${dashboard.prefix}:{${BUSINESS_ID}}:cred:${CLIENT_ID}`, '1');
    dashboard.identity.answers.set('rotateCredential', async () => {
      // The gateways' entry is gone while identity commits: no token of the old generation is let through from cache.
      expect(await cachedGeneration()).toBeNull();
      return { credential: credential({ generation: 2 }), clientSecret: 'cs_test_rotated_secret' };
    });
    await owner.get(`/api-keys/${CLIENT_ID}/rotate`);
    const rotated = await owner.post(`/api-keys/${CLIENT_ID}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.html).toContain('cs_test_rotated_secret');
    expect(await cachedGeneration()).toBe('2');
    expect(dashboard.identity.callsOf('recordAudit')[0]?.request).toMatchObject({ action: 'credential.rotated' });
  });

  it('revokes: the cached generation becomes the revoked one', async () => {
    await owner.get(`/api-keys/${CLIENT_ID}/revoke`);
    const revoked = await owner.post(`/api-keys/${CLIENT_ID}/revoke`);
    expect(revoked).toMatchObject({ status: 303, location: '/api-keys?notice=revoked' });
    expect(await cachedGeneration()).toBe(String(REVOKED_GENERATION));
    expect(dashboard.identity.callsOf('recordAudit')[0]?.request).toMatchObject({
      action: 'credential.revoked',
      target: CLIENT_ID,
    });
  });

  it('answers 404 for another business’s key and changes nothing', async () => {
    expect((await owner.get(`/api-keys/${OTHER_CLIENT_ID}/rotate`)).status).toBe(404);
    await owner.get('/api-keys');
    expect((await owner.post(`/api-keys/${OTHER_CLIENT_ID}/revoke`)).status).toBe(404);
    expect((await owner.get('/api-keys/not-a-client-id/revoke')).status).toBe(404);
    expect(dashboard.identity.callsOf('revokeCredential')).toHaveLength(0);
  });

  it('renders markup in a key’s fields as text', async () => {
    dashboard.identity.answers.set('listCredentials', () => ({
      credentials: [credential({ scopes: ['<script>alert(1)</script>'] })],
    }));
    const list = await owner.get('/api-keys');
    expect(list.html).not.toContain('<script>alert(1)</script>');
    expect(list.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
