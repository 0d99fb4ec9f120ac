import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../cli.js';
import { captureIo, fakeFetch, json, type Responder } from '../testing/fake-fetch.js';

const ID = '9c4e1a63-0000-4000-8000-00000000dead';

describe('corridor admin dead-letters (in-process, fake admin API)', () => {
  let localDir: string;
  beforeEach(async () => {
    localDir = await mkdtemp(join(tmpdir(), 'corridor-cli-dead-letters-'));
  });
  afterEach(() => rm(localDir, { recursive: true, force: true }));

  const run = async (args: string[], respond: Responder = () => json(200, { data: [] })) => {
    const fake = fakeFetch(respond);
    const captured = captureIo(fake.fetch, {
      CORRIDOR_LOCAL: localDir,
      CORRIDOR_ADMIN_URL: 'http://admin.test:8081',
      ADMIN_TOKEN: 'env-token',
    });
    const code = await runCli(['admin', 'dead-letters', ...args], captured.io);
    return { code, requests: fake.requests, stdout: captured.stdout(), stderr: captured.stderr() };
  };

  it('list asks for the unresolved ones by default, with the admin token', async () => {
    const result = await run(['list', 'notification']);
    expect(result.code).toBe(0);
    expect(result.requests).toEqual([
      expect.objectContaining({
        method: 'GET',
        url: 'http://admin.test:8081/admin/dead-letters/notification?status=unresolved',
        headers: expect.objectContaining({ authorization: 'Bearer env-token' }),
      }),
    ]);
    expect(JSON.parse(result.stdout)).toEqual({ data: [] });
  });

  it('list --status all --per-page 50 --cursor c sends no status, and the page as given', async () => {
    const result = await run(['list', 'payments', '--status', 'all', '--per-page', '50', '--cursor', 'c']);
    expect(result.requests[0]?.url).toBe('http://admin.test:8081/admin/dead-letters/payments?per_page=50&cursor=c');
  });

  it('show reads one, and retry posts without a body', async () => {
    const show = await run(['show', 'payments', ID]);
    expect(show.requests[0]).toMatchObject({
      method: 'GET',
      url: `http://admin.test:8081/admin/dead-letters/payments/${ID}`,
    });
    const retry = await run(['retry', 'notification', ID], () =>
      json(200, { outcome: 'applied', dead_letter: { id: ID, status: 'resolved' } }),
    );
    expect(retry.code).toBe(0);
    expect(retry.requests[0]).toMatchObject({
      method: 'POST',
      url: `http://admin.test:8081/admin/dead-letters/notification/${ID}/retry`,
      body: undefined,
    });
    expect(JSON.parse(retry.stdout)).toMatchObject({ outcome: 'applied' });
  });

  it('retry exits 1 with the API’s message while the message still cannot be decoded', async () => {
    const message = `dead letter ${ID} still cannot be decoded: not a corridor.events.v1.Event: premature EOF`;
    const result = await run(['retry', 'notification', ID], () =>
      json(400, { status: false, code: 'DEAD_LETTER_UNDECODABLE', message }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`corridor: ${message} (400 DEAD_LETTER_UNDECODABLE)\n`);
  });

  it('puts the service and id into the path as one segment each', async () => {
    const result = await run(['show', '../identity', 'a/b']);
    expect(result.requests[0]?.url).toBe('http://admin.test:8081/admin/dead-letters/..%2Fidentity/a%2Fb');
  });
});
