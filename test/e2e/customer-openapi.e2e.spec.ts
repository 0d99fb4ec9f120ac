import { PUBLIC_ROUTES } from '../../services/gateway/dist/public/routes.js';
import {
  businessBody,
  individualBody,
  ownerBody,
  PDF_BYTES,
  PNG_BYTES,
  type CustomerCaller,
  type CustomerJson,
  type UploadJson,
} from '../support/customers.js';
import { OpenApiContract } from '../support/openapi.js';
import { Platform } from '../support/platform.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** The customer routes of decision 0008, with their scope (seed 5) and success status. */
const CUSTOMER_ROUTES: [method: string, path: string, scope: string, success: number][] = [
  ['post', '/api/external/customer', 'customer:write', 201],
  ['put', '/api/external/customer/{id}', 'customer:write', 200],
  ['post', '/api/external/customer/{id}/kyc-data', 'customer:write', 200],
  ['get', '/api/external/customer/{id}', 'customer:read', 200],
  ['get', '/api/external/customer', 'customer:read', 200],
  ['delete', '/api/external/customer/{customer}/owner/{owner}', 'customer:write', 200],
  ['post', '/api/external/customer/{customer}/owner/{owner}/file/presigned-url', 'file:upload', 201],
  ['post', '/api/external/customer/{id}/owner/{owner}/files', 'customer:write', 200],
  ['post', '/api/external/customer/{customer}/document/presigned-url', 'file:upload', 201],
  ['post', '/api/external/customer/{customer}/document', 'customer:write', 201],
  ['put', '/api/external/customer/{customer}/document/{document}', 'customer:write', 200],
  ['post', '/api/external/file/get-presigned-url', 'file:upload', 201],
  ['post', '/api/external/customer/{id}/files', 'customer:write', 200],
  ['post', '/api/external/customer/{customer}/submit', 'customer:write', 200],
  ['post', '/api/external/customer/{customer}/upgrade-kyb-scope', 'customer:write', 200],
];

/** Routes that can answer 400 (seed 7 and 3.3: locked records, upgrade while PROCESSING, submit twice). */
const CAN_BE_LOCKED = CUSTOMER_ROUTES.filter(
  ([method, path]) => !(method === 'get' || path === '/api/external/customer'),
);

