import { PUBLIC_ROUTES } from '../../services/gateway/dist/public/routes.js';
import {
  callRoute,
  concretePath,
  expectError,
  Platform,
  type Credentials,
  type GatewayProcess,
  type RouteEntry,
} from '../support/platform.js';

const WHOAMI = '/api/external/whoami';

/**
 * Routes any valid token may call. A route without a scope is a decision, not a default: adding one
 * to the table without listing it here fails the walk below.
 */
const SCOPE_FREE_ROUTES = ['GET /api/external/whoami'];

const routeName = (route: RouteEntry) => `${route.method.toUpperCase()} ${route.path}`;
const scopedRoutes = PUBLIC_ROUTES.filter((route) => route.scope !== null);

/**
 * What it tolerates (issue 37): a loaded machine; its platforms are awaited by what they report, in
 * quiet-machine time (@corridor/testing MachineClock). Nothing in it is timed.
 */
describe('authorization: scopes, API services, the production IP allow-list (issue 3 item 4)', () => {
  // TRUST_PROXY=loopback: the test is the proxy in front of the gateway, so X-Forwarded-For is believed.
  // The walk asks for a few tokens per scope: the per-client_id token limit must not get in its way.
  const production = new Platform({
    environment: 'production',
    gatewayEnv: { TRUST_PROXY: 'loopback', TOKEN_REQUESTS_PER_MINUTE: '1000' },
  });
  const sandbox = Platform.shared();
  let credentials: Credentials;

  /** Tokens of the full-access credentials by requested scope, asked for once each. */
  const tokens = new Map<string, Promise<string>>();
  const tokenWith = (scopes: string[]) => {
    const scope = scopes.join(' ');
    if (!tokens.has(scope)) tokens.set(scope, production.accessToken(credentials, scope));
    return tokens.get(scope) as Promise<string>;
  };
  const call = (route: RouteEntry, token: string) => callRoute(route, token, (p, t, i) => production.api(p, t, i));

  beforeAll(async () => {
    await Promise.all([production.start(), sandbox.start()]);
    const { id } = await production.createBusiness('Scoped Co');
    // The walk calls every route a few times: the rate limit must not get in its way either.
    await production.patchBusiness(id, { rate_limits: { per_minute: 100_000, per_hour: 6_000_000 } });
    credentials = await production.createCredentials(id);
  });
  afterAll(() => Promise.all([production.stop(), sandbox.stop()]));

  describe('the route table walk: every route refuses a token without its scope', () => {
    /**
     * Throws unless the route answers 403 naming its scope to a token holding every other scope,
     * and answers a token holding just that scope with something other than a refusal.
     */
    const expectScopeEnforced = async (route: RouteEntry) => {
      const scope = String(route.scope);
      const response = await call(route, await tokenWith(credentials.scopes.filter((s) => s !== scope)));
      if (response.status !== 403) {
        throw new Error(
          `${routeName(route)} answered ${response.status} to a token without ${scope}: ${await response.text()}`,
        );
      }
      await expectError(response, 403, {
        code: 'SCOPE_MISSING',
        message: new RegExp(`requires the scope ${scope.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      });
      // The control: with just that scope the caller is let through (whatever the route then answers).
      const allowed = await call(route, await tokenWith([scope]));
      const body = (await allowed.json().catch(() => ({}))) as { code?: string };
      const refused = allowed.status === 401 || body.code === 'SCOPE_MISSING';
      expect({ route: routeName(route), status: allowed.status, code: body.code, refused }).toMatchObject({
        refused: false,
      });
    };

    it('the route table has routes, and every route without a scope is listed as scope-free on purpose', () => {
      expect(PUBLIC_ROUTES.length).toBeGreaterThan(0);
      const scopeFree = PUBLIC_ROUTES.filter((route) => route.scope === null).map(routeName);
      expect(scopeFree.filter((name) => !SCOPE_FREE_ROUTES.includes(name))).toEqual([]);
    });

    it('the walk itself fails loudly on a route that does not enforce its scope', async () => {
      // whoami takes any token: dressed up as needing wallet:read, the walk must reject it.
      const pretend: RouteEntry = { method: 'get', path: WHOAMI, scope: 'wallet:read', operationId: 'pretend' };
      await expect(expectScopeEnforced(pretend)).rejects.toThrow(
        /GET \/api\/external\/whoami answered 200 to a token without wallet:read/,
      );
    });

    // One test per scoped route of the table, so every route later issues add is walked. (it.each
    // refuses an empty table: while whoami is the only route, there is none to generate.)
    if (scopedRoutes.length > 0) {
      it.each(scopedRoutes.map((route) => [routeName(route), route] as const))(
        'seed 7 (403): %s refuses a token without its scope, naming the scope',
        async (_name, route) => {
          await expectScopeEnforced(route);
          // A token with no scope at all, the seed 4.1 case, is refused too.
          await expectError(await call(route, await tokenWith([])), 403, { code: 'SCOPE_MISSING' });
        },
      );
    }

    it('scope-free routes take a token with no scope at all', async () => {
      for (const route of PUBLIC_ROUTES.filter((r) => r.scope === null)) {
        const response = await call(route, await tokenWith([]));
        expect({ route: routeName(route), status: response.status }).toEqual({
          route: routeName(route),
          status: 200,
        });
      }
    });
  });

  it('seed 7 (403): a business whose API services are switched off is refused on every route and token request at once, and back at once', async () => {
    const { id } = await production.createBusiness('Switched Co');
    const switched = await production.createCredentials(id);
    const token = await production.accessToken(switched, switched.scopes.join(' '));
    expect((await production.api(WHOAMI, token)).status).toBe(200);

    await production.patchBusiness(id, { api_enabled: false });
    for (const route of PUBLIC_ROUTES) {
      await expectError(await callRoute(route, token, (p, t, i) => production.api(p, t, i)), 403, {
        code: 'API_DISABLED',
        message: /this business no longer has API services/,
      });
    }
    await expectError(await production.requestToken(switched), 403, {
      error: 'unauthorized_client',
      message: /no longer has API services/,
    });

    await production.patchBusiness(id, { api_enabled: true });
    expect((await production.api(WHOAMI, token)).status).toBe(200);
    expect((await production.requestToken(switched)).status).toBe(200);
  });

  describe('seed 7 (403): production IP allow-list', () => {
    let listed: { token: string; credentials: Credentials; businessId: string };
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

    beforeAll(async () => {
      listed = await production.tokenFor([]);
      await production.patchBusiness(listed.businessId, {
        ip_allowlist: ['203.0.113.7', '2001:db8::/32'],
        // Refused addresses count toward the budget too (decision 0007): room for a long route table.
        rate_limits: { per_minute: 100_000, per_hour: 6_000_000 },
      });
    });

    it('a listed address passes; any other is 403 naming the address, on every route, at once after the PATCH', async () => {
      expect((await production.api(WHOAMI, listed.token, from('203.0.113.7'))).status).toBe(200);
      expect((await production.api(WHOAMI, listed.token, from('2001:db8::1'))).status).toBe(200);
      for (const route of PUBLIC_ROUTES) {
        await expectError(
          await callRoute(route, listed.token, (p, t, i) => production.api(p, t, i), from('198.51.100.1').headers),
          403,
          { code: 'IP_NOT_ALLOWED', message: /requests from 198\.51\.100\.1 are not on this business's IP allow-list/ },
        );
      }
      // Without a proxy header the caller is the socket's address, which is not listed either.
      await expectError(await production.api(WHOAMI, listed.token), 403, {
        code: 'IP_NOT_ALLOWED',
        message: /requests from 127\.0\.0\.1 /,
      });
    });

    it('identity applies the allow-list to token requests too', async () => {
      expect((await production.requestToken(listed.credentials, '', from('203.0.113.7').headers)).status).toBe(200);
      await expectError(await production.requestToken(listed.credentials, '', from('198.51.100.1').headers), 403, {
        error: 'unauthorized_client',
        message: /requests from 198\.51\.100\.1 are not on this business's IP allow-list/,
      });
    });

    it('which proxies are believed is configuration: a gateway that trusts none ignores X-Forwarded-For', async () => {
      let untrusting: GatewayProcess | undefined;
      try {
        untrusting = await production.startGateway({ TRUST_PROXY: 'false' });
        await expectError(await untrusting.api(WHOAMI, listed.token, from('203.0.113.7')), 403, {
          code: 'IP_NOT_ALLOWED',
          message: /requests from 127\.0\.0\.1 /,
        });
      } finally {
        await untrusting?.stop();
      }
    });

    it('a business without an allow-list is reachable from anywhere', async () => {
      const open = await production.tokenFor([]);
      expect((await production.api(WHOAMI, open.token, from('198.51.100.1'))).status).toBe(200);
    });

    it('the sandbox ignores the allow-list (it applies to production only)', async () => {
      const { token, credentials: sandboxCredentials, businessId: id } = await sandbox.tokenFor([]);
      await sandbox.patchBusiness(id, { ip_allowlist: ['203.0.113.7'] });
      expect((await sandbox.api(WHOAMI, token)).status).toBe(200);
      expect((await sandbox.api(WHOAMI, token, from('198.51.100.1'))).status).toBe(200);
      expect((await sandbox.requestToken(sandboxCredentials)).status).toBe(200);
    });
  });

  it('concretePath fills every path parameter (so the walk reaches the route, not a 404)', () => {
    expect(concretePath({ method: 'get', path: '/a/{customer}/b/{owner}', scope: null, operationId: 'x' })).toBe(
      '/a/00000000-0000-4000-8000-000000000000/b/00000000-0000-4000-8000-000000000000',
    );
  });
});
