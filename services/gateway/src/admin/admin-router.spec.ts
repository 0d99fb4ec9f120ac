import { startAdminListener } from '../../test/admin/admin-listener.fixture.js';
import { ADMIN_ROUTES } from './routes.js';

const ADMIN_TOKEN = 'admin-token-for-the-router-spec';

/**
 * The admin listener as bootstrap builds it from ADMIN_ROUTES, with no service behind it: what the
 * router answers itself (token, unknown path, method, document) and that every route is mounted.
 */
describe('the admin router made from the admin route table', () => {
  let listener: Awaited<ReturnType<typeof startAdminListener>>;
  let base: string;

  beforeAll(async () => {
    listener = await startAdminListener({}, ADMIN_TOKEN, 'req-admin-router');
    base = listener.base;
  });
  afterAll(() => listener.close());

  const call = async (method: string, path: string, headers: Record<string, string> = {}, body?: string) => {
    const response = await fetch(`${base}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as unknown };
  };
  const withToken = { authorization: `Bearer ${ADMIN_TOKEN}` };

  it.each([
    ['GET', '/admin/businesses/b-1'],
    ['POST', '/admin/nothing-here'],
    ['DELETE', '/admin/credentials/ci_1'],
    ['GET', '/openapi.json'],
  ])('%s %s without the admin token is 401 ADMIN_TOKEN_MISSING, whatever the path or method', async (method, path) => {
    expect(await call(method, path)).toMatchObject({
      status: 401,
      body: { status: false, code: 'ADMIN_TOKEN_MISSING', message: expect.stringMatching(/Authorization/) },
    });
  });

  it.each([['Bearer wrong'], ['Basic YWRtaW46YWRtaW4='], [`Bearer ${ADMIN_TOKEN}x`], [ADMIN_TOKEN]])(
    'a wrong admin token (%s) is 401 ADMIN_TOKEN_INVALID, and a wrong method is not told apart from a right one',
    async (authorization) => {
      for (const [method, path] of [
        ['GET', '/admin/rates'],
        ['PUT', '/admin/rates'],
        ['GET', '/admin/nothing-here'],
      ] as const) {
        expect(await call(method, path, { authorization })).toMatchObject({
          status: 401,
          body: { code: 'ADMIN_TOKEN_INVALID' },
        });
      }
    },
  );

  it('/healthz needs no token', async () => {
    expect(await call('GET', '/healthz')).toMatchObject({ status: 200, body: { status: true, message: 'alive' } });
  });

  it('an unknown path is 404 ROUTE_NOT_FOUND in the error body', async () => {
    expect(await call('DELETE', '/admin/nothing-here', withToken)).toEqual({
      status: 404,
      headers: expect.anything(),
      body: { status: false, code: 'ROUTE_NOT_FOUND', message: 'no route for DELETE /admin/nothing-here' },
    });
  });

  it.each([
    ['DELETE', '/admin/rates', 'GET, POST, HEAD, OPTIONS'],
    ['POST', '/admin/businesses/4b8f3c2e-0000-4000-8000-00000000b001', 'GET, PATCH, HEAD, OPTIONS'],
    ['PUT', '/admin/credentials/ci_test_1/rotate', 'POST, OPTIONS'],
    ['POST', '/openapi.json', 'GET, HEAD, OPTIONS'],
    ['POST', '/healthz', 'GET, HEAD, OPTIONS'],
  ])('%s %s is 405 with Allow: %s', async (method, path, allow) => {
    const response = await call(method, path, withToken);
    expect(response).toMatchObject({
      status: 405,
      body: { status: false, code: 'METHOD_NOT_ALLOWED', message: `${method} is not allowed on ${path}; use ${allow}` },
    });
    expect(response.headers.get('allow')).toBe(allow);
  });

  it('OPTIONS on a known path is 204 with Allow', async () => {
    const response = await call('OPTIONS', '/admin/customers/c-1/review', withToken);
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('mounts every route of the table at its path and method', async () => {
    for (const route of ADMIN_ROUTES) {
      const path = route.path.replace(/\{[^}]+\}/g, '4b8f3c2e-0000-4000-8000-00000000b001');
      const headers = { ...withToken, 'content-type': 'application/json' };
      const response = await call(route.method.toUpperCase(), path, headers, route.requestBody ? '{}' : undefined);
      // No service behind it: each route answers for itself (422, 500), never the router's 404 or 405.
      const { code } = response.body as { code?: string };
      expect(`${route.method} ${route.path}: ${code}`).not.toMatch(/ROUTE_NOT_FOUND|METHOD_NOT_ALLOWED/);
    }
  });

  it('reads a body only for a route that takes one', async () => {
    const headers = { ...withToken, 'content-type': 'application/json' };
    expect(await call('POST', '/admin/rates', headers, '{"rate": ')).toMatchObject({
      status: 400,
      body: { code: 'MALFORMED_JSON' },
    });
    // DELETE reads no body: the malformed one is not what it answers about.
    const revoke = await call('DELETE', '/admin/credentials/ci_test_1', headers, '{"rate": ');
    expect(revoke.body).not.toMatchObject({ code: 'MALFORMED_JSON' });
  });

  it('serves the admin OpenAPI document with the admin token', async () => {
    const response = await call('GET', '/openapi.json', withToken);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toMatchObject({ openapi: '3.1.1', info: { title: 'Corridor admin API' } });
    expect(Object.keys((response.body as { paths: object }).paths)).toContain('/admin/businesses');
  });
});
