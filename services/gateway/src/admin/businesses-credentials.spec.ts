import { invalidArgument } from '@corridor/grpc';
import { GuardUnavailable } from '../auth/access-guard.js';
import { adminUnderTest } from '../../test/admin/admin-listener.fixture.js';
import { BUSINESS_ID, CLIENT_ID, CREATED, startFakeIdentityService } from '../../test/admin/fake-identity-service.js';

const ADMIN_TOKEN = 'admin-token-for-the-business-spec';

/** What the gateways' shared cache was told, in order; `failing` makes Redis unreachable. */
const cache = { told: [] as string[], failing: false };
const guard = {
  async forgetBusiness(id: string) {
    if (cache.failing) throw new GuardUnavailable(new Error('connection refused'));
    cache.told.push(`forget business ${id}`);
  },
  async storeBusiness({ id, version }: { id: string; version: bigint }) {
    cache.told.push(`store business ${id} v${version}`);
  },
  async forgetCredential(businessId: string, clientId: string) {
    if (cache.failing) throw new GuardUnavailable(new Error('connection refused'));
    cache.told.push(`forget credential ${businessId} ${clientId}`);
  },
  async storeCredential({ clientId, revoked }: { clientId: string; revoked: boolean }) {
    cache.told.push(`store credential ${clientId}${revoked ? ' revoked' : ''}`);
  },
};

