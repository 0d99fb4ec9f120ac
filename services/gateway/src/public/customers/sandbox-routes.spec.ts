import { CustomerType, KybScope, VerificationStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { failedPrecondition, invalidArgument, notFound, permissionDenied } from '@corridor/grpc';
import type { OperationObject } from 'openapi3-ts/oas31';
import { openApiDocument } from '../../openapi/document.js';
import { routesUnderTest } from '../../../test/public/route-harness.js';
import { serveRoutes } from '../../../test/public/route-harness.js';
import { BUSINESS_ID, businessCustomer, CUSTOMER_ID } from '../../../test/public/customers/customer.fixtures.js';
import { startFakeCustomerService } from '../../../test/public/customers/fake-customer-service.js';
import { customerJson } from './render.js';
import { SANDBOX_CUSTOMER_ROUTES } from './sandbox-routes.js';

/** The sandbox's customer shortcuts (issue 31, decision 0031) against a fake customer-kyb on loopback. */
describe('the sandbox customer routes', () => {
  const customers = routesUnderTest(startFakeCustomerService, (service) =>
    serveRoutes(
      SANDBOX_CUSTOMER_ROUTES,
      { businessId: BUSINESS_ID, scopes: ['customer:write'] },
      {
        customer: service.client,
      },
    ),
  );
  const CREATE = '/api/external/sandbox/customer';
  const REVIEW = `/api/external/sandbox/customer/${CUSTOMER_ID}/review`;
  const verified = () => businessCustomer({ verificationStatus: VerificationStatus.VERIFIED });

  it('both require customer:write', () => {
    expect(SANDBOX_CUSTOMER_ROUTES.map((route) => [route.method, route.path, route.scope])).toEqual([
      ['post', '/api/external/sandbox/customer', 'customer:write'],
      ['post', '/api/external/sandbox/customer/{id}/review', 'customer:write'],
    ]);
  });

  it('POST /sandbox/customer with no body asks customer-kyb for a VERIFIED customer of the defaults, and answers 201 with it and its Location', async () => {
    customers.answers.set('sandboxCreateCustomer', () => ({ customer: verified() }));
    const response = await fetch(`${customers.base}${CREATE}`, { method: 'POST' });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`/api/external/customer/${CUSTOMER_ID}`);
    expect(await response.json()).toEqual({ message: 'customer created', data: customerJson(verified()) });
    expect(customers.calls).toHaveLength(1);
    expect(customers.calls[0]).toMatchObject({
      method: 'sandboxCreateCustomer',
      request: { verificationStatus: VerificationStatus.VERIFIED, customer: { nullFields: [] } },
      caller: { businessId: BUSINESS_ID, environment: 'sandbox' },
    });
  });

  it('passes POST /customer’s fields as the typed body and verification_status as the verdict', async () => {
    const response = await customers.call('post', CREATE, {
      type: 'business',
      kyb_scope: 'MINIMAL',
      business_name: 'Adaeze Textiles Ltd',
      website: null,
      verification_status: 'REJECTED',
    });
    expect(response.status).toBe(201);
    expect(customers.calls[0]).toMatchObject({
      request: {
        verificationStatus: VerificationStatus.REJECTED,
        customer: {
          type: CustomerType.BUSINESS,
          kybScope: KybScope.MINIMAL,
          businessName: 'Adaeze Textiles Ltd',
          nullFields: ['website'],
        },
      },
    });
  });

  it.each([
    [{ verification_status: 'PENDING' }, ['verification_status']],
    [{ verification_status: 'VERIFIED', type: 'partnership' }, ['type']],
    [{ verification_status: 'verified', website: 7, colour: 'red' }, ['verification_status', 'website', 'colour']],
    [[], ['(body)']],
  ])(
    'POST /sandbox/customer with %j is 422 naming %j, every problem at once, customer-kyb not asked',
    async (body, fields) => {
      const response = await customers.call('post', CREATE, body);
      expect(response).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED' } });
      expect(Object.keys(response.body.errors as object).sort()).toEqual([...fields].sort());
      expect(customers.calls).toHaveLength(0);
    },
  );

  it('POST /sandbox/customer/{id}/review asks for the verdict with its comment and answers 200 with the customer', async () => {
    customers.answers.set('sandboxReviewCustomer', () => ({ customer: verified() }));
    const response = await customers.call('post', REVIEW, { verdict: 'VERIFIED', comment: 'Looks good' });
    expect(response).toEqual({ status: 200, body: { message: 'customer reviewed', data: customerJson(verified()) } });
    expect(customers.calls[0]).toMatchObject({
      method: 'sandboxReviewCustomer',
      request: { customerId: CUSTOMER_ID, verdict: VerificationStatus.VERIFIED, comment: 'Looks good' },
      caller: { businessId: BUSINESS_ID },
    });
    await customers.call('post', REVIEW, { verdict: 'REJECTED' });
    expect(customers.calls[1]).toMatchObject({ request: { verdict: VerificationStatus.REJECTED } });
    expect((customers.calls[1] as { request: { comment?: string } }).request.comment).toBeUndefined();
  });

  it.each([
    [undefined, ['(body)']],
    [{}, ['verdict']],
    [{ verdict: 'APPROVED', comment: 5, status: 'x' }, ['verdict', 'comment', 'status']],
  ])('a review of %j is 422 naming %j, customer-kyb not asked', async (body, fields) => {
    const response = await customers.call('post', REVIEW, body);
    expect(response).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED' } });
    expect(Object.keys(response.body.errors as object).sort()).toEqual([...fields].sort());
    expect(customers.calls).toHaveLength(0);
  });

  it.each([
    ['sandboxCreateCustomer', CREATE, permissionDenied('SANDBOX_ONLY', 'this is a sandbox simulation'), 403],
    ['sandboxReviewCustomer', REVIEW, permissionDenied('SANDBOX_ONLY', 'this is a sandbox simulation'), 403],
    ['sandboxReviewCustomer', REVIEW, notFound('CUSTOMER_NOT_FOUND', `customer ${CUSTOMER_ID} not found`), 404],
    [
      'sandboxReviewCustomer',
      REVIEW,
      failedPrecondition('NOT_UNDER_REVIEW', 'customer is PENDING; only a PROCESSING customer is reviewed'),
      400,
    ],
    [
      'sandboxCreateCustomer',
      CREATE,
      invalidArgument('kyb_scope MINIMAL is not available', { kyb_scope: ['MINIMAL is not available'] }),
      422,
    ],
  ])('%s: customer-kyb’s %s is %s', async (method, path, error, status) => {
    customers.answers.set(method, () => {
      throw error;
    });
    const response = await customers.call('post', path, path === CREATE ? {} : { verdict: 'VERIFIED' });
    expect(response).toMatchObject({ status, body: { status: false, code: error.reason, message: error.message } });
  });
});

