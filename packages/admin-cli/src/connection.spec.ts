import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ADMIN_URL, resolveConnection } from './connection.js';

describe('where the CLI finds the admin API', () => {
  let localDir: string;
  beforeEach(async () => {
    localDir = await mkdtemp(join(tmpdir(), 'corridor-connection-'));
  });
  afterEach(() => rm(localDir, { recursive: true, force: true }));

  const writeSandbox = (fields: Record<string, string>) =>
    writeFile(
      join(localDir, 'sandbox.json'),
      JSON.stringify({
        base_url: 'http://127.0.0.1:8080',
        admin_url: 'http://sandbox-admin:8081',
        admin_token: 'sandbox-token',
        business_id: 'b',
        client_id: 'c',
        client_secret: 's',
        ...fields,
      }),
    );

  it('flags, then the environment', async () => {
    const env = { CORRIDOR_ADMIN_URL: 'http://env:1', ADMIN_TOKEN: 'env-token' };
    expect(await resolveConnection({ adminUrl: 'http://flag:1', adminToken: 'flag-token' }, env, localDir)).toEqual({
      adminUrl: 'http://flag:1',
      adminToken: 'flag-token',
    });
    expect(await resolveConnection({}, env, localDir)).toEqual({ adminUrl: 'http://env:1', adminToken: 'env-token' });
  });

  it('then .local/sandbox.json', async () => {
    await writeSandbox({});
    expect(await resolveConnection({}, {}, localDir)).toEqual({
      adminUrl: 'http://sandbox-admin:8081',
      adminToken: 'sandbox-token',
    });
  });

  it('then the local default URL and .local/admin-token', async () => {
    await writeFile(join(localDir, 'admin-token'), 'file-token\n');
    expect(await resolveConnection({}, {}, localDir)).toEqual({
      adminUrl: DEFAULT_ADMIN_URL,
      adminToken: 'file-token',
    });
  });

  it('a broken sandbox.json is ignored when flags and environment say everything', async () => {
    await writeFile(join(localDir, 'sandbox.json'), '{');
    expect(await resolveConnection({}, { CORRIDOR_ADMIN_URL: 'http://e:1', ADMIN_TOKEN: 't' }, localDir)).toEqual({
      adminUrl: 'http://e:1',
      adminToken: 't',
    });
    await expect(resolveConnection({}, {}, localDir)).rejects.toThrow(/sandbox\.json is not JSON/);
  });

  it('no token anywhere says how to get one', async () => {
    await expect(resolveConnection({}, {}, localDir)).rejects.toThrow(
      /no admin token: pass --admin-token, set ADMIN_TOKEN, or run npm start/,
    );
  });
});
