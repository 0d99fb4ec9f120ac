import type { DescMessage } from '@bufbuild/protobuf';
import {
  CustomerFilesInputSchema,
  CustomerInputSchema,
  DocumentInputSchema,
  DocumentUploadInputSchema,
  FileUploadInputSchema,
  OwnerFileInputSchema,
  OwnerFileUploadInputSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_input_pb';
import { CustomerType, VerificationStatus } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { DomainError, failedPrecondition, invalidArgument, Status } from '@corridor/grpc';
import { jsonOfInput } from '@corridor/testing';
import type { ResponseObject } from 'openapi3-ts/oas31';
import { openApiDocument } from '../../openapi/document.js';
import { serveRoutes } from '../../../test/public/route-harness.js';
import {
  BUSINESS_ID,
  businessCustomer,
  CUSTOMER_ID,
  DOCUMENT_ID,
  OWNER_ID,
} from '../../../test/public/customers/customer.fixtures.js';
import { startFakeCustomerService } from '../../../test/public/customers/fake-customer-service.js';
import { CUSTOMER_API_ROUTES } from './index.js';
import { CUSTOMER_INPUT_WORDS } from '@corridor/contracts/customer-words';

/**
 * The customer routes' handlers against customer-kyb over real gRPC (a fake service on loopback).
 * Authentication and scopes are the public router's and have their own suites; here every request
 * is a caller of BUSINESS_ID.
 */
describe('the customer routes (decision 0008)', () => {
  let service: Awaited<ReturnType<typeof startFakeCustomerService>>;
  let routes: Awaited<ReturnType<typeof serveRoutes>>;
  let base: string;

  beforeAll(async () => {
    service = await startFakeCustomerService();
    routes = await serveRoutes(
      CUSTOMER_API_ROUTES,
      { businessId: BUSINESS_ID, scopes: ['customer:read', 'customer:write', 'file:upload'] },
      {
        customer: service.client,
      },
    );
    base = routes.base;
  });
  afterAll(async () => {
    await routes.close();
    await service.stop();
  });
  beforeEach(() => {
    service.calls.length = 0;
    service.answers.clear();
  });

  const call = (...args: Parameters<typeof routes.call>) => routes.call(...args);

  const C = `/api/external/customer/${CUSTOMER_ID}`;
  const cases = [
    [
      'createCustomer',
      'post',
      '/api/external/customer',
      { type: 'business', website: null },
      {},
      201,
      'customer created',
    ],
    ['updateCustomer', 'put', C, { website: null }, { customerId: CUSTOMER_ID }, 200, 'customer updated'],
    [
      'updateKycData',
      'post',
      `${C}/kyc-data`,
      { trading_name: 'Acme' },
      { customerId: CUSTOMER_ID },
      200,
      'kyc data updated',
    ],
    ['getCustomer', 'get', C, undefined, { customerId: CUSTOMER_ID }, 200, 'customer retrieved'],
    [
      'removeOwner',
      'delete',
      `${C}/owner/${OWNER_ID}`,
      undefined,
      { customerId: CUSTOMER_ID, ownerId: OWNER_ID },
      200,
      'owner removed',
    ],
    [
      'createOwnerFileUpload',
      'post',
      `${C}/owner/${OWNER_ID}/file/presigned-url`,
      { slot: 'id_document_front', content_type: 'image/png', content_length: 1234 },
      { customerId: CUSTOMER_ID, ownerId: OWNER_ID },
      201,
      'upload url created',
    ],
    [
      'attachOwnerFile',
      'post',
      `${C}/owner/${OWNER_ID}/files`,
      { slot: 'id_document_front', file_id: 'f-1' },
      { customerId: CUSTOMER_ID, ownerId: OWNER_ID },
      200,
      'owner file attached',
    ],
    [
      'createDocumentUpload',
      'post',
      `${C}/document/presigned-url`,
      { content_type: 'application/pdf', content_length: 99 },
      { customerId: CUSTOMER_ID },
      201,
      'upload url created',
    ],
    [
      'registerDocument',
      'post',
      `${C}/document`,
      { type: 'OTHER', file_id: 'f-2' },
      { customerId: CUSTOMER_ID },
      201,
      'document registered',
    ],
    [
      'replaceDocument',
      'put',
      `${C}/document/${DOCUMENT_ID}`,
      { file_id: 'f-3' },
      { customerId: CUSTOMER_ID, documentId: DOCUMENT_ID },
      200,
      'document replaced',
    ],
    [
      'createFileUpload',
      'post',
      '/api/external/file/get-presigned-url',
      { customer_id: CUSTOMER_ID, file_category: 'identity_back', content_type: 'image/png', content_length: 5 },
      {},
      201,
      'upload url created',
    ],
    [
      'attachCustomerFiles',
      'post',
      `${C}/files`,
      { id_file: 'f-4' },
      { customerId: CUSTOMER_ID },
      200,
      'customer files attached',
    ],
    [
      'submitCustomer',
      'post',
      `${C}/submit`,
      undefined,
      { customerId: CUSTOMER_ID },
      200,
      'customer submitted for verification',
    ],
    [
      'upgradeKybScope',
      'post',
      `${C}/upgrade-kyb-scope`,
      { owners: [{ first_name: 'Ada', last_name: 'Obi', ownership_percentage: 100, tin: null }] },
      { customerId: CUSTOMER_ID },
      200,
      'customer upgraded to FULL KYB',
    ],
    [
      'sandboxCreateCustomer',
      'post',
      '/api/external/sandbox/customer',
      { type: 'business', website: null },
      { verificationStatus: VerificationStatus.VERIFIED },
      201,
      'customer created',
    ],
  ] as const;

  /** The request field each write's typed body travels in. */
  const TYPED_BODIES: Partial<Record<string, { field: string; descriptor: DescMessage }>> = {
    createCustomer: { field: 'customer', descriptor: CustomerInputSchema },
    updateCustomer: { field: 'customer', descriptor: CustomerInputSchema },
    updateKycData: { field: 'customer', descriptor: CustomerInputSchema },
    upgradeKybScope: { field: 'customer', descriptor: CustomerInputSchema },
    createOwnerFileUpload: { field: 'upload', descriptor: OwnerFileUploadInputSchema },
    attachOwnerFile: { field: 'file', descriptor: OwnerFileInputSchema },
    createDocumentUpload: { field: 'upload', descriptor: DocumentUploadInputSchema },
    registerDocument: { field: 'document', descriptor: DocumentInputSchema },
    replaceDocument: { field: 'document', descriptor: DocumentInputSchema },
    createFileUpload: { field: 'upload', descriptor: FileUploadInputSchema },
    attachCustomerFiles: { field: 'files', descriptor: CustomerFilesInputSchema },
    sandboxCreateCustomer: { field: 'customer', descriptor: CustomerInputSchema },
  };

  it('covers every route of the table but the list (tested below) and the sandbox review (sandbox-routes.spec.ts: its body is no typed message)', () => {
    expect(cases.map(([operationId]) => operationId).sort()).toEqual(
      CUSTOMER_API_ROUTES.map((route) => route.operationId)
        .filter((id) => id !== 'listCustomers' && id !== 'sandboxReviewCustomer')
        .sort(),
    );
  });

  it.each(cases)(
    '%s: path parameters as typed fields, the body as its typed message, the caller as metadata; answers {message, data}',
    async (operationId, method, path, body, fields, status, message) => {
      const response = await call(method, path, body, { 'x-request-id': `req-${operationId}` });
      expect(response).toMatchObject({ status, body: { message } });
      expect(Object.keys(response.body)).toEqual(['message', 'data']);
      expect(service.calls).toHaveLength(1);
      const [received] = service.calls;
      expect(received?.method).toBe(operationId);
      expect(received?.request).toMatchObject(fields);
      const input = TYPED_BODIES[operationId];
      const request = (received?.request ?? {}) as Record<string, unknown>;
      const typed = input ? request[input.field] : undefined;
      // What customer-kyb reads back from the typed message is the body as sent (decision 0025).
      expect(
        input && typeof typed === 'object' && typed !== null
          ? jsonOfInput(input.descriptor, typed as Record<string, unknown>, CUSTOMER_INPUT_WORDS)
          : undefined,
      ).toEqual(body);
      expect(received?.caller).toMatchObject({
        businessId: BUSINESS_ID,
        credentialId: 'ci_test_1',
        environment: 'sandbox',
        requestId: `req-${operationId}`,
      });
    },
  );

  it('renders the customer, owner, document and upload in their public shapes', async () => {
    const customer = await call('get', C);
    expect(customer.body.data).toMatchObject({ id: CUSTOMER_ID, kyb_scope: 'FULL', website: null, trading_name: null });
    const owner = await call('post', `${C}/owner/${OWNER_ID}/files`, { slot: 'id_document_front', file_id: 'f' });
    expect(owner.body.data).toMatchObject({ id: OWNER_ID, id_document_back: null, tin: null });
    const upload = await call('post', `${C}/document/presigned-url`, {});
    expect(upload.body.data).toMatchObject({ method: 'PUT', max_size_bytes: 10485760 });
  });

  it.each([
    ['no body', undefined],
    ['an empty body declared as JSON', ''],
  ])('refuses %s with 422 at (body), without calling customer-kyb (issue 18)', async (_name, body) => {
    for (const path of [C, `${C}/kyc-data`, `${C}/upgrade-kyb-scope`, '/api/external/customer']) {
      expect(await call(path === C ? 'put' : 'post', path, body)).toEqual({
        status: 422,
        body: {
          status: false,
          message: 'the request body is required: send a JSON object',
          code: 'VALIDATION_FAILED',
          errors: { '(body)': ['is required: send a JSON object'] },
        },
      });
    }
    expect(service.calls).toHaveLength(0);
  });

  it.each([['[]'], ['[{"business_name":"Acme"}]']])(
    'refuses the JSON array %s as a body with 422, without calling customer-kyb',
    async (raw) => {
      const response = await call('post', '/api/external/customer', raw);
      expect(response).toEqual({
        status: 422,
        body: {
          status: false,
          message: 'the request body must be a JSON object',
          code: 'VALIDATION_FAILED',
          errors: { '(body)': ['must be a JSON object'] },
        },
      });
      expect(service.calls).toHaveLength(0);
    },
  );

  it("answers customer-kyb's validation failure as 422 with every field problem, and a lock as 400", async () => {
    service.answers.set('createCustomer', () => {
      throw invalidArgument('owners.0.email must be a valid email address', {
        'owners.0.email': ['must be a valid email address'],
        business_name: ['is required'],
      });
    });
    expect(await call('post', '/api/external/customer', { type: 'business' })).toEqual({
      status: 422,
      body: {
        status: false,
        message: 'owners.0.email must be a valid email address',
        code: 'VALIDATION_FAILED',
        errors: { 'owners.0.email': ['must be a valid email address'], business_name: ['is required'] },
      },
    });
    service.answers.set('updateCustomer', () => {
      throw failedPrecondition('CUSTOMER_LOCKED', 'the customer is PROCESSING and cannot be edited');
    });
    expect(await call('put', C, {})).toMatchObject({ status: 400, body: { code: 'CUSTOMER_LOCKED' } });
    service.answers.set('getCustomer', () => {
      throw new DomainError(Status.NOT_FOUND, 'CUSTOMER_NOT_FOUND', 'no customer abc');
    });
    expect(await call('get', '/api/external/customer/abc')).toMatchObject({
      status: 404,
      body: { code: 'CUSTOMER_NOT_FOUND' },
    });
  });

  describe('GET /customer', () => {
    it('without paginate: {message, data}, every match; no filter is sent as absent', async () => {
      const response = await call('get', '/api/external/customer');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        message: 'customers retrieved',
        data: [expect.objectContaining({ id: CUSTOMER_ID })],
      });
      const request = service.calls[0]?.request;
      expect(request).toMatchObject({ paginate: false });
      for (const filter of ['email', 'idNumber', 'registrationNumber', 'verificationStatus', 'type'])
        expect(request?.[filter]).toBeUndefined();
    });

    it('without paginate, a list of every match carries neither Link nor x-corridor-truncated', async () => {
      service.answers.set('listCustomers', () => ({ customers: [businessCustomer()], truncated: false }));
      const response = await fetch(`${base}/api/external/customer?type=business`);
      expect(response.status).toBe(200);
      expect(response.headers.get('link')).toBeNull();
      expect(response.headers.get('x-corridor-truncated')).toBeNull();
    });

    it('without paginate, a cut list keeps {message, data} and links to the paginated list with the same filters', async () => {
      service.answers.set('listCustomers', () => ({ customers: [businessCustomer()], truncated: true }));
      const response = await fetch(
        `${base}/api/external/customer?verification_status=REJECTED&registration_number=RC%201&page=3&type=business`,
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        message: 'customers retrieved',
        data: [expect.objectContaining({ id: CUSTOMER_ID })],
      });
      expect(response.headers.get('x-corridor-truncated')).toBe('true');
      expect(response.headers.get('link')).toBe(
        `<${base}/api/external/customer?verification_status=REJECTED&registration_number=RC%201&type=business&paginate=true>; rel="next"`,
      );
      expect(service.calls[0]?.request).toMatchObject({
        paginate: false,
        verificationStatus: VerificationStatus.REJECTED,
      });
    });

    it('without paginate, paginate=false given is replaced by paginate=true in the Link', async () => {
      service.answers.set('listCustomers', () => ({ customers: [], truncated: true }));
      const response = await fetch(`${base}/api/external/customer?paginate=false&email=ada%2Bx%40example.com`);
      expect(response.headers.get('link')).toBe(
        `<${base}/api/external/customer?email=ada%2Bx%40example.com&paginate=true>; rel="next"`,
      );
    });

    it('documents Link and x-corridor-truncated, optional, on the list’s 200 in the OpenAPI document', () => {
      const list = openApiDocument({ tokenRequestsPerMinute: 30 }).paths?.['/api/external/customer']?.get;
      const ok = list?.responses?.['200'] as ResponseObject | undefined;
      expect(ok?.headers).toMatchObject({
        Link: { schema: { type: 'string' } },
        'x-corridor-truncated': { schema: { type: 'string', enum: ['true'] } },
      });
      for (const name of ['Link', 'x-corridor-truncated'])
        expect(ok?.headers?.[name]).not.toHaveProperty('required', true);
    });

    it('with paginate: a cursor page by default, its links keeping the filters and per_page, absolute', async () => {
      service.answers.set('listCustomers', () => ({
        customers: [businessCustomer()],
        cursorPage: { nextCursor: 'older', limit: 40 },
      }));
      const response = await call('get', '/api/external/customer?type=business&paginate=true&per_page=40');
      expect(service.calls[0]?.request).toMatchObject({
        type: CustomerType.BUSINESS,
        paginate: true,
        page: 0,
        cursorPage: { cursor: '', limit: 40 },
      });
      expect(response.body).toEqual({
        data: [expect.objectContaining({ id: CUSTOMER_ID })],
        links: {
          first: null,
          last: null,
          prev: null,
          next: `${base}/api/external/customer?type=business&paginate=true&per_page=40&cursor=older`,
        },
        meta: { path: `${base}/api/external/customer`, per_page: 40, next_cursor: 'older', prev_cursor: null },
      });
    });

    it('with paginate and page: the filters go to customer-kyb, the numbered envelope links keep them, absolute', async () => {
      service.answers.set('listCustomers', () => ({
        customers: [businessCustomer()],
        page: { currentPage: 2, perPage: 15, lastPage: 2, total: 16n, totalCapped: false },
      }));
      const response = await call(
        'get',
        '/api/external/customer?type=business&registration_number=RC%201&paginate=1&page=2&verification_status=REJECTED',
      );
      expect(response.status).toBe(200);
      expect(service.calls[0]?.request).toMatchObject({
        type: CustomerType.BUSINESS,
        registrationNumber: 'RC 1',
        verificationStatus: VerificationStatus.REJECTED,
        paginate: true,
        page: 2,
      });
      expect(service.calls[0]?.request.email).toBeUndefined();
      const url = (page: number) =>
        `${base}/api/external/customer?type=business&registration_number=RC%201&paginate=1&verification_status=REJECTED&page=${page}`;
      expect(response.body).toMatchObject({
        data: [expect.objectContaining({ id: CUSTOMER_ID })],
        links: { first: url(1), last: url(2), prev: url(1), next: null },
        meta: {
          current_page: 2,
          from: 16,
          to: 16,
          last_page: 2,
          per_page: 15,
          total: 16,
          total_capped: false,
          path: `${base}/api/external/customer`,
        },
      });
      expect(Object.keys(response.body)).toEqual(['data', 'links', 'meta']);
    });

    it('refuses a bad query with 422 naming the parameter, without calling customer-kyb', async () => {
      const response = await call('get', '/api/external/customer?paginate=yes&sort=name');
      expect(response).toMatchObject({
        status: 422,
        body: { code: 'VALIDATION_FAILED', errors: { paginate: [expect.any(String)], sort: [expect.any(String)] } },
      });
      expect(service.calls).toHaveLength(0);
    });
  });

  describe('the input boundary (issue 18): refused at the gateway, naming where, before customer-kyb', () => {
    it('a control character in a body field or an owner’s field is 422 naming each', async () => {
      const response = await call('post', '/api/external/customer', {
        type: 'business',
        business_name: 'Acme\u0000 Ltd',
        owners: [{ first_name: 'Ada' }, { last_name: 'Obi\u001b[2J' }],
      });
      expect(response).toMatchObject({
        status: 422,
        body: {
          status: false,
          code: 'VALIDATION_FAILED',
          errors: {
            business_name: [expect.stringContaining('control characters')],
            'owners.1.last_name': [expect.any(String)],
          },
        },
      });
      expect(service.calls).toEqual([]);
    });

    it('a body nested deeper than 32 levels is 422, a body not UTF-8 is 400', async () => {
      const deep = `{"type":"business","fields":${'['.repeat(40)}${']'.repeat(40)}}`;
      expect(await call('post', '/api/external/customer', deep)).toMatchObject({
        status: 422,
        body: { code: 'VALIDATION_FAILED', message: expect.stringContaining('nests deeper than 32 levels') },
      });
      const notUtf8 = Buffer.concat([
        Buffer.from('{"business_name":"Acme '),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}'),
      ]);
      const response = await fetch(`${base}/api/external/customer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: notUtf8,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        code: 'MALFORMED_JSON',
        message: 'request body is not valid UTF-8',
      });
      expect(service.calls).toEqual([]);
    });

    it('a control character in a query parameter is 422 naming it; bad percent-encoding is 400', async () => {
      expect(await call('get', '/api/external/customer?email=a%00b@x.com&type=business')).toMatchObject({
        status: 422,
        body: { code: 'VALIDATION_FAILED', errors: { email: [expect.stringContaining('control characters')] } },
      });
      expect(await call('get', '/api/external/customer?email=a%FFb@x.com')).toMatchObject({
        status: 400,
        body: { code: 'BAD_REQUEST', message: expect.stringContaining('not valid percent-encoded UTF-8') },
      });
      expect(service.calls).toEqual([]);
      // Ordinary text, tab and line breaks included, passes through.
      expect((await call('get', '/api/external/customer?email=%C3%B1ame%40x.com')).status).toBe(200);
    });
  });
});
