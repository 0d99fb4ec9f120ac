import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminApi } from '../admin-api.js';
import { fakeFetch, json, type RecordedRequest } from '../testing/fake-fetch.js';
import { SANDBOX_OWNER_EMAIL, seedSandboxOwner } from './owner.js';
import { writeSandboxFile, type SandboxFile } from './sandbox-file.js';

const ADMIN = 'http://127.0.0.1:8081';
const DASHBOARD = 'http://127.0.0.1:8090';
const BUSINESS = 'b-1';
const SANDBOX: SandboxFile = {
  base_url: 'http://127.0.0.1:8080',
  admin_url: ADMIN,
  admin_token: 'admin-token',
  business_id: BUSINESS,
  client_id: 'ci_1',
  client_secret: 'cs_1',
};

/** The admin API's member routes and the dashboard's invitation form, as far as seeding uses them. */
function fakeCorridor(state: { active?: string[]; taken?: string[] } = {}) {
  const members = new Map<string, string>((state.active ?? []).map((email) => [email, 'active']));
  const tokens = new Map<string, string>();
  const fake = fakeFetch((request: RecordedRequest) => {
    if (request.url === `${ADMIN}/admin/businesses/${BUSINESS}/members?per_page=100` && request.method === 'GET')
      return json(200, { data: [...members].map(([email, status]) => ({ email, status })) });
    if (request.url === `${ADMIN}/admin/businesses/${BUSINESS}/members` && request.method === 'POST') {
      const { email } = JSON.parse(request.body ?? '{}') as { email: string };
      if (members.has(email) || state.taken?.includes(email))
        return json(409, { status: false, code: 'MEMBER_EXISTS', message: `${email} is already a member` });
      const token = `token-of-${email.replace(/[^a-z0-9]/g, '-')}`;
      members.set(email, 'invited');
      tokens.set(token, email);
      return json(201, { email, status: 'invited', invitation_url: `http://gateway-says:8090/invitation/${token}` });
    }
    const invitation = /^http:\/\/127\.0\.0\.1:8090\/invitation\/([^/]+)$/.exec(request.url)?.[1];
    if (invitation && tokens.has(invitation)) {
      if (request.method === 'GET')
        return new Response('<form><input type="hidden" name="csrf_token" value="csrf-1"/></form>', {
          status: 200,
          headers: { 'set-cookie': 'corridor_form=csrf-1; Path=/; HttpOnly; SameSite=Lax' },
        });
      const form = new URLSearchParams(request.body);
      const fromForm =
        form.get('csrf_token') === 'csrf-1' &&
        request.headers.cookie === 'corridor_form=csrf-1' &&
        request.headers.origin === DASHBOARD;
      if (!fromForm) return new Response('forged', { status: 403 });
      members.set(tokens.get(invitation) ?? '', 'active');
      return new Response(null, { status: 303, headers: { location: '/totp' } });
    }
    return json(404, { status: false, message: `no route ${request.method} ${request.url}` });
  });
  return { ...fake, members };
}

describe('corridor admin sandbox seed-owner: the sandbox business’s dashboard owner, made once', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'corridor-owner-'));
    file = join(dir, 'sandbox.json');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const seed = (fake: ReturnType<typeof fakeCorridor>) =>
    seedSandboxOwner({
      api: new AdminApi({ adminUrl: ADMIN, adminToken: 'admin-token' }, fake.fetch),
      dashboardUrl: `${DASHBOARD}/`,
      file,
      fetchImpl: fake.fetch,
      newPassword: () => 'generated-password-0123',
    });
  const fileNow = async () => JSON.parse(await readFile(file, 'utf8')) as SandboxFile;

  it('invites the owner, accepts through the dashboard’s form from its origin, and writes the sign-in', async () => {
    await writeSandboxFile(file, SANDBOX);
    const fake = fakeCorridor();
    const outcome = await seed(fake);
    expect(outcome.reused).toBe(false);
    expect(fake.members.get(SANDBOX_OWNER_EMAIL)).toBe('active');
    expect(fake.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST ${ADMIN}/admin/businesses/${BUSINESS}/members`,
      `GET ${DASHBOARD}/invitation/token-of-owner-sandbox-corridor-test`,
      `POST ${DASHBOARD}/invitation/token-of-owner-sandbox-corridor-test`,
    ]);
    expect(new URLSearchParams(fake.requests[2]?.body).get('password')).toBe('generated-password-0123');
    expect(await fileNow()).toEqual({
      ...SANDBOX,
      dashboard_url: DASHBOARD,
      dashboard_email: SANDBOX_OWNER_EMAIL,
      dashboard_password: 'generated-password-0123',
    });
  });

  it('keeps an owner the file names while it is an active member: nobody is invited twice', async () => {
    const seeded = {
      ...SANDBOX,
      dashboard_url: DASHBOARD,
      dashboard_email: 'owner@sandbox.corridor.test',
      dashboard_password: 'kept-password-0123',
    };
    await writeSandboxFile(file, seeded);
    const fake = fakeCorridor({ active: ['owner@sandbox.corridor.test'] });
    const outcome = await seed(fake);
    expect(outcome.reused).toBe(true);
    expect(fake.requests.map((r) => r.method)).toEqual(['GET']);
    expect(await fileNow()).toEqual(seeded);
  });

  it('invites another address when the plain one is taken (an earlier sandbox business’s owner)', async () => {
    await writeSandboxFile(file, {
      ...SANDBOX,
      dashboard_email: SANDBOX_OWNER_EMAIL,
      dashboard_password: 'of-another-business',
    });
    const fake = fakeCorridor({ taken: [SANDBOX_OWNER_EMAIL] });
    const outcome = await seed(fake);
    expect(outcome.reused).toBe(false);
    expect(outcome.reason).toBe(`${SANDBOX_OWNER_EMAIL} is not an active member of ${BUSINESS}`);
    expect(outcome.sandbox.dashboard_email).toMatch(/^owner-[0-9a-f]{8}@sandbox\.corridor\.test$/);
    expect(fake.members.get(outcome.sandbox.dashboard_email ?? '')).toBe('active');
    expect((await fileNow()).dashboard_password).toBe('generated-password-0123');
  });

  it('fails, naming the status, when the dashboard refuses the form, and writes no owner', async () => {
    await writeSandboxFile(file, SANDBOX);
    const fake = fakeCorridor();
    await expect(
      seedSandboxOwner({
        api: new AdminApi({ adminUrl: ADMIN, adminToken: 'admin-token' }, fake.fetch),
        dashboardUrl: 'http://127.0.0.1:8090',
        file,
        fetchImpl: async (url, init) =>
          init.method === 'POST' && url.includes('/invitation/')
            ? new Response('no', { status: 403 })
            : fake.fetch(url, init),
      }),
    ).rejects.toThrow('the dashboard did not accept the invitation (HTTP 403');
    expect(await fileNow()).toEqual(SANDBOX);
  });
});