describe('the OpenAPI document covers every customer route and describes its real answers (issue 4)', () => {
  const platform = Platform.shared();
  const api = platform.customers;
  let contract: OpenApiContract;
  let caller: CustomerCaller;

  beforeAll(async () => {
    await platform.start();
    [contract, caller] = await Promise.all([
      OpenApiContract.load(platform.publicUrl),
      api.caller({ kybMinimalAllowed: true }),
    ]);
  });
  afterAll(() => platform.stop());

  /** A call that must answer `status`, checked against the document; returns the body. */
  const documented = async (
    method: string,
    template: string,
    path: string,
    status: number,
    body?: unknown,
  ): Promise<Record<string, unknown>> => {
    const response = await api.call(caller.token, method.toUpperCase(), path, body);
    if (response.status !== status) {
      throw new Error(
        `${method.toUpperCase()} ${path}: expected ${status}, got ${response.status} ${await response.text()}`,
      );
    }
    return contract.expectDocumented(response, method, template);
  };
  const dataOf = <T>(body: Record<string, unknown>) => body.data as T;

  it('issue 4: the served document is valid OpenAPI 3.1', () => {
    expect(contract.validationErrors).toBeUndefined();
  });

  it('issue 4: every route of the gateway’s table is in the document, with its scope', () => {
    for (const route of PUBLIC_ROUTES) {
      const operation = contract.operation(route.method, route.path);
      expect({ route: route.path, operationId: operation.operationId }).toEqual({
        route: route.path,
        operationId: route.operationId,
      });
      expect(operation.security).toEqual([{ oauth2: route.scope ? [route.scope] : [] }]);
    }
  });

  it.each(CUSTOMER_ROUTES)(
    'decision 0008: %s %s is documented with scope %s and its success status %d',
    (method, path, scope, success) => {
      const operation = contract.operation(method, path);
      expect(operation.security).toEqual([{ oauth2: [scope] }]);
      expect(operation.responses[String(success)]?.content?.['application/json']).toBeDefined();
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403']));
      // Every route that reads a body or a query can refuse it.
      if (method !== 'delete' && path !== '/api/external/customer/{id}')
        expect(Object.keys(operation.responses)).toContain('422');
      if (path.includes('{')) expect(Object.keys(operation.responses)).toContain('404');
      if (CAN_BE_LOCKED.some(([m, p]) => m === method && p === path))
        expect(Object.keys(operation.responses)).toContain('400');
      if (method !== 'get' && method !== 'delete' && !path.endsWith('/submit'))
        expect(operation.requestBody).toBeDefined();
    },
  );

  it('seed 4.2, 4.4, 2.2, 2.3: real answers of every customer route match the document', async () => {
    const customerPath = '/api/external/customer/{id}';
    // A FULL business (allowed for this platform), its owner and a document.
    const full = dataOf<CustomerJson>(
      await documented(
        'post',
        '/api/external/customer',
        '/customer',
        201,
        businessBody({ kyb_scope: 'FULL', owners: [ownerBody({ id_document_type: 'id_card' })] }),
      ),
    );
    await documented('get', customerPath, `/customer/${full.id}`, 200);
    await documented('put', customerPath, `/customer/${full.id}`, 200, { trading_name: 'Acme', website: null });
    await documented('post', '/api/external/customer/{id}/kyc-data', `/customer/${full.id}/kyc-data`, 200, {
      industry_type: 'Retail',
    });
    const owner = full.owners[0]!;
    for (const slot of ['id_document_front', 'id_document_back']) {
      const upload = dataOf<UploadJson>(
        await documented(
          'post',
          '/api/external/customer/{customer}/owner/{owner}/file/presigned-url',
          `/customer/${full.id}/owner/${owner.id}/file/presigned-url`,
          201,
          { slot, content_type: 'image/png', content_length: PNG_BYTES.length },
        ),
      );
      expect((await api.putBytes(upload, PNG_BYTES)).status).toBe(200);
      await documented(
        'post',
        '/api/external/customer/{id}/owner/{owner}/files',
        `/customer/${full.id}/owner/${owner.id}/files`,
        200,
        { slot, file_id: upload.file_id },
      );
    }
    const documentUpload = async () => {
      const upload = dataOf<UploadJson>(
        await documented(
          'post',
          '/api/external/customer/{customer}/document/presigned-url',
          `/customer/${full.id}/document/presigned-url`,
          201,
          { content_type: 'application/pdf', content_length: PDF_BYTES.length },
        ),
      );
      expect((await api.putBytes(upload, PDF_BYTES)).status).toBe(200);
      return upload.file_id;
    };
    const document = dataOf<{ id: string }>(
      await documented('post', '/api/external/customer/{customer}/document', `/customer/${full.id}/document`, 201, {
        type: 'CERTIFICATE_OF_INCORPORATION',
        file_id: await documentUpload(),
      }),
    );
    await documented(
      'put',
      '/api/external/customer/{customer}/document/{document}',
      `/customer/${full.id}/document/${document.id}`,
      200,
      { file_id: await documentUpload() },
    );
    const extra = await api.updateCustomer(caller.token, full.id, { owners: [ownerBody({ ownership_percentage: 0 })] });
    await documented(
      'delete',
      '/api/external/customer/{customer}/owner/{owner}',
      `/customer/${full.id}/owner/${extra.owners[1]!.id}`,
      200,
    );
    await documented('post', '/api/external/customer/{customer}/submit', `/customer/${full.id}/submit`, 200);

    // An individual and its ID file.
    const individual = dataOf<CustomerJson>(
      await documented(
        'post',
        '/api/external/customer',
        '/customer',
        201,
        individualBody({ id_type: 'passport', id_number: 'A1' }),
      ),
    );
    const idUpload = dataOf<UploadJson>(
      await documented('post', '/api/external/file/get-presigned-url', '/file/get-presigned-url', 201, {
        customer_id: individual.id,
        file_category: 'identity_front',
        content_type: 'image/png',
        content_length: PNG_BYTES.length,
      }),
    );
    expect((await api.putBytes(idUpload, PNG_BYTES)).status).toBe(200);
    await documented('post', '/api/external/customer/{id}/files', `/customer/${individual.id}/files`, 200, {
      id_file: idUpload.file_id,
    });

    // A MINIMAL business upgraded; lists in both shapes.
    const minimal = dataOf<CustomerJson>(
      await documented('post', '/api/external/customer', '/customer', 201, businessBody()),
    );
    await documented(
      'post',
      '/api/external/customer/{customer}/upgrade-kyb-scope',
      `/customer/${minimal.id}/upgrade-kyb-scope`,
      200,
      { owners: [ownerBody()] },
    );
    await documented('get', '/api/external/customer', '/customer', 200);
    // All three shapes: {message, data}, a cursor page, a numbered page (decision 0018).
    const paginated = await documented('get', '/api/external/customer', '/customer?paginate=true&type=business', 200);
    expect(Object.keys(paginated).sort()).toEqual(['data', 'links', 'meta']);
    const numbered = await documented('get', '/api/external/customer', '/customer?paginate=true&page=1', 200);
    expect(Object.keys(numbered).sort()).toEqual(['data', 'links', 'meta']);
  });

  it('seed 7: the 400, 404 and 422 answers match the document too, 422 with its errors map', async () => {
    const invalid = await documented(
      'post',
      '/api/external/customer',
      '/customer',
      422,
      businessBody({ country: 'GH' }),
    );
    expect(invalid).toMatchObject({ status: false, errors: { country: [expect.any(String)] } });
    await documented('get', '/api/external/customer/{id}', `/customer/${UNKNOWN}`, 404);
    await documented(
      'post',
      '/api/external/customer/{customer}/upgrade-kyb-scope',
      `/customer/${UNKNOWN}/upgrade-kyb-scope`,
      404,
      {
        owners: [ownerBody()],
      },
    );
    const ready = await api.minimalReadyToSubmit(caller);
    await api.submit(caller.token, ready.id);
    await documented('post', '/api/external/customer/{customer}/submit', `/customer/${ready.id}/submit`, 400);
    await documented(
      'post',
      '/api/external/customer/{customer}/upgrade-kyb-scope',
      `/customer/${ready.id}/upgrade-kyb-scope`,
      400,
      { owners: [ownerBody()] },
    );
    await documented('put', '/api/external/customer/{id}', `/customer/${ready.id}`, 400, { trading_name: 'x' });
    await documented('get', '/api/external/customer', '/customer?verification_status=DONE', 422);
  });

  it('the customer schema is strict enough to notice drift', async () => {
    const response = await api.call(caller.token, 'POST', '/customer', businessBody());
    const body = await contract.expectDocumented(response, 'post', '/api/external/customer');
    const validate = contract.bodySchema('post', '/api/external/customer', 201);
    const data = body.data as Record<string, unknown>;
    expect(validate({ ...body, data: { ...data, verification_status: 'DONE' } })).toBe(false);
    expect(validate({ ...body, data: { ...data, kyb_scope: 'PARTIAL' } })).toBe(false);
    const { id: _id, ...withoutId } = data;
    expect(validate({ ...body, data: withoutId })).toBe(false);
  });
});
