import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminApi } from '../admin-api.js';
import { fakeFetch, json, type RecordedRequest } from '../testing/fake-fetch.js';
import type { SandboxFile } from './sandbox-file.js';
import { seedSandbox } from './seed.js';

const ADMIN = 'http://127.0.0.1:8081';
const BASE = 'http://127.0.0.1:8080';

/** The admin and public APIs as far as seeding uses them, with switchable answers. */
function fakeCorridor(state: { revoked?: boolean; known?: boolean; tokenStatus?: number } = {}) {
  let created = 0;
  return fakeFetch((request: RecordedRequest) => {
    const path = request.url.replace(/^http:\/\/127\.0\.0\.1:808[01]/, '');
    if (request.method === 'POST' && path === '/admin/businesses') return json(201, { id: `b-new-${++created}` });
    if (request.method === 'POST' && /^\/admin\/businesses\/[^/]+\/credentials$/.test(path))
      return json(201, { client_id: 'ci_new', client_secret: 'cs_new', business_id: 'b-new-1', scopes: [] });
    if (request.method === 'GET' && path === '/admin/credentials/ci_old') {
      return state.known === false
        ? json(404, { status: false, message: 'credentials ci_old not found', code: 'CREDENTIAL_NOT_FOUND' })
        : json(200, { client_id: 'ci_old', business_id: 'b-old', revoked: state.revoked ?? false });
    }
    if (request.method === 'POST' && path === '/oauth/token') {
      const status = state.tokenStatus ?? 200;
      return status === 200
        ? json(200, { access_token: 'jwt', token_type: 'Bearer', expires_in: 3600, scope: '' })
        : json(status, { status: false, message: `token refused (${status})`, code: 'X' });
    }
    return json(404, { status: false, message: `no route ${request.method} ${path}` });
  });
}

describe('sandbox seed', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'corridor-seed-'));
    file = join(dir, 'sandbox.json');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const old: SandboxFile = {
    base_url: BASE,
    admin_url: ADMIN,
    admin_token: 'admin-token',
    business_id: 'b-old',
    client_id: 'ci_old',
    client_secret: 'cs_old',
  };
  const seed = (fake: ReturnType<typeof fakeCorridor>) =>
    seedSandbox({
      api: new AdminApi({ adminUrl: ADMIN, adminToken: 'admin-token' }, fake.fetch),
      adminToken: 'admin-token',
      baseUrl: BASE,
      file,
      fetchImpl: fake.fetch,
    });
  const readBack = async () => JSON.parse(await readFile(file, 'utf8')) as SandboxFile;

  it('without a file: creates "Sandbox Platform" with full-access credentials and writes the file 0600', async () => {
    const fake = fakeCorridor();
    const outcome = await seed(fake);
    expect(outcome.reused).toBe(false);
    expect(fake.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST ${ADMIN}/admin/businesses`,
      `POST ${ADMIN}/admin/businesses/b-new-1/credentials`,
    ]);
    expect(JSON.parse(fake.requests[0]!.body!)).toEqual({ name: 'Sandbox Platform' });
    expect(JSON.parse(fake.requests[1]!.body!)).toEqual({ bundles: ['full-access'] });
    expect(await readBack()).toEqual({ ...old, business_id: 'b-new-1', client_id: 'ci_new', client_secret: 'cs_new' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('keeps a file whose credentials still get a token, without writing it', async () => {
    await writeFile(file, JSON.stringify(old), { mode: 0o600 });
    const before = (await stat(file)).mtimeMs;
    const fake = fakeCorridor();
    const outcome = await seed(fake);
    expect(outcome).toMatchObject({ reused: true, sandbox: old });
    expect(fake.requests.map((r) => r.method + ' ' + r.url)).toEqual([
      `GET ${ADMIN}/admin/credentials/ci_old`,
      `POST ${BASE}/oauth/token`,
    ]);
    expect((await stat(file)).mtimeMs).toBe(before);
  });

  it.each([
    [{ revoked: true }, /ci_old is revoked/],
    [{ known: false }, /identity does not know ci_old/],
    [{ tokenStatus: 401 }, /no token for ci_old: token refused \(401\)/],
  ])('replaces credentials that no longer work (%j)', async (state, reason) => {
    await writeFile(file, JSON.stringify(old));
    const outcome = await seed(fakeCorridor(state));
    expect(outcome.reused).toBe(false);
    expect(outcome.reason).toMatch(reason);
    expect((await readBack()).client_id).toBe('ci_new');
  });

  it('replaces a file that is not JSON', async () => {
    await writeFile(file, 'oops');
    const outcome = await seed(fakeCorridor());
    expect(outcome).toMatchObject({ reused: false, reason: expect.stringMatching(/not JSON/) });
  });

  it('a server failure is an error, not a reason for a second sandbox business', async () => {
    await writeFile(file, JSON.stringify(old));
    await expect(seed(fakeCorridor({ tokenStatus: 503 }))).rejects.toThrow('token refused (503)');
    expect(await readBack()).toEqual(old);
  });
});
