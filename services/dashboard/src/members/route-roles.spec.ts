import { MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { startDashboard, type Dashboard, type TestBrowser } from '../testing/dashboard-harness.js';
import { CLIENT_ID, fakeMember } from '../testing/fake-identity.js';
import type { Environment, RoleName } from './roles.js';

const TARGET = '00000000-0000-4000-8000-000000000009';

/** Every route that needs a role, with what to send: [method, path, fields]. */
const ROUTES: [
  capability: 'read' | 'manage_keys' | 'manage_members' | 'read_audit',
  string,
  string,
  Record<string, string>,
][] = [
  ['read', 'GET', '/', {}],
  ['read', 'GET', '/api-keys', {}],
  ['read', 'GET', '/team', {}],
  ['read_audit', 'GET', '/audit', {}],
  ['manage_keys', 'GET', '/api-keys/new', {}],
  ['manage_keys', 'POST', '/api-keys', { bundles: 'read-only' }],
  ['manage_keys', 'GET', `/api-keys/${CLIENT_ID}/rotate`, {}],
  ['manage_keys', 'POST', `/api-keys/${CLIENT_ID}/rotate`, {}],
  ['manage_keys', 'GET', `/api-keys/${CLIENT_ID}/revoke`, {}],
  ['manage_keys', 'POST', `/api-keys/${CLIENT_ID}/revoke`, {}],
  ['manage_members', 'POST', '/team/invitations', { email: 'new@example.com', role: 'viewer' }],
  ['manage_members', 'POST', `/team/${TARGET}/role`, { role: 'viewer' }],
  ['manage_members', 'POST', `/team/${TARGET}/remove`, {}],
];

const ALLOWED: Record<Environment, Record<string, RoleName[]>> = {
  sandbox: {
    read: ['owner', 'admin', 'developer', 'viewer'],
    read_audit: ['owner', 'admin'],
    manage_keys: ['owner', 'admin', 'developer'],
    manage_members: ['owner', 'admin'],
  },
  production: {
    read: ['owner', 'admin', 'developer', 'viewer'],
    read_audit: ['owner', 'admin'],
    manage_keys: ['owner', 'admin'],
    manage_members: ['owner', 'admin'],
  },
};

const ROLES: [RoleName, MemberRole][] = [
  ['owner', MemberRole.OWNER],
  ['admin', MemberRole.ADMIN],
  ['developer', MemberRole.DEVELOPER],
  ['viewer', MemberRole.VIEWER],
];

describe.each<Environment>(['sandbox', 'production'])('roles on every route, %s', (environment) => {
  let dashboard: Dashboard;
  const browsers = new Map<RoleName, TestBrowser>();
  beforeAll(async () => {
    dashboard = await startDashboard({ environment });
    for (const [name, role] of ROLES) {
      // TOTP on, so production owners and admins are not sent to enrol first.
      dashboard.identity.add(fakeMember(ROLES.findIndex(([n]) => n === name) + 1, role, { totpEnabled: true }));
      dashboard.identity.add(fakeMember(9, MemberRole.VIEWER, { email: 'target@example.com' }));
      const browser = dashboard.browser();
      await browser.signIn(`${name}${ROLES.findIndex(([n]) => n === name) + 1}@example.com`);
      browsers.set(name, browser);
    }
  });
  afterAll(() => dashboard.close());

  const cases = ROUTES.flatMap(([capability, method, path, fields]) =>
    ROLES.map(([role]) => [role, method, path, capability, fields] as const),
  );

  it.each(cases)('%s: %s %s', async (role, method, path, capability, fields) => {
    const browser = browsers.get(role);
    if (!browser) throw new Error('not signed in');
    await browser.get('/'); // a page of the session, for its CSRF token
    const before = dashboard.identity.calls.length;
    const page = method === 'GET' ? await browser.get(path) : await browser.post(path, fields);
    if (ALLOWED[environment][capability]?.includes(role)) {
      expect(page.status).not.toBe(403);
      expect(page.status).toBeLessThan(500);
    } else {
      expect(page.status).toBe(403);
      expect(page.html).toMatch(/This needs the (owner|admin)[a-z ,]* role/);
      // Refused before identity is asked anything.
      expect(dashboard.identity.calls.slice(before)).toEqual([]);
    }
  });

  it('renders only the buttons a role may use', async () => {
    const viewer = browsers.get('viewer');
    const owner = browsers.get('owner');
    if (!viewer || !owner) throw new Error('not signed in');
    const viewerKeys = await viewer.get('/api-keys');
    expect(viewerKeys.html).not.toContain('/api-keys/new');
    expect(viewerKeys.html).not.toContain('/rotate');
    const viewerTeam = await viewer.get('/team');
    expect(viewerTeam.html).not.toContain('/team/invitations');
    expect(viewerTeam.html).not.toContain('/remove');
    const ownerKeys = await owner.get('/api-keys');
    expect(ownerKeys.html).toContain('/api-keys/new');
    expect(ownerKeys.html).toContain(`/api-keys/${CLIENT_ID}/rotate`);
  });
});