describe('the sandbox customer routes in the OpenAPI document', () => {
  const document = openApiDocument({ tokenRequestsPerMinute: 30 });
  const operation = (path: string) =>
    (document.paths?.[path] as Record<string, OperationObject> | undefined)?.post as OperationObject;

  it.each([
    ['/api/external/sandbox/customer', 'sandboxCreateCustomer', false, '201'],
    ['/api/external/sandbox/customer/{id}/review', 'sandboxReviewCustomer', true, '200'],
  ])(
    '%s is documented with customer:write, its body with an example, its success with an example and 403 SANDBOX_ONLY',
    (path, id, required, success) => {
      const op = operation(path);
      expect(op).toMatchObject({ operationId: id, security: [{ oauth2: ['customer:write'] }] });
      const body = op.requestBody as {
        required: boolean;
        content: Record<string, { schema: { examples?: unknown[] } }>;
      };
      expect(body.required).toBe(required);
      expect(body.content['application/json']?.schema.examples?.length).toBeGreaterThan(0);
      const answer = op.responses?.[success] as { content: Record<string, { schema: { examples?: unknown[] } }> };
      expect(answer.content['application/json']?.schema.examples?.length).toBe(1);
      expect(op.responses?.['403']?.description).toMatch(/SANDBOX_ONLY/);
    },
  );
});
