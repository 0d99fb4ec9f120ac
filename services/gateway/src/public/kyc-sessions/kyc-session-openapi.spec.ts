import type { OperationObject, ResponseObject, SchemaObject } from 'openapi3-ts/oas31';
import { openApiDocument } from '../../openapi/document.js';
import { HTTPS_URL_PATTERN } from '../../floor/text-boundary.js';
import { kycSessionJson } from '../../../test/public/kyc-sessions/kyc-session.fixtures.js';

/** The KYC session routes in the public OpenAPI document (decision 0016). */
describe('the OpenAPI document of the KYC session routes', () => {
  const document = openApiDocument({ tokenRequestsPerMinute: 30 });
  const path = '/api/external/kyc-session';
  const operation = (at: string, method: string) =>
    (document.paths?.[at] as Record<string, OperationObject> | undefined)?.[method];
  const described = (at: string, method: string, status: string) =>
    (operation(at, method)?.responses?.[status] as ResponseObject | undefined)?.description ?? '';

  it.each([
    ['post', path, ['201', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503', '504']],
    // 400 and 422 on a GET: the input boundary refuses a query that is not UTF-8 or holds a control.
    ['get', path, ['200', '400', '401', '403', '422', '429', '500', '503', '504']],
    ['get', `${path}/{id}`, ['200', '400', '401', '403', '404', '422', '429', '500', '503', '504']],
    ['post', `${path}/{id}/cancel`, ['200', '400', '401', '403', '404', '409', '422', '429', '500', '503', '504']],
  ])('documents every status %s %s can answer', (method, at, statuses) => {
    expect(Object.keys(operation(at, method)?.responses ?? {}).sort()).toEqual([...statuses].sort());
  });

  it('names the refusals of customer-kyb in the descriptions', () => {
    const CODES: [string, string, string, string[]][] = [
      ['post', path, '422', ['VALIDATION_FAILED', 'customer_id', 'KYC_REFERENCE_REJECTED', 'IDEMPOTENCY_KEY_REUSED']],
      ['get', path, '422', ['VALIDATION_FAILED', 'PENDING, PROCESSING, COMPLETED, EXPIRED, CANCELLED']],
      ['get', `${path}/{id}`, '404', ['KYC_SESSION_NOT_FOUND']],
      ['post', `${path}/{id}/cancel`, '404', ['KYC_SESSION_NOT_FOUND']],
      ['post', `${path}/{id}/cancel`, '400', ['KYC_SESSION_NOT_OPEN', 'IDEMPOTENCY_KEY_INVALID']],
    ];
    for (const [method, at, status, codes] of CODES) {
      for (const code of codes) expect(`${method} ${at} ${status}: ${described(at, method, status)}`).toContain(code);
    }
  });

  it('documents the body: reference 1 to 255, a non-empty set of requirements, an https redirect_url of at most 2048', () => {
    const body = (operation(path, 'post')?.requestBody as { content: Record<string, { schema: SchemaObject }> })
      .content['application/json']?.schema;
    expect(body).toMatchObject({
      additionalProperties: false,
      required: ['customer_reference', 'requirements'],
      properties: {
        customer_reference: { type: 'string', minLength: 1, maxLength: 255 },
        requirements: { type: 'array', minItems: 1, uniqueItems: true },
        customer_id: { type: 'string', format: 'uuid' },
        redirect_url: { type: 'string', pattern: HTTPS_URL_PATTERN, maxLength: 2048 },
      },
    });
  });

  it('documents the list’s filters, per_page 1..100 defaulting to 15', () => {
    const parameters = (operation(path, 'get')?.parameters ?? []) as { name?: string; schema?: SchemaObject }[];
    expect(parameters.map((parameter) => parameter.name).slice(0, 5)).toEqual([
      'customer_reference',
      'status',
      'customer_id',
      'cursor',
      'per_page',
    ]);
    expect(parameters[4]?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 15 });
  });

  it('documents the session closed, every key required (null when absent) and no token among them', () => {
    const session = document.components?.schemas?.KycSession as SchemaObject;
    const keys = Object.keys(kycSessionJson('https://api.example'));
    expect(session.additionalProperties).toBe(false);
    expect(Object.keys(session.properties ?? {})).toEqual(keys);
    expect([...(session.required ?? [])].sort()).toEqual([...keys].sort());
    expect(keys).not.toContain('verification_token');
    expect(session.properties?.captures).toMatchObject({ items: { $ref: '#/components/schemas/KycCapture' } });
    const created = (operation(path, 'post')?.responses?.['201'] as ResponseObject).content?.['application/json'];
    expect(created?.schema).toMatchObject({ properties: { data: { $ref: '#/components/schemas/KycSession' } } });
  });
});
