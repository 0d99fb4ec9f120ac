import { Validator } from '@seriousme/openapi-schema-validator';
import { ALL_SCOPES, SCOPES } from '@corridor/scopes';
import type { MediaTypeObject, OperationObject, ResponseObject } from 'openapi3-ts/oas31';
import { PUBLIC_ROUTES } from '../public/routes.js';
import type { PublicRoute } from '../floor/route-context.js';
import { openApiDocument } from './document.js';
import { BOUNDARY_TEXT_PATTERN, HTTPS_URL_PATTERN } from '../floor/text-boundary.js';

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

  it('names its server (relative: the gateway serving it) and a license (issue 18: Redocly flagged both missing)', () => {
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(document.info.license?.name).toEqual(expect.any(String));
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
    // Described once (issue 31 part 4), not as a parameter of every operation.
    expect(document.info.description).toContain('x-corridor-api-key');
    expect(JSON.stringify(document.paths)).not.toContain('LegacyApiKey');
    expect(document.components?.parameters?.LegacyApiKey).toBeUndefined();
  });

  // Each is validated against its schema by Redocly's no-invalid-media-type-examples (document-lint.spec.ts).
  it('gives every body and answer an example, as "Try it out" sends (issue 31 part 4)', () => {
    const problems: string[] = [];
    for (const [path, item] of Object.entries(document.paths ?? {}) as [string, Record<string, OperationObject>][]) {
      for (const [method, op] of Object.entries(item)) {
        const body = op.requestBody && 'content' in op.requestBody ? op.requestBody.content : undefined;
        const media: [string, MediaTypeObject | undefined][] = [
          ['body', body?.['application/json']],
          ...Object.entries(op.responses ?? {}).map(([status, response]): [string, MediaTypeObject | undefined] => [
            status,
            resolve<ResponseObject>(response as ResponseObject).content?.['application/json'],
          ]),
        ];
        for (const [where, type] of media) {
          if (!type) continue;
          const at = `${method.toUpperCase()} ${path} ${where}`;
          if (type.example === undefined) problems.push(`${at}: no example`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('describes https URLs no wider than the routes take them: names and IPv4 hosts, never a user name or a space', () => {
    const url = new RegExp(HTTPS_URL_PATTERN, 'u');
    for (const taken of [
      'https://hooks.example.com/corridor',
      'https://203.0.113.7/hooks',
      'https://203.0.113.7:8443/hooks?x=1#y',
      'https://example.com/caf%C3%A9',
    ]) {
      expect({ taken, fits: url.test(taken) }).toEqual({ taken, fits: true });
    }
    for (const refused of [
      'http://example.com',
      'https://user:pw@example.com',
      'https://example.com/a b',
      'https://1.2.3',
      'https://256.1.1.1/',
      'https://[:]/',
      'https://example.com/caf\u00e9',
    ]) {
      expect({ refused, fits: url.test(refused) }).toEqual({ refused, fits: false });
    }
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
    // As the input boundary reads it: no key or free text with a control character.
    expect(op?.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: { ...upgrade.requestBody, propertyNames: { pattern: BOUNDARY_TEXT_PATTERN } },
          // Built from the schema, as the route declares no example of its own.
          example: { owners: [] },
        },
      },
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

  it('documents the Idempotency-Key on every POST: the header, Idempotent-Replayed, and its 400, 409 and 422', () => {
    const posts = authenticatedOperations.filter(({ method }) => method === 'post');
    expect(posts.length).toBeGreaterThan(0);
    for (const { path, op } of posts) {
      const where = `POST ${path}`;
      expect({ where, parameters: op.parameters }).toMatchObject({
        where,
        parameters: expect.arrayContaining([{ $ref: '#/components/parameters/IdempotencyKey' }]),
      });
      for (const [status, code] of [
        ['400', 'IDEMPOTENCY_KEY_INVALID'],
        ['409', 'IDEMPOTENCY_REQUEST_IN_FLIGHT'],
        ['422', 'IDEMPOTENCY_KEY_REUSED'],
      ] as const) {
        const response = resolve<ResponseObject>(op.responses?.[status]);
        expect({ where, status, description: response.description }).toEqual({
          where,
          status,
          description: expect.stringContaining(code),
        });
        expect(JSON.stringify(response.content)).toContain('#/components/schemas/Error');
      }
      for (const [status, response] of Object.entries(op.responses ?? {}).filter(([s]) => s.startsWith('2'))) {
        expect({ where, status, headers: Object.keys(resolve<ResponseObject>(response).headers ?? {}) }).toEqual({
          where,
          status,
          headers: expect.arrayContaining(['Idempotent-Replayed', 'RateLimit-Remaining', 'x-request-id']),
        });
      }
    }
    for (const { method, path, op } of authenticatedOperations.filter(({ method }) => method !== 'post')) {
      expect({ where: `${method} ${path}`, parameters: JSON.stringify(op.parameters) }).not.toEqual({
        where: `${method} ${path}`,
        parameters: expect.stringContaining('IdempotencyKey'),
      });
    }
    expect(document.components?.parameters?.IdempotencyKey).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  });

  it('keeps a POST’s own reasons for 409 and 422 beside the Idempotency-Key’s', () => {
    const register = operation('/api/external/webhook', 'post');
    const conflict = resolve<ResponseObject>(register?.responses?.['409']).description;
    expect(conflict).toMatch(/WEBHOOK_ALREADY_REGISTERED.*IDEMPOTENCY_REQUEST_IN_FLIGHT/s);
    const invalid = resolve<ResponseObject>(
      operation('/api/external/customer', 'post')?.responses?.['422'],
    ).description;
    expect(invalid).toMatch(/registration_number.*IDEMPOTENCY_KEY_REUSED/s);
  });

  describe('the customer API (decision 0008)', () => {
    /** Every public customer route: method, path (the seed's parameter names), scope, success status. */
    const CUSTOMER_ROUTES = [
      ['post', '/api/external/customer', 'customer:write', '201'],
      ['put', '/api/external/customer/{id}', 'customer:write', '200'],
      ['post', '/api/external/customer/{id}/kyc-data', 'customer:write', '200'],
      ['get', '/api/external/customer/{id}', 'customer:read', '200'],
      ['get', '/api/external/customer', 'customer:read', '200'],
      ['delete', '/api/external/customer/{customer}/owner/{owner}', 'customer:write', '200'],
      ['post', '/api/external/customer/{customer}/owner/{owner}/file/presigned-url', 'file:upload', '201'],
      ['post', '/api/external/customer/{id}/owner/{owner}/files', 'customer:write', '200'],
      ['post', '/api/external/customer/{customer}/document/presigned-url', 'file:upload', '201'],
      ['post', '/api/external/customer/{customer}/document', 'customer:write', '201'],
      ['put', '/api/external/customer/{customer}/document/{document}', 'customer:write', '200'],
      ['post', '/api/external/file/get-presigned-url', 'file:upload', '201'],
      ['post', '/api/external/customer/{id}/files', 'customer:write', '200'],
      ['post', '/api/external/customer/{customer}/submit', 'customer:write', '200'],
      ['post', '/api/external/customer/{customer}/upgrade-kyb-scope', 'customer:write', '200'],
    ] as const;

    it.each(CUSTOMER_ROUTES)('%s %s requires %s and answers %s with a JSON body', (method, path, scope, status) => {
      const op = operation(path, method);
      expect(op?.security).toEqual([{ oauth2: [scope] }]);
      expect(op?.description).toContain(scope);
      const success = resolve<ResponseObject>(op?.responses?.[status]);
      expect(success.content?.['application/json']?.schema).toBeDefined();
      expect(Object.keys(op?.responses ?? {}).filter((code) => code.startsWith('2'))).toEqual([status]);
      const route = PUBLIC_ROUTES.find((candidate) => candidate.path === path && candidate.method === method);
      expect(route?.scope).toBe(scope);
    });

    it('has no other customer or file route', () => {
      const documented = PUBLIC_ROUTES.filter((route) => /^\/api\/external\/(customer|file)\b/.test(route.path));
      expect(documented.map((route) => `${route.method} ${route.path}`).sort()).toEqual(
        CUSTOMER_ROUTES.map(([method, path]) => `${method} ${path}`).sort(),
      );
    });

    it('documents 400 where a lock applies and 422 where customer-kyb validates', () => {
      for (const [method, path] of [
        ['put', '/api/external/customer/{id}'],
        ['post', '/api/external/customer/{id}/kyc-data'],
        ['delete', '/api/external/customer/{customer}/owner/{owner}'],
        ['post', '/api/external/customer/{id}/owner/{owner}/files'],
        ['post', '/api/external/customer/{customer}/document'],
        ['put', '/api/external/customer/{customer}/document/{document}'],
        ['post', '/api/external/customer/{customer}/submit'],
        ['post', '/api/external/customer/{customer}/upgrade-kyb-scope'],
      ] as const) {
        expect(resolve<ResponseObject>(operation(path, method)?.responses?.['400']).description).toMatch(
          /LOCKED|ALREADY|PROCESSING/,
        );
      }
      for (const [method, path] of CUSTOMER_ROUTES.filter(([method]) => method !== 'delete')) {
        if (path === '/api/external/customer/{id}' && method === 'get') continue;
        expect(operation(path, method)?.responses?.['422']).toBeDefined();
      }
      expect(operation('/api/external/customer/{id}', 'get')?.responses?.['404']).toBeDefined();
      expect(operation('/api/external/customer', 'get')?.responses?.['404']).toBeUndefined();
    });

    /** A component schema, which the customer routes share. */
    const component = (name: string) =>
      document.components?.schemas?.[name] as Record<string, unknown> & {
        properties: Record<string, unknown>;
        required: string[];
      };

    it('answers closed customer shapes with every data field of the type (customer-kyb CustomerFieldValues)', () => {
      const both = ['country', 'street', 'city', 'state', 'zip_code', 'email', 'phone'];
      const individual = ['first_name', 'last_name', 'date_of_birth', 'id_type', 'id_number', ...both];
      const business = [
        ...['business_name', 'registration_number', 'incorporation_country', 'trading_name', 'business_type'],
        ...['incorporation_date', 'industry_type', 'business_description', 'website', 'source_of_funds'],
        ...['estimated_annual_revenue', 'expected_monthly_payments', 'account_purpose', 'operating_country'],
        ...['operating_street', 'operating_city', 'operating_state', 'operating_zip_code', ...both],
      ];
      const common = ['id', 'type', 'verification_status', 'created_at', 'updated_at', 'submitted_at'];
      for (const [name, fields] of [
        ['BusinessCustomer', [...common, 'kyb_scope', 'owners', 'documents', ...business]],
        ['IndividualCustomer', [...common, 'id_file', 'id_file_back', ...individual]],
      ] as const) {
        const schema = component(name);
        expect(schema.additionalProperties).toBe(false);
        expect(Object.keys(schema.properties).sort()).toEqual([...fields].sort());
        expect([...schema.required].sort()).toEqual([...fields].sort());
      }
      expect(component('Customer').oneOf).toEqual([
        { $ref: '#/components/schemas/BusinessCustomer' },
        { $ref: '#/components/schemas/IndividualCustomer' },
      ]);
    });

    it('answers closed owner, document, file and upload shapes; an owner has every seed 2.2 field', () => {
      const ownerFields = [
        ...['first_name', 'last_name', 'ownership_percentage', 'email', 'phone', 'date_of_birth', 'nationality'],
        ...['title', 'has_control', 'is_signer', 'is_beneficial_owner', 'street', 'city', 'state', 'zip_code'],
        ...['country', 'id_document_type', 'id_document_number', 'id_document_country', 'id_expiry_date', 'tin'],
        ...['is_pep', 'usa_tax_residency'],
      ];
      const owner = component('Owner');
      expect(Object.keys(owner.properties).sort()).toEqual(
        [
          ...ownerFields,
          ...['id', 'status', 'admin_comments', 'id_document_front', 'id_document_back', 'created_at', 'updated_at'],
        ].sort(),
      );
      for (const name of ['Owner', 'KybDocument', 'StoredFile', 'FileUpload']) {
        const schema = component(name);
        expect(schema.additionalProperties).toBe(false);
        expect([...schema.required].sort()).toEqual(Object.keys(schema.properties).sort());
      }
      expect(Object.keys(component('StoredFile').properties)).toEqual([
        'file_id',
        'content_type',
        'size_bytes',
        'uploaded_at',
      ]);
    });

    it('answers the list in three shapes: {message, data}, and cursor or numbered pages {data, links, meta}', () => {
      const list = resolve<ResponseObject>(operation('/api/external/customer', 'get')?.responses?.['200']);
      const [plain, cursor, paginated] = (
        list.content?.['application/json']?.schema as { anyOf: Record<string, unknown>[] }
      ).anyOf as {
        required: string[];
        additionalProperties: boolean;
        properties: Record<string, { required?: string[] }>;
      }[];
      expect(plain).toMatchObject({ required: ['message', 'data'], additionalProperties: false });
      for (const envelope of [cursor, paginated]) {
        expect(envelope).toMatchObject({ required: ['data', 'links', 'meta'], additionalProperties: false });
        expect(envelope?.properties.links?.required).toEqual(['first', 'last', 'prev', 'next']);
      }
      expect(cursor?.properties.meta?.required).toEqual(['path', 'per_page', 'next_cursor', 'prev_cursor']);
      expect(paginated?.properties.meta?.required).toEqual([
        'current_page',
        'from',
        'last_page',
        'links',
        'path',
        'per_page',
        'to',
        'total',
        'total_capped',
      ]);
    });

    it('declares every query parameter of the two lists, the page ones alike', () => {
      const names = (path: string) =>
        (operation(path, 'get')?.parameters ?? []).flatMap((parameter) =>
          'in' in parameter && parameter.in === 'query' ? [parameter.name] : [],
        );
      expect(names('/api/external/customer')).toEqual([
        'email',
        'id_number',
        'registration_number',
        'verification_status',
        'type',
        'paginate',
        'cursor',
        'per_page',
        'page',
      ]);
      expect(names('/api/external/webhook/deliveries')).toEqual([
        'status',
        'event',
        'from',
        'to',
        'cursor',
        'per_page',
        'page',
      ]);
    });
  });

  describe('the webhook API (decision 0009)', () => {
    const WEBHOOK_ROUTES = [
      ['post', '/api/external/webhook', 'webhook:write', '201', 'WebhookWithSecret', false],
      ['put', '/api/external/webhook/{id}', 'webhook:write', '200', 'WebhookWithSecret', true],
      ['get', '/api/external/webhook', 'webhook:read', '200', 'Webhook', true],
    ] as const;
    const component = (name: string) =>
      document.components?.schemas?.[name] as Record<string, unknown> & {
        properties: Record<string, Record<string, unknown>>;
        required: string[];
      };

    it.each(WEBHOOK_ROUTES)(
      '%s %s requires %s and answers %s with {message, data: %s}; 404 documented: %s',
      (method, path, scope, status, data, notFound) => {
        const op = operation(path, method);
        expect(op?.security).toEqual([{ oauth2: [scope] }]);
        expect(op?.description).toContain(scope);
        expect(Object.keys(op?.responses ?? {}).filter((code) => code.startsWith('2'))).toEqual([status]);
        const success = resolve<ResponseObject>(op?.responses?.[status]);
        expect(success.content?.['application/json']?.schema).toMatchObject({
          required: ['message', 'data'],
          additionalProperties: false,
          properties: { data: { $ref: `#/components/schemas/${data}` } },
        });
        expect(op?.responses?.['404'] !== undefined).toBe(notFound);
        const route = PUBLIC_ROUTES.find((candidate) => candidate.path === path && candidate.method === method);
        expect(route?.scope).toBe(scope);
      },
    );

    it('has no other webhook route than these, the deliveries and mock routes of decision 0010, listen’s of 0034, rotation’s of 0065 and enabling’s of 0068', () => {
      const DELIVERY_ROUTES = [
        ['get', '/api/external/webhook/deliveries', 'webhook:read'],
        ['get', '/api/external/webhook/deliveries/{id}', 'webhook:read'],
        ['post', '/api/external/webhook/deliveries/{id}/replay', 'webhook:replay'],
        ['post', '/api/external/webhook/deliveries/replay', 'webhook:replay'],
        ['post', '/api/external/webhook/mock', 'mock:webhook:trigger'],
        // corridor listen (decision 0034).
        ['get', '/api/external/webhook/listen', 'webhook:read'],
        ['post', '/api/external/webhook/deliveries/{id}/listen-attempts', 'webhook:read'],
        // Signing-secret rotation (decision 0065).
        ['post', '/api/external/webhook/{id}/signing-secret/rotate', 'webhook:write'],
        ['delete', '/api/external/webhook/{id}/signing-secret/previous', 'webhook:write'],
        // Endpoint health (decision 0068).
        ['post', '/api/external/webhook/{id}/endpoint/{kind}/enable', 'webhook:write'],
      ] as const;
      const documented = PUBLIC_ROUTES.filter((route) => /^\/api\/external\/webhook\b/.test(route.path));
      expect(documented.map((route) => `${route.method} ${route.path} ${route.scope}`).sort()).toEqual(
        [...WEBHOOK_ROUTES, ...DELIVERY_ROUTES].map(([method, path, scope]) => `${method} ${path} ${scope}`).sort(),
      );
    });

    it('documents 409 on POST only, and 422 where notification validates the URLs', () => {
      expect(
        resolve<ResponseObject>(operation('/api/external/webhook', 'post')?.responses?.['409']).description,
      ).toMatch(/WEBHOOK_ALREADY_REGISTERED/);
      expect(operation('/api/external/webhook/{id}', 'put')?.responses?.['409']).toBeUndefined();
      for (const [method, path] of [
        ['post', '/api/external/webhook'],
        ['put', '/api/external/webhook/{id}'],
      ] as const) {
        expect(resolve<ResponseObject>(operation(path, method)?.responses?.['422']).description).toMatch(/https/);
      }
      expect(operation('/api/external/webhook', 'get')?.requestBody).toBeUndefined();
    });

    it('documents the bodies: https URIs of at most 2048 characters, kyc_url nullable, nothing else', () => {
      const bodyOf = (method: string, path: string) => {
        const body = operation(path, method)?.requestBody;
        return (body && 'content' in body ? body.content['application/json']?.schema : undefined) as {
          required?: string[];
          additionalProperties: boolean;
          properties: Record<string, Record<string, unknown>>;
        };
      };
      const post = bodyOf('post', '/api/external/webhook');
      const put = bodyOf('put', '/api/external/webhook/{id}');
      expect(post.required).toEqual(['collection_url', 'payout_url']);
      expect(put.required).toBeUndefined();
      for (const body of [post, put]) {
        expect(body.additionalProperties).toBe(false);
        expect(Object.keys(body.properties)).toEqual(['collection_url', 'payout_url', 'kyc_url']);
        for (const url of Object.values(body.properties)) {
          expect(url).toMatchObject({ format: 'uri', pattern: HTTPS_URL_PATTERN, maxLength: 2048 });
        }
        expect(body.properties.collection_url?.type).toBe('string');
        expect(body.properties.payout_url?.type).toBe('string');
        expect(body.properties.kyc_url?.type).toEqual(['string', 'null']);
      }
    });

    it('answers closed registrations; only the POST and PUT answer carries the signing secret', () => {
      const fields = [
        ...['id', 'collection_url', 'payout_url', 'kyc_url', 'signing_secret_last4', 'created_at', 'updated_at'],
      ];
      // GET's answer adds each URL's health (decision 0068), left out while notification cannot tell.
      for (const [name, expected, optional] of [
        ['Webhook', fields, ['url_health']],
        ['WebhookWithSecret', [...fields, 'signing_secret'], []],
      ] as const) {
        const schema = component(name);
        expect(schema.additionalProperties).toBe(false);
        expect(Object.keys(schema.properties).sort()).toEqual([...expected, ...optional].sort());
        expect([...schema.required].sort()).toEqual([...expected].sort());
        expect(schema.properties.kyc_url?.type).toEqual(['string', 'null']);
      }
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
