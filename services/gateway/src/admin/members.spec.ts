import { alreadyExists, notFound } from '@corridor/grpc';
import { MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { adminUnderTest } from '../../test/admin/admin-listener.fixture.js';
import { BUSINESS_ID, CREATED } from '../../test/admin/fake-identity-service.js';
import {
  EXPIRES,
  INVITATION_TOKEN,
  member,
  MEMBER_ID,
  startFakeMemberService,
} from '../../test/admin/fake-member-service.js';

const ADMIN_TOKEN = 'admin-token-for-the-members-spec';

/** The admin listener as bootstrap builds it, over a fake MemberService (decision 0028). */
describe('admin members (decision 0028)', () => {
  const backOffice = adminUnderTest(
    startFakeMemberService,
    (service) => ({ members: service.client }),
    ADMIN_TOKEN,
    'req-admin-members',
  );
  const admin = (method: string, path: string, body?: unknown) => backOffice.admin(method, path, body);
  const path = `/admin/businesses/${BUSINESS_ID}/members`;

  it('POST invites an owner by default, as the back office, and answers the sandbox link', async () => {
    const response = await admin('POST', path, { email: 'Owner@Acme.test' });
    expect(response).toEqual({
      status: 201,
      body: {
        id: MEMBER_ID,
        business_id: BUSINESS_ID,
        email: 'owner@acme.test',
        name: '',
        role: 'owner',
        status: 'invited',
        totp_enabled: false,
        created_at: CREATED.toISOString(),
        last_sign_in_at: null,
        invitation_url: `http://dashboard.test/invitation/${INVITATION_TOKEN}`,
        expires_at: EXPIRES.toISOString(),
      },
    });
    expect(backOffice.calls[0]).toMatchObject({
      method: 'inviteMember',
      request: { businessId: BUSINESS_ID, email: 'Owner@Acme.test', role: MemberRole.OWNER },
    });
    // The back office acts as no member: identity records it as such.
    expect(backOffice.calls[0]?.request.actor).toBeUndefined();
  });

  it('POST takes another role, and answers no link when identity gives no token (production)', async () => {
    backOffice.answers.set('inviteMember', (request) => ({
      member: member({ email: 'dev@acme.test', role: request.role }),
      invitationToken: '',
      expiresAt: { seconds: BigInt(EXPIRES.getTime() / 1000), nanos: 0 },
    }));
    const response = await admin('POST', path, { email: 'dev@acme.test', role: 'developer' });
    expect(response).toMatchObject({ status: 201, body: { role: 'developer', invitation_url: null } });
    expect(backOffice.calls[0]?.request).toMatchObject({ role: MemberRole.DEVELOPER });
  });

  it.each([
    [{}, 'email', /^is required/],
    [{ email: 'a@b.c', role: 'superuser' }, 'role', /owner/],
    [{ email: 'a@b.c', colour: 'red' }, 'colour', /^is not a recognised field/],
  ])('POST refuses %j naming %s, identity not asked', async (body, field, problem) => {
    const response = await admin('POST', path, body);
    expect(response).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED' } });
    expect((response.body.errors as Record<string, string[]>)[field]?.[0]).toMatch(problem);
    expect(backOffice.calls).toHaveLength(0);
  });

  it("answers identity's refusals as they are: 404 for no business, 409 for an existing member", async () => {
    backOffice.answers.set('inviteMember', () => {
      throw notFound('BUSINESS_NOT_FOUND', `business ${BUSINESS_ID} not found`);
    });
    expect(await admin('POST', path, { email: 'a@acme.test' })).toMatchObject({
      status: 404,
      body: { code: 'BUSINESS_NOT_FOUND' },
    });
    backOffice.answers.set('inviteMember', () => {
      throw alreadyExists('MEMBER_EXISTS', 'a@acme.test is already a member of this business');
    });
    expect(await admin('POST', path, { email: 'a@acme.test' })).toMatchObject({
      status: 409,
      body: { code: 'MEMBER_EXISTS', message: 'a@acme.test is already a member of this business' },
    });
  });

  it('GET lists the members in the cursor envelope, passing the page asked for', async () => {
    const response = await admin('GET', `${path}?per_page=5&cursor=abc`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      data: [{ id: MEMBER_ID, status: 'active', name: 'Ada', last_sign_in_at: CREATED.toISOString() }],
      meta: { per_page: 15, next_cursor: 'bmV4dA', prev_cursor: null },
    });
    expect((response.body.links as Record<string, string>).next).toMatch(/\/members\?per_page=5&cursor=bmV4dA$/);
    expect(backOffice.calls[0]?.request).toMatchObject({ businessId: BUSINESS_ID, page: { cursor: 'abc', limit: 5 } });
    expect((await admin('GET', `${path}?per_page=0`)).status).toBe(422);
  });
});
