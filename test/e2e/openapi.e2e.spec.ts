import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { Platform, type Credentials } from '../support/platform.js';

type Schema = Record<string, unknown>;
interface DocumentedResponse {
  description: string;
  headers?: Record<string, { required?: boolean; schema: Schema }>;
  content?: Record<string, { schema: Schema }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, DocumentedResponse> }>>;
}

const WHOAMI = '/api/external/whoami';

// Strict: a schema with an unknown keyword or an unlisted required property fails to compile.
const ajv = new Ajv2020({ strict: true, allErrors: true });
formats.default(ajv);
// Header values are strings; coerce them to the documented type ("42" → 42) before validating.
const headerAjv = new Ajv2020({ strict: true, coerceTypes: true });
formats.default(headerAjv);

describe('the OpenAPI document describes the public API as it really answers', () => {
  const platform = Platform.shared();
  let served: Response;
  let document: OpenApiDocument;
  /** The document with every $ref replaced by what it points at. */
  let resolved: OpenApiDocument;
  const validators = new Map<Schema, ValidateFunction>();

  beforeAll(async () => {
    await platform.start();
    served = await fetch(`${platform.publicUrl}/api/external/openapi.json`);
    document = (await served.clone().json()) as OpenApiDocument;
    const validator = new Validator();
    await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);
    resolved = validator.resolveRefs() as unknown as OpenApiDocument;
  });
  afterAll(() => platform.stop());

  const documented = (method: string, path: string, status: number): DocumentedResponse => {
    const response = resolved.paths[path]?.[method]?.responses[String(status)];
    if (!response) throw new Error(`${method.toUpperCase()} ${path} does not document ${status}`);
    return response;
  };

  const bodySchema = (method: string, path: string, status: number): ValidateFunction => {
    const schema = documented(method, path, status).content?.['application/json']?.schema;
    if (!schema) throw new Error(`${method.toUpperCase()} ${path} ${status} documents no JSON body`);
    const validate = validators.get(schema) ?? ajv.compile(schema);
    validators.set(schema, validate);
    return validate;
  };

  /** Asserts status, media type, body and required headers match the document; returns the body. */
  async function expectDocumented(response: Response, method: string, path: string): Promise<Record<string, unknown>> {
    const { headers = {} } = documented(method, path, response.status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as Record<string, unknown>;
    const validate = bodySchema(method, path, response.status);
    expect({ body, errors: validate(body) ? [] : validate.errors }).toEqual({ body, errors: [] });

    for (const [name, header] of Object.entries(headers)) {
      const value = response.headers.get(name);
      if (value === null) {
        expect({ header: name, required: header.required ?? false }).toEqual({ header: name, required: false });
        continue;
      }
      const fits = headerAjv.validate({ type: 'object', properties: { value: header.schema } }, { value });
      expect({ header: name, value, fits }).toEqual({ header: name, value, fits: true });
    }
    return body;
  }

  async function businessWithCredentials(grant: { scopes?: string[] } = {}): Promise<Credentials> {
    const business = await platform.createBusiness(`OpenAPI ${Math.random().toString(16).slice(2, 8)}`);
    return platform.createCredentials(business.id, grant);
  }

  it('serves a valid OpenAPI 3.1 document at /api/external/openapi.json, without a token', async () => {
    expect(served.status).toBe(200);
    const result = await new Validator().validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    await expectDocumented(served, 'get', '/api/external/openapi.json');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining([WHOAMI, '/oauth/token']));
  });

  it('whoami with a token answers 200 with the documented body and rate-limit headers', async () => {
    const { token, businessId } = await platform.tokenFor(['customer:read']);
    const response = await platform.api(WHOAMI, token);
    expect(response.status).toBe(200);
    const body = await expectDocumented(response, 'get', WHOAMI);
    expect(body).toMatchObject({ data: { business_id: businessId, scopes: ['customer:read'] } });
    expect(response.headers.get('ratelimit-limit')).toBe('120');

    // The documented schema is strict enough to notice a body that drifts from it.
    const validate = bodySchema('get', WHOAMI, 200);
    expect(validate({ ...body, surprise: true })).toBe(false);
    expect(validate({ ...body, data: { ...(body.data as object), scopes: ['customer:everything'] } })).toBe(false);
  });

  it('whoami without a token answers 401 as documented', async () => {
    const response = await platform.api(WHOAMI, undefined);
    expect(response.status).toBe(401);
    const body = await expectDocumented(response, 'get', WHOAMI);
    expect(body).toMatchObject({ status: false, code: 'TOKEN_MISSING' });
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="corridor"');
  });

  it('whoami for a business whose API services were disabled answers 403 as documented', async () => {
    const { token, businessId } = await platform.tokenFor([]);
    const disable = await platform.admin(`/admin/businesses/${businessId}`, {
      method: 'PATCH',
      body: JSON.stringify({ api_enabled: false }),
    });
    expect(disable.status).toBe(200);
    const response = await platform.api(WHOAMI, token);
    expect(response.status).toBe(403);
    expect(await expectDocumented(response, 'get', WHOAMI)).toMatchObject({ status: false, code: 'API_DISABLED' });
  });

  it('a token request with valid credentials answers 200 with the documented token', async () => {
    const credentials = await businessWithCredentials();
    const response = await platform.requestToken(credentials, 'customer:read customer:write');
    expect(response.status).toBe(200);
    const body = await expectDocumented(response, 'post', '/oauth/token');
    expect(body).toMatchObject({ token_type: 'Bearer', scope: 'customer:read customer:write' });
  });

  it('a token request for a scope the credentials lack answers 400 invalid_scope as documented', async () => {
    const credentials = await businessWithCredentials({ scopes: ['customer:read'] });
    const response = await platform.requestToken(credentials, 'payout:create');
    expect(response.status).toBe(400);
    const body = await expectDocumented(response, 'post', '/oauth/token');
    expect(body).toMatchObject({ error: 'invalid_scope', status: false, code: 'INVALID_SCOPE' });
    expect(body.message).toBe(body.error_description);
  });

  it('a token request with a wrong secret answers 401 invalid_client as documented', async () => {
    const credentials = await businessWithCredentials();
    const response = await platform.requestToken({ ...credentials, client_secret: 'cs_test_wrong' }, 'customer:read');
    expect(response.status).toBe(401);
    const body = await expectDocumented(response, 'post', '/oauth/token');
    expect(body).toMatchObject({ error: 'invalid_client', status: false, code: 'INVALID_CLIENT' });
  });

  it('/docs is an HTML page whose scripts and styles all load from the gateway itself', async () => {
    const page = await fetch(`${platform.publicUrl}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);

    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map(([, url]) => url!);
    expect(assets).toEqual(
      expect.arrayContaining(['/docs/assets/swagger-ui.css', '/docs/assets/swagger-ui-bundle.js']),
    );
    for (const asset of assets) {
      const response = await fetch(`${platform.publicUrl}${asset}`);
      expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const css = await fetch(`${platform.publicUrl}/docs/assets/swagger-ui.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);

    const initializer = await (await fetch(`${platform.publicUrl}/docs/swagger-initializer.js`)).text();
    expect(initializer).toContain("url: '/api/external/openapi.json'");
    // The package's own demo page points at a remote API: not served.
    expect((await fetch(`${platform.publicUrl}/docs/assets/index.html`)).status).toBe(404);
  });
});
