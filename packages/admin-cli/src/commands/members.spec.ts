import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../cli.js';
import { captureIo, fakeFetch, json, type Responder } from '../testing/fake-fetch.js';

const BUSINESS = '9c4e1a63-0000-4000-8000-00000000b001';

describe('corridor admin members (in-process, fake admin API)', () => {
  let localDir: string;
  beforeEach(async () => {
    localDir = await mkdtemp(join(tmpdir(), 'corridor-cli-members-'));
  });
  afterEach(() => rm(localDir, { recursive: true, force: true }));

  const run = async (args: string[], respond: Responder = () => json(200, { data: [] })) => {
    const fake = fakeFetch(respond);
    const captured = captureIo(fake.fetch, {
      CORRIDOR_LOCAL: localDir,
      CORRIDOR_ADMIN_URL: 'http://admin.test:8081',
      ADMIN_TOKEN: 'env-token',
    });
    const code = await runCli(['admin', 'members', ...args], captured.io);
    return { code, requests: fake.requests, stdout: captured.stdout(), stderr: captured.stderr() };
  };

  it('invite posts the email without a role (the API defaults to owner) and prints the invitation', async () => {
    const invited = { id: 'm-1', email: 'owner@acme.test', role: 'owner', invitation_url: 'http://d/invitation/t' };
    const result = await run(['invite', BUSINESS, 'Owner@Acme.test'], () => json(201, invited));
    expect(result.code).toBe(0);
    expect(result.requests).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: `http://admin.test:8081/admin/businesses/${BUSINESS}/members`,
        headers: expect.objectContaining({ authorization: 'Bearer env-token' }),
        body: JSON.stringify({ email: 'Owner@Acme.test' }),
      }),
    ]);
    expect(JSON.parse(result.stdout)).toEqual(invited);
  });

  it('invite --role admin sends the role as given', async () => {
    const result = await run(['invite', BUSINESS, 'a@acme.test', '--role', 'admin'], () => json(201, {}));
    expect(result.requests[0]?.body).toBe(JSON.stringify({ email: 'a@acme.test', role: 'admin' }));
  });

  it("invite prints the API's refusal and exits 1", async () => {
    const result = await run(['invite', BUSINESS, 'a@acme.test'], () =>
      json(409, { status: false, code: 'MEMBER_EXISTS', message: 'a@acme.test is already a member of this business' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('a@acme.test is already a member of this business');
  });

  it('list reads the first page, or the page asked for', async () => {
    const first = await run(['list', BUSINESS]);
    expect(first.requests[0]).toMatchObject({
      method: 'GET',
      url: `http://admin.test:8081/admin/businesses/${BUSINESS}/members`,
    });
    const next = await run(['list', BUSINESS, '--per-page', '50', '--cursor', 'c']);
    expect(next.requests[0]?.url).toBe(
      `http://admin.test:8081/admin/businesses/${BUSINESS}/members?per_page=50&cursor=c`,
    );
  });
});
