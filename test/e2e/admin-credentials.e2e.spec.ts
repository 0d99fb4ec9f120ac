import { createClient as createRedisClient } from 'redis';
import { expectError, Platform, type Credentials, type GatewayProcess } from '../support/platform.js';

const WHOAMI = '/api/external/whoami';

/** Seed part 5's individual scopes, in the seed's order (written out here, independently of the code). */
const SEED_SCOPES = [
  'wallet:read',
  'currency:read',
  'bank:read',
  'customer:read',
  'customer:write',
  'beneficiary:read',
  'virtual-account:read',
  'virtual-account:create',
  'virtual-account:close',
  'collection:create',
  'collection:crypto:create',
  'collection:interac:accept',
  'collection:interac:create',
  'payout:create',
  'swap:create',
  'transaction:read',
  'fees:read',
  'rates:read',
  'file:upload',
  'webhook:read',
  'webhook:write',
  'webhook:replay',
  'mock:webhook:trigger',
  'refund:create',
  'refund:read',
];

const inSeedOrder = (scopes: string[]) => SEED_SCOPES.filter((scope) => scopes.includes(scope));

/** docs/decisions/0006-scope-bundles.md (seed 5 fixes the refund scopes of collections and read-only). */
const BUNDLES: Record<string, string[]> = {
  'full-access': SEED_SCOPES,
  'read-only': SEED_SCOPES.filter((scope) => scope.endsWith(':read')),
  collections: inSeedOrder([
    'collection:create',
    'collection:crypto:create',
    'collection:interac:accept',
    'collection:interac:create',
    'refund:create',
    'refund:read',
    'transaction:read',
    'customer:read',
    'currency:read',
    'fees:read',
    'rates:read',
  ]),
  payouts: inSeedOrder([
    'payout:create',
    'beneficiary:read',
    'bank:read',
    'wallet:read',
    'transaction:read',
    'currency:read',
    'fees:read',
    'rates:read',
  ]),
  'virtual-accounts': inSeedOrder([
    'virtual-account:read',
    'virtual-account:create',
    'virtual-account:close',
    'customer:read',
    'bank:read',
    'currency:read',
    'transaction:read',
  ]),
  customers: inSeedOrder(['customer:read', 'customer:write', 'file:upload']),
};