/** The admin listener as bootstrap builds it, over a fake identity and a recording cache. */
describe('admin businesses and credentials (DESIGN.md admin API)', () => {
  const backOffice = adminUnderTest(
    startFakeIdentityService,
    (service) => ({ identity: service.client }),
    ADMIN_TOKEN,
    'req-admin-identity',
    guard,
  );
  beforeEach(() => {
    cache.told = [];
    cache.failing = false;
  });

  const admin = (method: string, path: string, body?: unknown) => backOffice.admin(method, path, body);

  it('POST /admin/businesses passes the name as sent (identity trims it) and answers 201 with the business', async () => {
    const response = await admin('POST', '/admin/businesses', { name: '  Acme  ', kyb_minimal_allowed: true });
    expect(response).toEqual({
      status: 201,
      body: {
        id: BUSINESS_ID,
        name: '  Acme  ',
        api_enabled: true,
        kyb_minimal_allowed: false,
        ip_allowlist: [],
        rate_limits: { per_minute: 120, per_hour: 1500 },
        environment: 'sandbox',
        created_at: CREATED.toISOString(),
      },
    });
    expect(backOffice.calls[0]).toMatchObject({
      method: 'createBusiness',
      request: { name: '  Acme  ', kybMinimalAllowed: true },
    });
    expect(backOffice.calls[0]?.caller.businessId).toBeUndefined();
  });

  it('POST /admin/businesses names every problem of JSON type and shape at once, identity not asked', async () => {
    const response = await admin('POST', '/admin/businesses', { api_enabled: 'yes', color: 'red' });
    expect(response).toMatchObject({
      status: 422,
      body: {
        code: 'VALIDATION_FAILED',
        errors: {
          name: ['is required and must be a string'],
          api_enabled: ['must be a boolean'],
          color: ['is not a recognised field'],
        },
      },
    });
    // issue 18: a key "__proto__" is a field like any other, not Object.prototype.
    const proto = await admin('POST', '/admin/businesses', JSON.parse('{"name":"Acme","__proto__":{"admin":true}}'));
    expect(Object.getOwnPropertyDescriptor(proto.body.errors, '__proto__')?.value).toEqual([
      'is not a recognised field',
    ]);
    expect(backOffice.calls).toHaveLength(0);
  });

  it("answers identity's refusal of a name as is: identity trims and bounds it", async () => {
    backOffice.answers.set('createBusiness', () => {
      throw invalidArgument('name is required', { name: ['is required'] });
    });
    expect(await admin('POST', '/admin/businesses', { name: '   ' })).toEqual({
      status: 422,
      body: {
        status: false,
        code: 'VALIDATION_FAILED',
        message: 'name is required',
        errors: { name: ['is required'] },
      },
    });
  });

  it('PATCH forgets the cached business, lets identity change it, then pushes the new version', async () => {
    const response = await admin('PATCH', `/admin/businesses/${BUSINESS_ID}`, {
      ip_allowlist: ['10.0.0.0/8'],
      rate_limits: { per_minute: 0, per_hour: 10 },
    });
    expect(response.status).toBe(200);
    expect(backOffice.calls[0]?.request).toMatchObject({
      id: BUSINESS_ID,
      ipAllowlist: { entries: ['10.0.0.0/8'] },
      // identity says whether 0 is a rate limit (it is not: 1 to 100000).
      rateLimits: { perMinute: 0, perHour: 10 },
    });
    expect(cache.told).toEqual([`forget business ${BUSINESS_ID}`, `store business ${BUSINESS_ID} v2`]);
  });

  it.each([
    [{}, '(body)', /^send at least one of/],
    [{ rate_limits: { per_minute: -5, per_hour: 10 } }, 'rate_limits.per_minute', /^must not be negative/],
    [{ rate_limits: { per_minute: 1, per_hour: 2 ** 32 } }, 'rate_limits.per_hour', /^must be at most 4294967295/],
    [{ ip_allowlist: '10.0.0.0/8' }, 'ip_allowlist', /^must be an array/],
  ])('PATCH refuses %j naming %s, identity not asked', async (body, field, problem) => {
    const response = await admin('PATCH', `/admin/businesses/${BUSINESS_ID}`, body);
    expect(response).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED' } });
    const errors = response.body.errors as Record<string, string[]>;
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field]?.[0]).toMatch(problem);
    expect(backOffice.calls).toHaveLength(0);
  });

  it('PATCH changes nothing when Redis cannot be told first: 503 CACHE_UNAVAILABLE', async () => {
    cache.failing = true;
    expect(await admin('PATCH', `/admin/businesses/${BUSINESS_ID}`, { api_enabled: false })).toMatchObject({
      status: 503,
      body: { code: 'CACHE_UNAVAILABLE' },
    });
    expect(backOffice.calls).toHaveLength(0);
  });

  it('POST credentials answers the secret once, not cached by anyone, and identity checks the names', async () => {
    const response = await admin('POST', `/admin/businesses/${BUSINESS_ID}/credentials`, { bundles: ['payouts'] });
    expect(response).toMatchObject({ status: 201, body: { client_id: CLIENT_ID, client_secret: 'cs_test_secret' } });
    expect(backOffice.calls[0]?.request).toMatchObject({ businessId: BUSINESS_ID, bundles: ['payouts'], scopes: [] });
    expect(
      (await admin('POST', `/admin/businesses/${BUSINESS_ID}/credentials`, { scopes: 'wallet:read' })).body,
    ).toMatchObject({ errors: { scopes: ['must be an array of scopes'] } });
  });

  it('rotation without a body keeps identity’s default, and the cache learns the new generation', async () => {
    const response = await admin('POST', `/admin/credentials/${CLIENT_ID}/rotate`);
    expect(response).toMatchObject({ status: 200, body: { client_secret: 'cs_test_rotated' } });
    expect(backOffice.calls.map(({ method }) => method)).toEqual(['getCredential', 'rotateCredential']);
    expect(cache.told).toEqual([`forget credential ${BUSINESS_ID} ${CLIENT_ID}`, `store credential ${CLIENT_ID}`]);
  });

  it('DELETE revokes, and the cache learns it; GET never shows a secret', async () => {
    expect((await admin('DELETE', `/admin/credentials/${CLIENT_ID}`)).body).toMatchObject({ revoked: true });
    expect(cache.told).toEqual([
      `forget credential ${BUSINESS_ID} ${CLIENT_ID}`,
      `store credential ${CLIENT_ID} revoked`,
    ]);
    const read = await admin('GET', `/admin/credentials/${CLIENT_ID}`);
    expect(read).toMatchObject({ status: 200, body: { client_id: CLIENT_ID, revoked: false } });
    expect(read.body).not.toHaveProperty('client_secret');
  });
});
