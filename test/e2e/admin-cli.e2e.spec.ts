import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@corridor/testing';
import { Platform } from '../support/platform.js';

/** `.local/sandbox.json` (DESIGN.md "Local operation"). */
interface SandboxJson {
  base_url: string;
  admin_url: string;
  admin_token: string;
  business_id: string;
  client_id: string;
  client_secret: string;
}

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout as JSON (every successful command prints JSON). */
  json: Record<string, unknown>;
}

describe('corridor admin: the built CLI as a child process against the real gateway and identity', () => {
  const platform = new Platform();
  let localDir: string;

  beforeAll(async () => {
    await platform.start();
    localDir = await mkdtemp(join(tmpdir(), 'corridor-cli-e2e-'));
  });
  afterAll(async () => {
    await platform.stop();
    if (localDir) await rm(localDir, { recursive: true, force: true });
  });

  /** `pnpm corridor …` minus pnpm: the CLI sees only what this environment gives it. */
  const corridor = (...args: string[]): Promise<CliRun> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [`${REPO_ROOT}packages/admin-cli/dist/main.js`, ...args], {
        env: {
          PATH: process.env.PATH ?? '',
          CORRIDOR_LOCAL: localDir,
          CORRIDOR_ADMIN_URL: platform.adminUrl,
          ADMIN_TOKEN: platform.adminToken,
          CORRIDOR_BASE_URL: platform.publicUrl,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(stdout) as Record<string, unknown>;
        } catch {
          // error runs print nothing on stdout
        }
        resolve({ code, stdout, stderr, json });
      });
    });

  const ok = async (...args: string[]) => {
    const run = await corridor(...args);
    if (run.code !== 0) throw new Error(`corridor ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
    return run.json;
  };

  it('creates, reads and updates a business', async () => {
    const created = await ok('admin', 'businesses', 'create', '--name', 'Acme CLI', '--kyb-minimal-allowed');
    expect(created).toMatchObject({ name: 'Acme CLI', api_enabled: true, kyb_minimal_allowed: true });
    const id = String(created.id);

    expect(await ok('admin', 'businesses', 'get', id)).toEqual(created);

    const updated = await ok(
      'admin',
      'businesses',
      'update',
      id,
      '--api-enabled',
      'false',
      '--ip-allowlist',
      '10.0.0.0/8,203.0.113.7',
      '--rate-limits',
      '600/20000',
    );
    expect(updated).toMatchObject({
      api_enabled: false,
      ip_allowlist: ['10.0.0.0/8', '203.0.113.7'],
      rate_limits: { per_minute: 600, per_hour: 20000 },
    });
    expect(await ok('admin', 'businesses', 'update', id, '--ip-allowlist', '')).toMatchObject({ ip_allowlist: [] });
  });

  it('creates, rotates and revokes credentials; tokens follow', async () => {
    const business = await ok('admin', 'businesses', 'create', '--name', 'Credentials CLI');
    const created = await ok(
      'admin',
      'credentials',
      'create',
      String(business.id),
      '--bundle',
      'read-only',
      '--scope',
      'swap:create',
    );
    expect(created).toMatchObject({ business_id: business.id, revoked: false });
    expect(created.scopes).toEqual(expect.arrayContaining(['customer:read', 'swap:create']));
    const clientId = String(created.client_id);
    const first = { client_id: clientId, client_secret: String(created.client_secret) };
    expect((await platform.requestToken(first)).status).toBe(200);

    const rotated = await ok('admin', 'credentials', 'rotate', clientId);
    expect(rotated.client_id).toBe(clientId);
    expect(rotated.client_secret).not.toBe(first.client_secret);
    expect(rotated.scopes).toEqual(created.scopes); // no --bundle/--scope: the scopes stay
    expect((await platform.requestToken(first)).status).toBe(401);
    const second = { client_id: clientId, client_secret: String(rotated.client_secret) };
    expect((await platform.requestToken(second)).status).toBe(200);

    expect(await ok('admin', 'credentials', 'revoke', clientId)).toMatchObject({ client_id: clientId, revoked: true });
    expect(await ok('admin', 'credentials', 'get', clientId)).toMatchObject({ revoked: true });
    expect(await ok('admin', 'credentials', 'get', clientId)).not.toHaveProperty('client_secret');
    expect((await platform.requestToken(second)).status).toBe(401);
  });

  it("an error exits non-zero with the API's message", async () => {
    const missing = await corridor('admin', 'credentials', 'get', 'ci_test_doesnotexist');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe('corridor: credentials ci_test_doesnotexist not found (404 CREDENTIAL_NOT_FOUND)\n');

    const business = await ok('admin', 'businesses', 'create', '--name', 'Limits CLI');
    const invalid = await corridor('admin', 'businesses', 'update', String(business.id), '--rate-limits', '100/10');
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/rate_limits\.per_hour: must be at least per_minute \(100\)/);

    const wrongToken = await corridor(
      'admin',
      '--admin-token',
      'not-the-token',
      'businesses',
      'get',
      String(business.id),
    );
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toBe('corridor: the admin bearer token is not valid (401 ADMIN_TOKEN_INVALID)\n');
  });

  describe('sandbox seed', () => {
    const sandboxFile = () => join(localDir, 'sandbox.json');
    const readSandbox = async () => JSON.parse(await readFile(sandboxFile(), 'utf8')) as SandboxJson;

    it('creates the sandbox once, keeps it while it works, replaces it once revoked', async () => {
      const first = await ok('admin', 'sandbox', 'seed');
      expect(first).toMatchObject({ reused: false, base_url: platform.publicUrl, admin_url: platform.adminUrl });
      expect(first).not.toHaveProperty('client_secret');
      const written = await readSandbox();
      expect(Object.keys(written)).toEqual([
        'base_url',
        'admin_url',
        'admin_token',
        'business_id',
        'client_id',
        'client_secret',
      ]);
      expect(written).toMatchObject({ admin_token: platform.adminToken, client_id: first.client_id });
      expect((await stat(sandboxFile())).mode & 0o777).toBe(0o600);
      expect(await ok('admin', 'businesses', 'get', written.business_id)).toMatchObject({ name: 'Sandbox Platform' });
      // Full access: the token the README's curl asks for is granted.
      expect(
        (
          await platform.requestToken(
            { client_id: written.client_id, client_secret: written.client_secret },
            'customer:read',
          )
        ).status,
      ).toBe(200);

      const again = await ok('admin', 'sandbox', 'seed');
      expect(again).toMatchObject({ reused: true, client_id: written.client_id });
      expect(await readSandbox()).toEqual(written);

      await ok('admin', 'credentials', 'revoke', written.client_id);
      const replaced = await corridor('admin', 'sandbox', 'seed');
      expect(replaced.code).toBe(0);
      expect(replaced.json.reused).toBe(false);
      expect(replaced.stderr).toMatch(/is revoked/);
      expect((await readSandbox()).client_id).not.toBe(written.client_id);
    });
  });
});
