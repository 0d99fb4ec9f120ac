import { connect } from 'node:net';
import { expectError, Platform } from '../support/platform.js';

const WHOAMI = '/api/external/whoami';
const json = { 'content-type': 'application/json' };
const BUSINESSES = '/admin/businesses';

/** Sends raw bytes and returns the raw HTTP response (for requests fetch refuses to send). */
async function rawRequest(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('the public error contract (DESIGN.md errors, seed 7): JSON naming the problem, never HTML', () => {
  const platform = new Platform({ gatewayEnv: { BODY_LIMIT: '16kb' } });
  let token: string;

  beforeAll(async () => {
    await platform.start();
    ({ token } = await platform.tokenFor(['wallet:read']));
  });
  afterAll(() => platform.stop());

  it('an unknown route is 404 JSON naming the method and path, with or without a token', async () => {
    await expectError(await fetch(`${platform.publicUrl}/nothing-here`), 404, {
      code: 'ROUTE_NOT_FOUND',
      message: /^no route for GET \/nothing-here$/,
    });
    await expectError(await platform.api('/api/external/nothing', token), 404, {
      code: 'ROUTE_NOT_FOUND',
      message: /^no route for GET \/api\/external\/nothing$/,
    });
    await expectError(await platform.api('/api/external/nothing', undefined, { method: 'DELETE' }), 404, {
      message: /^no route for DELETE \/api\/external\/nothing$/,
    });
    // A known path asked with a method it lacks is 405 naming the ones it has (decision 0019).
    const getToken = await fetch(`${platform.publicUrl}/oauth/token`);
    expect(getToken.headers.get('allow')).toBe('POST, OPTIONS');
    await expectError(getToken, 405, {
      code: 'METHOD_NOT_ALLOWED',
      message: /^GET is not allowed on \/oauth\/token; use POST, OPTIONS$/,
    });
    await expectError(await fetch(`${platform.publicUrl}/api/external/%E0%A4%A`), 404, { code: 'ROUTE_NOT_FOUND' });
  });

  // Bodies are read by one parser, once the caller is authorized; today the admin API's routes take
  // bodies (public routes that take one are added by later issues and share the parser).
  it('malformed JSON is 400 saying what is wrong with it', async () => {
    await expectError(
      await platform.admin(BUSINESSES, { method: 'POST', headers: json, body: '{"amount": 10,}' }),
      400,
      { code: 'MALFORMED_JSON', message: /^request body is not valid JSON: .*position/ },
    );
    await expectError(await platform.admin(BUSINESSES, { method: 'POST', headers: json, body: '{"amount": ' }), 400, {
      code: 'MALFORMED_JSON',
      message: /^request body is not valid JSON: .+/,
    });
  });

  it('a body over the limit is 413 naming the limit', async () => {
    await expectError(
      await platform.admin(BUSINESSES, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ note: 'x'.repeat(20 * 1024) }),
      }),
      413,
      { code: 'BODY_TOO_LARGE', message: /^request body is larger than the 16384 byte limit$/ },
    );
  });

  it('a body that is not JSON is 415 naming its content type and the one to send', async () => {
    await expectError(
      await platform.admin(BUSINESSES, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' }),
      415,
      {
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: /^content type text\/plain is not supported; send application\/json$/,
      },
    );
    await expectError(
      await platform.admin(BUSINESSES, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=iso-8859-1' },
        body: '{}',
      }),
      415,
      { code: 'UNSUPPORTED_MEDIA_TYPE', message: /^unsupported charset "ISO-8859-1"$/ },
    );
  });

  it('a body the gateway cannot decode is a 4xx in the same JSON, not a crash', async () => {
    await expectError(
      await platform.admin(BUSINESSES, {
        method: 'POST',
        headers: { ...json, 'content-encoding': 'gzip' },
        body: 'definitely not gzip',
      }),
      400,
      { code: 'BAD_REQUEST' },
    );
    await expectError(
      await platform.admin(BUSINESSES, {
        method: 'POST',
        headers: { ...json, 'content-encoding': 'compress' },
        body: '{}',
      }),
      415,
      { code: 'UNSUPPORTED_MEDIA_TYPE', message: /^unsupported content encoding "compress"$/ },
    );
  });

  it('the public API reads no body before routing and authorization: a large body to a method the route lacks is 405 with Allow', async () => {
    const response = await platform.api(WHOAMI, undefined, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ note: 'x'.repeat(64 * 1024) }),
    });
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    await expectError(response, 405, {
      code: 'METHOD_NOT_ALLOWED',
      message: /^POST is not allowed on \/api\/external\/whoami; use GET, HEAD, OPTIONS$/,
    });
  });

  it('HTTP the server cannot parse is answered in the same JSON contract, with an x-request-id', async () => {
    const oversized = await rawRequest(
      platform.publicUrl,
      `GET ${WHOAMI} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
    );
    expect(oversized).toMatch(/^HTTP\/1\.1 431 /);
    expect(oversized).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/i);
    expect(oversized).toMatch(/\r\ncontent-type: application\/json/i);
    expect(JSON.parse(oversized.slice(oversized.indexOf('\r\n\r\n') + 4))).toMatchObject({
      status: false,
      code: 'HEADERS_TOO_LARGE',
    });

    const garbage = await rawRequest(platform.publicUrl, 'THIS IS NOT HTTP\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(garbage).toMatch(/\r\nx-request-id: [0-9a-f-]{36}\r\n/i);
    expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toMatchObject({
      status: false,
      code: 'BAD_REQUEST',
    });
  });

  it('every response carries x-request-id: a sane one sent by the caller is echoed, on success and on error', async () => {
    for (const [path, status] of [
      [WHOAMI, 200],
      ['/api/external/nothing', 404],
      ['/healthz', 200],
      ['/readyz', 200],
    ] as const) {
      const response = await platform.api(path, token, { headers: { 'x-request-id': 'trace-me-123' } });
      expect({ path, status: response.status }).toEqual({ path, status });
      expect(response.headers.get('x-request-id')).toBe('trace-me-123');
      await response.arrayBuffer();
    }
    const tokenResponse = await platform.requestToken({ client_id: 'ci_test_x', client_secret: 'y' }, undefined, {
      'x-request-id': 'trace-me-456',
    });
    expect(tokenResponse.headers.get('x-request-id')).toBe('trace-me-456');
    const generated = await platform.api(WHOAMI, undefined, { headers: { 'x-request-id': '<script>' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    await expectError(generated, 401);
  });

  describe('a service down', () => {
    afterAll(async () => {
      if (platform.identity.child.exitCode !== null || platform.identity.child.signalCode !== null) {
        await platform.restartIdentity();
      }
    });

    it('identity down: 503 JSON on calls that need it; a token already cached is still served (no per-request call to identity)', async () => {
      const business = await platform.createBusiness('Outage Co');
      const [cached, uncached] = await Promise.all([
        platform.createCredentials(business.id),
        platform.createCredentials(business.id),
      ]);
      const cachedToken = await platform.accessToken(cached, 'wallet:read');
      const uncachedToken = await platform.accessToken(uncached, 'wallet:read');
      expect((await platform.api(WHOAMI, cachedToken)).status).toBe(200);

      await platform.identity.kill();

      await expectError(await platform.requestToken(cached, 'wallet:read'), 503, {
        error: 'temporarily_unavailable',
        message: /unavailable; retry shortly/,
      });
      await expectError(await platform.api(WHOAMI, uncachedToken), 503, {
        code: 'SERVICE_UNAVAILABLE',
        message: /^a service Corridor depends on is unavailable; retry shortly$/,
      });
      await expectError(await platform.admin(`/admin/businesses/${business.id}`), 503, { code: 'SERVICE_UNAVAILABLE' });
      await expectError(await fetch(`${platform.publicUrl}/readyz`), 503, {
        code: 'NOT_READY',
        message: /identity unavailable/,
      });
      expect((await platform.api(WHOAMI, cachedToken)).status).toBe(200);

      await platform.restartIdentity();
      expect((await platform.requestToken(cached, 'wallet:read')).status).toBe(200);
      expect((await platform.api(WHOAMI, uncachedToken)).status).toBe(200);
    });
  });
});