describe('admin API: credentials are created, rotated and revoked (DESIGN.md admin API, seed part 5)', () => {
  const platform = Platform.shared();
  /** A second gateway process on the same identity and Redis: another replica. */
  let replica: GatewayProcess;
  let businessId: string;

  const createCredentials = (body: unknown, business = businessId) =>
    platform.admin(`/admin/businesses/${business}/credentials`, { method: 'POST', body: JSON.stringify(body) });

  beforeAll(async () => {
    await platform.start();
    [replica, { id: businessId }] = await Promise.all([
      platform.startGateway(),
      platform.createBusiness('Credentials Co'),
    ]);
  });
  afterAll(() => platform.stop());

  describe('create', () => {
    it('seed 5: without bundles or scopes the credentials get full-access, all 25 scopes', async () => {
      const response = await createCredentials({});
      expect(response.status).toBe(201);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = (await response.json()) as Credentials & Record<string, unknown>;
      expect(body).toMatchObject({ business_id: businessId, revoked: false, scopes: SEED_SCOPES });
      expect(body.scopes).toHaveLength(25);
      expect(body.client_id).toMatch(/^ci_test_[0-9a-f]{32}$/);
    });

    it('issue 3 item 1: the client_secret has the sandbox prefix cs_test_ and at least 256 random bits', async () => {
      const secrets = await Promise.all(
        [createCredentials({}), createCredentials({})].map(async (r) => {
          const body = (await (await r).json()) as Credentials;
          return body.client_secret;
        }),
      );
      for (const secret of secrets) {
        expect(secret).toMatch(/^cs_test_[A-Za-z0-9_-]+$/);
        expect(Buffer.from(secret.slice('cs_test_'.length), 'base64url').length * 8).toBeGreaterThanOrEqual(256);
      }
      expect(secrets[0]).not.toBe(secrets[1]);
    });

    it.each(Object.entries(BUNDLES))(
      'seed 5: the bundle %s grants its scopes (decision 0006)',
      async (bundle, scopes) => {
        const response = await createCredentials({ bundles: [bundle] });
        expect(response.status).toBe(201);
        expect(((await response.json()) as Credentials).scopes).toEqual(scopes);
      },
    );

    it('seed 5: bundles and scopes together grant their union, in the seed order', async () => {
      const response = await createCredentials({ bundles: ['customers'], scopes: ['webhook:write', 'wallet:read'] });
      expect(response.status).toBe(201);
      expect(((await response.json()) as Credentials).scopes).toEqual(
        inSeedOrder(['customer:read', 'customer:write', 'file:upload', 'webhook:write', 'wallet:read']),
      );
    });

    it('seed 5: an unknown bundle is 422 naming it', async () => {
      const body = await expectError(await createCredentials({ bundles: ['read-only', 'everything'] }), 422, {
        code: 'INVALID_SCOPE',
        message: /^bundles unknown bundle everything; bundles are full-access, read-only, collections/,
      });
      expect(body.errors).toEqual({ bundles: [expect.stringContaining('unknown bundle everything')] });
    });

    it('seed 5: a scope listed as a bundle, or a bundle listed as a scope, is 422 saying which list it belongs in', async () => {
      await expectError(await createCredentials({ bundles: ['wallet:read'] }), 422, {
        message: /wallet:read is a scope: list it under scopes/,
      });
      await expectError(await createCredentials({ scopes: ['payouts'] }), 422, {
        message: /payouts is a bundle: list it under bundles/,
      });
      await expectError(await createCredentials({ scopes: ['wallet:write'] }), 422, {
        message: /unknown scope wallet:write/,
      });
    });

    it('a business that does not exist has no credentials to create: 404', async () => {
      await expectError(await createCredentials({}, '00000000-0000-4000-8000-000000000000'), 404, {
        code: 'BUSINESS_NOT_FOUND',
      });
    });
  });

  it('seed 5 rule 1: the secret is shown once: GET never returns it', async () => {
    const created = (await (await createCredentials({})).json()) as Credentials;
    const read = await platform.admin(`/admin/credentials/${created.client_id}`);
    expect(read.status).toBe(200);
    const text = await read.text();
    expect(text).not.toContain(created.client_secret);
    const body = JSON.parse(text) as Record<string, unknown>;
    expect(body).not.toHaveProperty('client_secret');
    expect(body).toMatchObject({ client_id: created.client_id, scopes: SEED_SCOPES, revoked: false });
    expect(await (await platform.admin(`/admin/businesses/${businessId}`)).text()).not.toContain(created.client_secret);
  });

  describe('rotate', () => {
    it('seed 5 rule 1: rotation revokes the old secret and every token from it at once on every gateway replica, and may assign new scopes', async () => {
      const old = (await (await createCredentials({})).json()) as Credentials;
      const tokens = await Promise.all([
        platform.accessToken(old, 'wallet:read payout:create'),
        platform.accessToken(old, 'wallet:read'),
      ]);
      // In use on both replicas before the rotation.
      for (const token of tokens) {
        expect((await platform.api(WHOAMI, token)).status).toBe(200);
        expect((await replica.api(WHOAMI, token)).status).toBe(200);
      }

      const rotated = await platform.rotateCredentials(old.client_id, { bundles: ['read-only'] });
      expect(rotated.client_id).toBe(old.client_id);
      expect(rotated.client_secret).toMatch(/^cs_test_/);
      expect(rotated.client_secret).not.toBe(old.client_secret);
      expect(rotated.scopes).toEqual(BUNDLES['read-only']);

      // The very next request, on either replica: no waiting for a cache to expire.
      for (const token of tokens) {
        for (const gateway of [platform, replica]) {
          await expectError(await gateway.api(WHOAMI, token), 401, {
            code: 'TOKEN_REVOKED',
            message: /credentials were rotated/,
          });
        }
      }
      await expectError(await platform.requestToken(old, 'wallet:read'), 401, { error: 'invalid_client' });

      // The new secret, with the new scope set, works on both replicas.
      await expectError(await platform.requestToken(rotated, 'wallet:read payout:create'), 400, {
        error: 'invalid_scope',
        message: /scope payout:create is not assigned/,
      });
      const fresh = await platform.accessToken(rotated, 'wallet:read refund:read');
      for (const gateway of [platform, replica]) {
        const response = await gateway.api(WHOAMI, fresh);
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ data: { scopes: ['wallet:read', 'refund:read'] } });
      }
    });

    it('seed 5 rule 1: rotation without bundles or scopes keeps the scope set', async () => {
      const created = (await (await createCredentials({ bundles: ['payouts'] })).json()) as Credentials;
      const rotated = await platform.rotateCredentials(created.client_id);
      expect(rotated.scopes).toEqual(BUNDLES.payouts);
      expect(rotated.client_secret).not.toBe(created.client_secret);
    });

    it('rotating with an unknown bundle changes nothing: 422, and the old secret still works', async () => {
      const created = (await (await createCredentials({})).json()) as Credentials;
      await expectError(
        await platform.admin(`/admin/credentials/${created.client_id}/rotate`, {
          method: 'POST',
          body: JSON.stringify({ bundles: ['nope'] }),
        }),
        422,
        { message: /unknown bundle nope/ },
      );
      expect((await platform.requestToken(created, 'wallet:read')).status).toBe(200);
    });

    it('decision 0007: a cache left at the old generation (a push lost after the commit) lets the new tokens in and refuses the old', async () => {
      const created = (await (await createCredentials({})).json()) as Credentials;
      const before = await platform.accessToken(created, 'wallet:read');
      expect((await platform.api(WHOAMI, before)).status).toBe(200); // generation 1 is now cached
      const rotated = await platform.rotateCredentials(created.client_id);
      // Put generation 1 back, as a push failing after identity committed would have left it.
      const redis = createRedisClient({ url: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' });
      await redis.connect();
      try {
        await redis.set(`${platform.redisKeyPrefix}:{${created.business_id}}:cred:${created.client_id}`, '1', {
          EX: 300,
        });
      } finally {
        await redis.quit();
      }
      const after = await platform.accessToken(rotated, 'wallet:read');
      expect((await platform.api(WHOAMI, after)).status).toBe(200);
      await expectError(await platform.api(WHOAMI, before), 401, { code: 'TOKEN_REVOKED' });
      await expectError(await replica.api(WHOAMI, before), 401, { code: 'TOKEN_REVOKED' });
    });
  });

  describe('revoke', () => {
    it('seed 5: revocation makes its tokens 401 on every replica at once, and its token requests 401 invalid_client', async () => {
      const created = (await (await createCredentials({})).json()) as Credentials;
      const token = await platform.accessToken(created, 'wallet:read');
      expect((await platform.api(WHOAMI, token)).status).toBe(200);
      expect((await replica.api(WHOAMI, token)).status).toBe(200);

      const revoked = await platform.revokeCredentials(created.client_id);
      expect(revoked).toMatchObject({ client_id: created.client_id, revoked: true });
      expect(revoked).not.toHaveProperty('client_secret');

      for (const gateway of [platform, replica]) {
        await expectError(await gateway.api(WHOAMI, token), 401, {
          code: 'TOKEN_REVOKED',
          message: /credentials have been revoked/,
        });
      }
      await expectError(await platform.requestToken(created, 'wallet:read'), 401, { error: 'invalid_client' });
      expect(await (await platform.admin(`/admin/credentials/${created.client_id}`)).json()).toMatchObject({
        revoked: true,
      });
    });

    it('revocation is final: revoking again is 200, rotating is 400 naming the problem', async () => {
      const created = (await (await createCredentials({})).json()) as Credentials;
      await platform.revokeCredentials(created.client_id);
      expect((await platform.revokeCredentials(created.client_id)).revoked).toBe(true);
      await expectError(
        await platform.admin(`/admin/credentials/${created.client_id}/rotate`, { method: 'POST', body: '{}' }),
        400,
        { code: 'CREDENTIAL_REVOKED', message: /are revoked and cannot be rotated/ },
      );
    });
  });

  it('unknown credentials are 404 on read, rotate and revoke', async () => {
    const clientId = 'ci_test_00000000000000000000000000000000';
    for (const [path, method] of [
      [`/admin/credentials/${clientId}`, 'GET'],
      [`/admin/credentials/${clientId}/rotate`, 'POST'],
      [`/admin/credentials/${clientId}`, 'DELETE'],
    ] as const) {
      await expectError(await platform.admin(path, { method, ...(method === 'POST' ? { body: '{}' } : {}) }), 404, {
        code: 'CREDENTIAL_NOT_FOUND',
        message: new RegExp(`credentials ${clientId} not found`),
      });
    }
  });

  it('seed 5 rule 4: no legacy API key can be created (there is no admin route for one)', async () => {
    await expectError(
      await platform.admin(`/admin/businesses/${businessId}/api-keys`, { method: 'POST', body: '{}' }),
      404,
      { code: 'ROUTE_NOT_FOUND' },
    );
  });
});
