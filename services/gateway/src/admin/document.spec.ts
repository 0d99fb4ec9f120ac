import { Validator } from '@seriousme/openapi-schema-validator';
import type { OperationObject, ReferenceObject, ResponseObject } from 'openapi3-ts/oas31';
import { openApiDocument } from '../openapi/document.js';
import { adminOpenApiDocument } from './document.js';
import { ADMIN_ROUTES } from './routes.js';
import type { AdminRoute } from '../floor/route-context.js';

const document = adminOpenApiDocument();

const operation = (path: string, method: string): OperationObject | undefined =>
  (document.paths?.[path] as Record<string, OperationObject> | undefined)?.[method];

const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  Object.entries(item as Record<string, OperationObject>).map(([method, op]) => ({ path, method, op })),
);

/** A response as the document answers it: a shared one followed to components.responses. */
function resolved(response: ResponseObject | ReferenceObject | undefined): ResponseObject | undefined {
  if (!response || !('$ref' in response)) return response;
  return document.components?.responses?.[response.$ref.split('/').pop() ?? ''] as ResponseObject | undefined;
}

describe('the admin OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.servers).toEqual([{ url: '/', description: expect.stringMatching(/admin listener/) }]);
  });

  it('lists every route of the table at its path and method, with each of its own responses', () => {
    expect(ADMIN_ROUTES.length).toBeGreaterThanOrEqual(22);
    for (const route of ADMIN_ROUTES) {
      const op = operation(route.path, route.method);
      expect(op).toMatchObject({ operationId: route.operationId, summary: route.summary });
      for (const [status, own] of Object.entries(route.responses)) {
        expect([route.operationId, status, op?.responses?.[status]]).toEqual([
          route.operationId,
          status,
          expect.objectContaining({ description: own.description }),
        ]);
      }
    }
    // Besides the table: the liveness probe and this document.
    expect(operations).toHaveLength(ADMIN_ROUTES.length + 2);
  });

  it('secures every operation but /healthz with the admin token, and answers its 401 with the admin codes', () => {
    for (const { path, method, op } of operations.filter(({ path }) => path !== '/healthz')) {
      expect([method, path, op.security]).toEqual([method, path, [{ adminToken: [] }]]);
      const unauthorized = JSON.stringify(resolved(op.responses?.['401'])?.content);
      expect(unauthorized).toContain('ADMIN_TOKEN_MISSING');
      expect(unauthorized).toContain('ADMIN_TOKEN_INVALID');
    }
    expect(operation('/healthz', 'get')?.security).toEqual([]);
    expect(document.components?.securitySchemes).toEqual({ adminToken: expect.objectContaining({ scheme: 'bearer' }) });
  });

  it('has none of the public API’s scopes, rate limits or Idempotency-Key', () => {
    const text = JSON.stringify(document);
    for (const publicOnly of ['oauth2', 'RateLimit-', 'Idempotency-Key', 'x-corridor-api-key', 'RATE_LIMITER']) {
      expect(text).not.toContain(publicOnly);
    }
    for (const { op } of operations)
      expect(Object.keys(op.responses ?? {})).not.toEqual(expect.arrayContaining(['403']));
  });

  it('documents 500, 503 and 504 on every route, and its own 404 wherever its path names a resource', () => {
    for (const route of ADMIN_ROUTES) {
      const responses = operation(route.path, route.method)?.responses ?? {};
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['401', '500', '503', '504']));
      // The public NotFound speaks of "this business"; an admin route names what it does not find.
      if (route.path.includes('{')) {
        expect([route.operationId, route.responses[404]?.description]).toEqual([
          route.operationId,
          expect.stringMatching(/\([A-Z_]+_NOT_FOUND\)/),
        ]);
      }
    }
  });

  it('documents the body exactly where a route reads one, with 400, 413 and 415', () => {
    for (const route of ADMIN_ROUTES) {
      const op = operation(route.path, route.method);
      expect([route.operationId, op?.requestBody !== undefined]).toEqual([
        route.operationId,
        route.requestBody !== undefined,
      ]);
      if (route.requestBody)
        expect(Object.keys(op?.responses ?? {})).toEqual(expect.arrayContaining(['400', '413', '415']));
    }
    // Rotation without a body keeps the scopes the credentials have.
    expect(operation('/admin/credentials/{clientId}/rotate', 'post')?.requestBody).toMatchObject({ required: false });
  });

  it('closes every request body: an unknown field is refused, as readBody refuses it', () => {
    const open = ADMIN_ROUTES.filter(
      (route: AdminRoute) => route.requestBody && route.requestBody.additionalProperties !== false,
    );
    expect(open.map((route) => route.operationId)).toEqual([]);
  });

  it('states the owning service’s rules it does not check itself (decision 0021)', () => {
    const body = (path: string, method: string) => {
      const requestBody = operation(path, method)?.requestBody;
      return requestBody && 'content' in requestBody ? requestBody.content['application/json']?.schema : undefined;
    };
    expect(body('/admin/businesses', 'post')).toMatchObject({ properties: { name: { maxLength: 200 } } });
    expect(body('/admin/businesses/{id}/spread', 'put')).toMatchObject({
      properties: { spread_bps: { maximum: 5000 } },
    });
    expect(body('/admin/businesses/{id}/wallets/{currency}/adjustments', 'post')).toMatchObject({
      properties: { amount: { minimum: 1 }, reason: { maxLength: 500 } },
    });
  });

  it('is served on the admin listener only: the public document has no admin path', () => {
    const publicPaths = Object.keys(openApiDocument({ tokenRequestsPerMinute: 30 }).paths ?? {});
    expect(publicPaths.filter((path) => path.startsWith('/admin') || path === '/openapi.json')).toEqual([]);
  });
});
