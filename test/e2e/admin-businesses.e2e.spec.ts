import { EventCollector } from '@corridor/testing';
import { Platform } from '../support/platform.js';

describe('admin API: creating a business travels gateway → identity → PostgreSQL → Kafka', () => {
  const platform = new Platform();
  let events: EventCollector;

  beforeAll(async () => {
    await platform.start();
    events = await new EventCollector([platform.identityTopic]).start();
  });
  afterAll(async () => {
    await events?.stop();
    await platform.stop();
  });

  it('POST /admin/businesses returns 201 with the business, and business.created reaches Kafka', async () => {
    const response = await platform.admin('/admin/businesses', {
      method: 'POST',
      body: JSON.stringify({ name: 'Acme' }),
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      name: 'Acme',
      api_enabled: true,
      kyb_minimal_allowed: false,
      ip_allowlist: [],
      rate_limits: { per_minute: 120, per_hour: 1500 },
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('location')).toBe(`/admin/businesses/${String(body.id)}`);

    const [received] = await events.waitFor((e) => e.event.businessId === body.id);
    expect(received?.event.type).toBe('business.created');
    expect(received?.key).toBe(body.id);

    const read = await platform.admin(`/admin/businesses/${String(body.id)}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(body);
  });

  it('accepts the optional flags', async () => {
    const response = await platform.admin('/admin/businesses', {
      method: 'POST',
      body: JSON.stringify({ name: 'Initech', api_enabled: false, kyb_minimal_allowed: true }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ api_enabled: false, kyb_minimal_allowed: true });
  });

  describe('errors are JSON that names the problem, never HTML', () => {
    const expectError = async (response: Response, status: number, code: string, message: RegExp) => {
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('x-request-id')).toBeTruthy();
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ status: false, code });
      expect(String(body.message)).toMatch(message);
      return body;
    };

    it('401 without the admin token, and with a wrong one', async () => {
      await expectError(
        await fetch(`${platform.adminUrl}/admin/businesses`, { method: 'POST' }),
        401,
        'ADMIN_TOKEN_MISSING',
        /Authorization/,
      );
      await expectError(
        await fetch(`${platform.adminUrl}/admin/businesses/x`, { headers: { authorization: 'Bearer wrong' } }),
        401,
        'ADMIN_TOKEN_INVALID',
        /not valid/,
      );
    });

    it('422 naming each field: a missing name, a wrong type, an unknown field', async () => {
      const body = await expectError(
        await platform.admin('/admin/businesses', {
          method: 'POST',
          body: JSON.stringify({ api_enabled: 'yes', color: 'red' }),
        }),
        422,
        'VALIDATION_FAILED',
        /name|api_enabled|color/,
      );
      expect(body.errors).toEqual({
        name: ['is required and must be a string'],
        api_enabled: ['must be a boolean'],
        color: ['is not a recognised field'],
      });
    });

    it('422 for a name of only spaces: identity trims it and refuses it (decision 0021)', async () => {
      const body = await expectError(
        await platform.admin('/admin/businesses', { method: 'POST', body: JSON.stringify({ name: '   ' }) }),
        422,
        'VALIDATION_FAILED',
        /^name is required$/,
      );
      expect(body.errors).toEqual({ name: ['is required'] });
    });

    it('400 for malformed JSON, 415 for another content type, 413 for a huge body', async () => {
      await expectError(
        await platform.admin('/admin/businesses', { method: 'POST', body: '{"name": ' }),
        400,
        'MALFORMED_JSON',
        /not valid JSON/,
      );
      await expectError(
        await platform.admin('/admin/businesses', {
          method: 'POST',
          body: 'name=Acme',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        /application\/json/,
      );
      await expectError(
        await platform.admin('/admin/businesses', {
          method: 'POST',
          body: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
        }),
        413,
        'BODY_TOO_LARGE',
        /larger than/,
      );
    });

    it('404 for an unknown business and for unknown routes on both listeners', async () => {
      await expectError(
        await platform.admin('/admin/businesses/00000000-0000-4000-8000-000000000000'),
        404,
        'BUSINESS_NOT_FOUND',
        /not found/,
      );
      await expectError(
        await platform.admin('/admin/nothing-here'),
        404,
        'ROUTE_NOT_FOUND',
        /GET \/admin\/nothing-here/,
      );
      await expectError(await fetch(`${platform.publicUrl}/admin/businesses`), 404, 'ROUTE_NOT_FOUND', /no route/);
    });

    it('echoes a sane x-request-id and replaces an unsafe one', async () => {
      const echoed = await platform.admin('/admin/nothing', { headers: { 'x-request-id': 'req-123' } });
      expect(echoed.headers.get('x-request-id')).toBe('req-123');
      const replaced = await platform.admin('/admin/nothing', { headers: { 'x-request-id': 'bad id with spaces' } });
      expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('the admin OpenAPI document (decision 0021)', () => {
    it('is served on the admin listener with the admin token, and on no other listener or without it', async () => {
      const served = await platform.admin('/openapi.json');
      expect(served.status).toBe(200);
      const document = (await served.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
      expect(document.openapi).toMatch(/^3\.1\./);
      expect(Object.keys(document.paths['/admin/businesses'] ?? {})).toEqual(['post']);
      expect((await fetch(`${platform.adminUrl}/openapi.json`)).status).toBe(401);
      expect((await fetch(`${platform.publicUrl}/openapi.json`)).status).toBe(404);
      const publicDocument = (await (await fetch(`${platform.publicUrl}/api/external/openapi.json`)).json()) as {
        paths: Record<string, unknown>;
      };
      expect(Object.keys(publicDocument.paths).filter((path) => path.startsWith('/admin'))).toEqual([]);
    });

    it('a documented path asked with another method is 405 naming the ones it has', async () => {
      const response = await platform.admin('/admin/businesses', { method: 'DELETE' });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
    });
  });

  describe('health', () => {
    it('/healthz answers while the process lives; /readyz reports each dependency', async () => {
      expect((await fetch(`${platform.publicUrl}/healthz`)).status).toBe(200);
      const ready = await fetch(`${platform.publicUrl}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: true, dependencies: { redis: 'ok', identity: 'ok' } });
    });

    it('/readyz fails naming identity while identity is down, and recovers after it restarts', async () => {
      await platform.identity.kill('SIGTERM');
      const notReady = await fetch(`${platform.publicUrl}/readyz`);
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toMatchObject({
        status: false,
        code: 'NOT_READY',
        message: 'not ready: identity unavailable',
      });

      // A call that needs identity meanwhile: 503 in the error contract, nothing internal leaked.
      const during = await platform.admin('/admin/businesses', {
        method: 'POST',
        body: JSON.stringify({ name: 'Down Co' }),
      });
      expect(during.status).toBe(503);
      expect(await during.json()).toMatchObject({ status: false, code: 'SERVICE_UNAVAILABLE' });

      await platform.startIdentity();
      const { eventually } = await import('@corridor/testing');
      await eventually(async () => expect((await fetch(`${platform.publicUrl}/readyz`)).status).toBe(200), 15_000);
    });
  });
});
