import { MemberRole, MemberStatus } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { startDashboard, type Dashboard, type TestBrowser } from '../../test/testing/dashboard-harness.js';
import { BUSINESS_ID, fakeMember, INVITATION_TOKEN, PASSWORD } from '../../test/testing/fake-identity.js';

describe('team, invitations and audit', () => {
  let dashboard: Dashboard;
  let owner: TestBrowser;
  const developer = fakeMember(2, MemberRole.DEVELOPER, {
    email: 'dev@example.com',
    name: '<script>alert(1)</script>',
  });

  beforeAll(async () => {
    dashboard = await startDashboard();
    dashboard.identity.add(fakeMember(1, MemberRole.OWNER, { email: 'owner@example.com' }));
    dashboard.identity.add(developer);
    owner = dashboard.browser();
    await owner.signIn('owner@example.com');
  });
  afterAll(() => dashboard.close());

  it('lists members, a name holding markup as text', async () => {
    const team = await owner.get('/team');
    expect(team.status).toBe(200);
    expect(team.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(team.html).not.toContain('<script>alert(1)');
  });

  it('invites with the actor and the caller’s address, showing the sandbox link', async () => {
    await owner.get('/team');
    const page = await owner.post('/team/invitations', { email: 'new@example.com', role: 'admin' });
    expect(page.status).toBe(201);
    expect(page.html).toContain('/invitation/sandbox-invitation-token-0001');
    expect(dashboard.identity.callsOf('inviteMember')[0]?.request).toMatchObject({
      businessId: BUSINESS_ID,
      email: 'new@example.com',
      role: MemberRole.ADMIN,
      actor: { memberId: '00000000-0000-4000-8000-000000000001' },
    });
  });

  it('applies a role change to the member’s open session, and removal signs them out', async () => {
    const developerBrowser = dashboard.browser();
    await developerBrowser.signIn('dev@example.com');
    expect((await developerBrowser.get('/api-keys/new')).status).toBe(200);
    await owner.get('/team');
    expect((await owner.post(`/team/${developer.id}/role`, { role: 'viewer' })).location).toBe(
      '/team?notice=role-changed',
    );
    expect((await developerBrowser.get('/api-keys/new')).status).toBe(403);
    await owner.get('/team');
    expect((await owner.post(`/team/${developer.id}/remove`)).location).toBe('/team?notice=removed');
    expect((await developerBrowser.get('/')).location).toBe('/sign-in');
  });

  it('answers 404 for a member of another business', async () => {
    await owner.get('/team');
    const page = await owner.post('/team/00000000-0000-4000-8000-000000000077/remove');
    expect(page.status).toBe(404);
  });

  it('accepts an invitation, signs the member in and offers TOTP enrolment', async () => {
    dashboard.identity.add(
      fakeMember(5, MemberRole.DEVELOPER, { email: 'invited@example.com', status: MemberStatus.INVITED, name: '' }),
    );
    const browser = dashboard.browser();
    const form = await browser.get(`/invitation/${INVITATION_TOKEN}`);
    expect(form.html).toContain('invited@example.com');
    const mismatch = await browser.post(`/invitation/${INVITATION_TOKEN}`, {
      name: 'Ada',
      password: PASSWORD,
      confirm: 'other',
    });
    expect(mismatch.status).toBe(422);
    const accepted = await browser.post(`/invitation/${INVITATION_TOKEN}`, {
      name: 'Ada',
      password: PASSWORD,
      confirm: PASSWORD,
    });
    expect(accepted.location).toBe('/totp');
    const enrol = await browser.get('/totp');
    expect(enrol.html).toContain('Skip for now');
    expect((await browser.get('/invitation/unknown-token-000000')).status).toBe(404);
  });

  it('shows the audit log to owners', async () => {
    dashboard.identity.answers.set('listAudit', () => ({
      entries: [{ id: 'a1', action: 'credential.revoked', target: '<b>x</b>', actorEmail: 'owner@example.com' }],
    }));
    const audit = await owner.get('/audit');
    expect(audit.status).toBe(200);
    expect(audit.html).toContain('credential.revoked');
    expect(audit.html).toContain('&lt;b&gt;x&lt;/b&gt;');
  });
});
