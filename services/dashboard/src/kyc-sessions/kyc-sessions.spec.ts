import { KycSessionStatus } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { invalidArgument, notFound } from '@corridor/grpc';
import { CUSTOMER_ID } from '../../test/customers/customer.fixtures.js';
import { startDashboard, type Dashboard, type TestBrowser } from '../../test/testing/dashboard-harness.js';
import { BUSINESS_ID, fakeMember, OTHER_BUSINESS_ID } from '../../test/testing/fake-identity.js';
import {
  kycSession,
  OTHER_SESSION_ID,
  rejectedSession,
  SESSION_ID,
  VERIFICATION_TOKEN,
} from '../../test/kyc-sessions/kyc-session.fixtures.js';

const MARKUP = '<script>alert(1)</script>';
const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;';

describe('KYC sessions', () => {
  let dashboard: Dashboard;
  let owner: TestBrowser;
  let viewer: TestBrowser;
  const calls = (method: string) => dashboard.kycSessions.calls.filter((call) => call.method === method);

  beforeAll(async () => {
    dashboard = await startDashboard();
    dashboard.identity.add(fakeMember(1, MemberRole.OWNER, { email: 'owner@example.com' }));
    dashboard.identity.add(fakeMember(2, MemberRole.VIEWER, { email: 'viewer@example.com' }));
    owner = dashboard.browser();
    await owner.signIn('owner@example.com');
    viewer = dashboard.browser();
    await viewer.signIn('viewer@example.com');
  });
  afterAll(() => dashboard.close());
  beforeEach(() => {
    dashboard.kycSessions.calls.length = 0;
    dashboard.kycSessions.answers.clear();
    dashboard.kycSessions.answers.set('listKycSessions', () => ({
      sessions: [kycSession(), rejectedSession()],
      page: { nextCursor: 'older', limit: 15 },
    }));
    dashboard.kycSessions.answers.set('getKycSession', (request) => {
      if (request.sessionId === SESSION_ID) return { session: kycSession() };
      throw notFound('KYC_SESSION_NOT_FOUND', 'no such KYC session');
    });
  });

  it('lists sessions with status, verdict and customer, for the member’s business', async () => {
    const page = await owner.get('/kyc-sessions');
    expect(page.status).toBe(200);
    for (const text of ['person-42', 'PENDING', 'COMPLETED', 'REJECTED (FINAL)', 'DOCUMENTS, FACE_MATCH', 'None yet']) {
      expect(page.html).toContain(text);
    }
    expect(page.html).toContain(`href="/kyc-sessions/${SESSION_ID}"`);
    expect(page.html).toContain(`href="/customers/${CUSTOMER_ID}"`);
    expect(page.html).toContain('href="/kyc-sessions?cursor=older"');
    expect(page.html).toContain('<th scope="col">Status</th>');
    const [call] = calls('listKycSessions');
    expect(call?.request).toMatchObject({ page: { cursor: '' } });
    expect(call?.caller).toMatchObject({
      businessId: BUSINESS_ID,
      credentialId: 'member:00000000-0000-4000-8000-000000000001',
    });
  });

  it('passes the filters and the cursor to ListKycSessions, and keeps them in the page links', async () => {
    dashboard.kycSessions.answers.set('listKycSessions', () => ({
      sessions: [kycSession()],
      page: { nextCursor: 'older', previousCursor: 'newer', limit: 15 },
    }));
    const page = await owner.get(
      `/kyc-sessions?customer_reference=person-42&status=PENDING&customer_id=${CUSTOMER_ID.toUpperCase()}&cursor=c2`,
    );
    expect(page.status).toBe(200);
    expect(calls('listKycSessions')[0]?.request).toMatchObject({
      customerReference: 'person-42',
      status: KycSessionStatus.PENDING,
      customerId: CUSTOMER_ID,
      page: { cursor: 'c2' },
    });
    const filters = `customer_reference=person-42&amp;status=PENDING&amp;customer_id=${CUSTOMER_ID.toUpperCase()}`;
    expect(page.html).toContain(`href="/kyc-sessions?${filters}&amp;cursor=older"`);
    expect(page.html).toContain(`href="/kyc-sessions?${filters}&amp;cursor=newer"`);
  });

  it('names a bad filter on a 422 page, and a cursor customer-kyb refuses', async () => {
    const page = await owner.get('/kyc-sessions?status=DONE&customer_id=42');
    expect(page.status).toBe(422);
    expect(page.html).toContain('status must be one of PENDING, PROCESSING, COMPLETED, EXPIRED, CANCELLED');
    expect(page.html).toContain('customer_id must be a customer id (a uuid)');
    expect(calls('listKycSessions')).toHaveLength(0);
    dashboard.kycSessions.answers.set('listKycSessions', () => {
      throw invalidArgument('cursor is not a cursor this API returned');
    });
    const refused = await owner.get('/kyc-sessions?cursor=forged');
    expect(refused.status).toBe(422);
    expect(refused.html).toContain('cursor is not a cursor this API returned');
  });

  it('shows a pending session with its verification page on the API’s origin', async () => {
    const page = await owner.get(`/kyc-sessions/${SESSION_ID}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h1>KYC session person-42</h1>');
    expect(page.html).toContain(`http://127.0.0.1:8080/verify/${VERIFICATION_TOKEN}`);
    expect(page.html).toContain(`href="/customers/${CUSTOMER_ID}"`);
    expect(page.html).toContain('https://platform.example/kyc/done?flow=7');
    expect(calls('getKycSession')[0]).toMatchObject({
      request: { sessionId: SESSION_ID },
      caller: { businessId: BUSINESS_ID },
    });
  });

  it('shows a completed session’s verdict and captures, and no verification link', async () => {
    dashboard.kycSessions.answers.set('getKycSession', () => ({ session: rejectedSession() }));
    const page = await owner.get(`/kyc-sessions/${SESSION_ID}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('REJECTED (FINAL)');
    expect(page.html).toContain('We could not verify your identity with the documents provided.');
    expect(page.html).toContain('Uploaded (image/png, 2,048 bytes)');
    expect(page.html).not.toContain(VERIFICATION_TOKEN);
  });

  it('answers 404 for another business’s session, and for a malformed id without calling', async () => {
    expect((await owner.get(`/kyc-sessions/${OTHER_SESSION_ID}`)).status).toBe(404);
    dashboard.kycSessions.answers.set('getKycSession', () => ({
      session: kycSession({ id: OTHER_SESSION_ID, businessId: OTHER_BUSINESS_ID }),
    }));
    const leaked = await owner.get(`/kyc-sessions/${OTHER_SESSION_ID}`);
    expect(leaked.status).toBe(404);
    expect(leaked.html).not.toContain(VERIFICATION_TOKEN);
    dashboard.kycSessions.calls.length = 0;
    expect((await owner.get('/kyc-sessions/not-a-session')).status).toBe(404);
    expect(calls('getKycSession')).toHaveLength(0);
  });

  it('renders markup in a session’s fields as text', async () => {
    const hostile = kycSession({ customerReference: MARKUP, rejectionReason: MARKUP, redirectUrl: MARKUP });
    dashboard.kycSessions.answers.set('listKycSessions', () => ({ sessions: [hostile], page: { limit: 15 } }));
    dashboard.kycSessions.answers.set('getKycSession', () => ({ session: hostile }));
    for (const path of [
      '/kyc-sessions',
      `/kyc-sessions/${SESSION_ID}`,
      `/kyc-sessions?customer_reference=${encodeURIComponent(MARKUP)}`,
    ]) {
      const page = await owner.get(path);
      expect(page.status).toBe(200);
      expect(page.html).not.toContain(MARKUP);
      expect(page.html).toContain(ESCAPED);
    }
  });

  it('lets a viewer read, shows no buttons, and changes nothing by POST', async () => {
    const page = await viewer.get(`/kyc-sessions/${SESSION_ID}`);
    expect(page.status).toBe(200);
    expect(page.html.match(/method="post"/g)).toHaveLength(1);
    expect((await viewer.post(`/kyc-sessions/${SESSION_ID}`, { csrf_token: '' })).status).toBe(403);
    await viewer.get('/kyc-sessions');
    expect((await viewer.post(`/kyc-sessions/${SESSION_ID}`)).status).toBe(404);
    expect(dashboard.kycSessions.calls.filter((call) => call.method === 'cancelKycSession')).toHaveLength(0);
  });
});
