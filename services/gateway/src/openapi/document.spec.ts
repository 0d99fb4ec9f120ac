import { Validator } from '@seriousme/openapi-schema-validator';
import { ALL_SCOPES, SCOPES } from '@corridor/scopes';
import type { OperationObject, ResponseObject } from 'openapi3-ts/oas31';
import { PUBLIC_ROUTES, type PublicRoute } from '../public/routes.js';
import { openApiDocument } from './document.js';

const options = { tokenRequestsPerMinute: 30 };
const document = openApiDocument(options);

const operation = (path: string, method: string): OperationObject | undefined =>
  (document.paths?.[path] as Record<string, OperationObject> | undefined)?.[method];

/** Every operation that needs an access token, with where it lives. */
const authenticatedOperations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  Object.entries(item as Record<string, OperationObject>)
    .filter(([, op]) => op.security?.some((requirement) => 'oauth2' in requirement))
    .map(([method, op]) => ({ path, method, op })),
);

/** Follows a #/components/... pointer into the document. */
function resolve<T>(node: T | { $ref: string }): T {
  if (typeof node !== 'object' || node === null || !('$ref' in node)) return node;
  const target = node.$ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], document);
  return target as T;
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toMatch(/^3\.1\./);
  });

  it('is rejected by the same validator once a response loses its description (the check above can fail)', async () => {
    const broken = structuredClone(document) as unknown as {
      paths: Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>>;
    };
    delete broken.paths['/oauth/token']!.post!.responses['200']!.description;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('lists every public route at its path and method, secured by OAuth with the scope it requires', () => {
    expect(PUBLIC_ROUTES.length).toBeGreaterThan(0);
    for (const route of PUBLIC_ROUTES) {
      const op = operation(route.path, route.method);
      expect(op).toMatchObject({ operationId: route.operationId, summary: route.summary });
      expect(op?.security).toEqual([{ oauth2: route.scope ? [route.scope] : [] }]);
      if (route.scope) expect(op?.description).toContain(route.scope);
    }
    expect(authenticatedOperations).toHaveLength(PUBLIC_ROUTES.length);
  });

  it('gives every operation its own operationId, as client generators need', () => {
    const ids = Object.values(document.paths ?? {}).flatMap((item) =>
      Object.values(item as Record<string, OperationObject>).map((op) => op.operationId),
    );
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('offers every scope with what it allows in an OAuth client-credentials flow at /oauth/token', () => {
    const scheme = document.components?.securitySchemes?.oauth2;
    expect(scheme).toMatchObject({ type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth/token' } } });
    const scopes = (scheme as { flows: { clientCredentials: { scopes: Record<string, string> } } }).flows
      .clientCredentials.scopes;
    expect(Object.keys(scopes)).toEqual(ALL_SCOPES);
    for (const scope of ALL_SCOPES) expect(scopes[scope]).toBe(SCOPES[scope]);
  });

  it('documents 401, 403, 429, 500, 503 and 504 with the Error body on every authenticated operation', () => {
    const undocumented = authenticatedOperations.flatMap(({ path, method, op }) =>
      ['401', '403', '429', '500', '503', '504']
        .filter((status) => {
          const response = op.responses?.[status] ? resolve<ResponseObject>(op.responses[status]) : undefined;
          const schema = JSON.stringify(response?.content?.['application/json']?.schema ?? null);
          return !response?.headers?.['x-request-id'] || !schema.includes('#/components/schemas/Error');
        })
        .map((status) => `${method.toUpperCase()} ${path} ${status}`),
    );
    expect(authenticatedOperations.length).toBeGreaterThan(0);
    expect(undocumented).toEqual([]);
    for (const { op } of authenticatedOperations) {
      const tooMany = resolve<ResponseObject>(op.responses?.['429']);
      expect(Object.keys(tooMany.headers ?? {})).toEqual(
        expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
      );
    }
  });

  it('lists every code the gateway answers 401 with, the legacy API key included', () => {
    const unauthorized = resolve<ResponseObject>(document.components?.responses?.Unauthorized ?? { $ref: '' });
    expect(JSON.stringify(unauthorized.content)).toContain('LEGACY_API_KEY_DEPRECATED');
    expect(JSON.stringify(unauthorized.content)).toContain('TOKEN_REVOKED');
    expect(document.components?.parameters?.LegacyApiKey).toMatchObject({
      name: 'x-corridor-api-key',
      deprecated: true,
    });
  });

  it('documents a route added to the table with its body, path parameters and the errors they bring', () => {
    const upgrade: PublicRoute = {
      method: 'post',
      path: '/api/external/customer/{customer}/upgrade-kyb-scope',
      scope: 'customer:write',
      operationId: 'upgradeKybScope',
      summary: 'Upgrade a business customer from MINIMAL to FULL KYB',
      requestBody: { type: 'object', required: ['owners'], properties: { owners: { type: 'array' } } },
      responses: {
        200: { description: 'the upgraded customer', schema: { type: 'object' } },
        409: { description: 'the registration number is taken' },
      },
      handle: async () => undefined,
    };
    const op = openApiDocument(options, [upgrade]).paths?.[upgrade.path]?.post;
    expect(op?.security).toEqual([{ oauth2: ['customer:write'] }]);
    expect(op?.parameters).toContainEqual({ name: 'customer', in: 'path', required: true, schema: { type: 'string' } });
    expect(op?.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: upgrade.requestBody } },
    });
    expect(Object.keys(op?.responses ?? {}).sort()).toEqual(
      ['200', '400', '401', '403', '404', '409', '413', '415', '422', '429', '500', '503', '504'].sort(),
    );
    expect(op?.responses?.['200']).toMatchObject({
      content: { 'application/json': { schema: { type: 'object' } } },
      headers: { 'RateLimit-Remaining': { $ref: '#/components/headers/RateLimitRemaining' } },
    });
    expect(op?.responses?.['409']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
  });

  it('documents the routes that need no token, without OAuth security', () => {
    for (const [path, method] of [
      ['/oauth/token', 'post'],
      ['/healthz', 'get'],
      ['/readyz', 'get'],
      ['/api/external/openapi.json', 'get'],
    ] as const) {
      const op = operation(path, method);
      expect(op).toBeDefined();
      expect(JSON.stringify(op?.security)).not.toContain('oauth2');
    }
    const token = operation('/oauth/token', 'post');
    expect(Object.keys(token?.requestBody && 'content' in token.requestBody ? token.requestBody.content : {})).toEqual([
      'application/x-www-form-urlencoded',
    ]);
    expect(Object.keys(token?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '415', '429', '503']),
    );
  });

  it('says how many token requests a client may make, from the configuration', () => {
    expect(operation('/oauth/token', 'post')?.description).toContain('At most 30 requests per minute');
    expect(openApiDocument({ tokenRequestsPerMinute: 7 }).info.description).toContain('7 per minute');
  });
});
