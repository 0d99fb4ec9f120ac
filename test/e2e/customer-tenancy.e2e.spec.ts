import { PUBLIC_ROUTES } from '../../services/gateway/dist/public/routes.js';
import {
  businessBody,
  expectInvalid,
  individualBody,
  ownerBody,
  PNG_BYTES,
  type CustomerCaller,
  type CustomerJson,
} from '../support/customers.js';
import { expectError, Platform, type RouteEntry } from '../support/platform.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

interface Ids {
  customer: string;
  minimal: string;
  individual: string;
  owner: string;
  document: string;
}

/** One call per route: what it takes of the target's ids, and the body it sends. */
interface TenancyCase {
  route: string;
  call: (ids: Ids) => { method: string; path: string; body?: unknown };
  code: string;
}

const uploadBody = { content_type: 'image/png', content_length: PNG_BYTES.length };

/** Every customer route of decision 0008, called with ids of the business under test. */
const CASES: TenancyCase[] = [
  {
    route: 'GET /api/external/customer/{id}',
    code: 'CUSTOMER_NOT_FOUND',
    call: (i) => ({ method: 'GET', path: `/customer/${i.customer}` }),
  },
  {
    route: 'PUT /api/external/customer/{id}',
    code: 'CUSTOMER_NOT_FOUND',
    call: (i) => ({ method: 'PUT', path: `/customer/${i.customer}`, body: { trading_name: 'Taken over' } }),
  },
  {
    route: 'POST /api/external/customer/{id}/kyc-data',
    code: 'CUSTOMER_NOT_FOUND',
    call: (i) => ({ method: 'POST', path: `/customer/${i.customer}/kyc-data`, body: { trading_name: 'Taken over' } }),
  },
  {
    route: 'DELETE /api/external/customer/{customer}/owner/{owner}',
    code: 'CUSTOMER_NOT_FOUND',
    call: (i) => ({ method: 'DELETE', path: `/customer/${i.customer}/owner/${i.owner}` }),
  },
  {
    route: 'POST /api/external/customer/{customer}/owner/{owner}/file/presigned-url',
    code: 'CUSTOMER_NOT_FOUND',
    call: (i) => ({
      method: 'POST',
      path: `/customer/${i.customer}/owner/${i.owner}/file/presigned-url`,
      body: { slot: 'id_document_front', ...uploadBody },
    }),
  },
  {
    route: 'POST /api/external/customer/{id}/owner/{owner}/files',
    code: 'CUSTOMER_NOT_FOUND',
    call: (i) => ({
      method: 'POST',
      path: `/customer/${i.customer}/owner/${i.owner}/files`,
      body: { slot: 'id_document_front', file_id: UNKNOWN },
    }),
  },
  {
    route: 'POST /api/external/customer/{customer}/document/presigned-url',
    code: 'CUSTOMER_NOT_FOUND',
    call: (i) => ({ method: 'POST', path: `/customer/${i.customer}/document/presigned-url`, body: uploadBody }),
  },
  {
    route: 'POST /api/external/customer/{customer}/document',
    code: 'CUSTOMER_NOT_FOUND',
    call: (i) => ({
      method: 'POST',
      path: `/customer/${i.customer}/document`,
      body: { type: 'CAC_STATUS_REPORT', file_id: UNKNOWN },
    }),
  },
  {
    route: 'PUT /api/external/customer/{customer}/document/{document}',
    code: 'CUSTOMER_NOT_FOUND',
    call: (i) => ({
      method: 'PUT',
      path: `/customer/${i.customer}/document/${i.document}`,
      body: { file_id: UNKNOWN },
    }),
  },
  {
    route: 'POST /api/external/file/get-presigned-url',
    code: 'CUSTOMER_NOT_FOUND',
    call: (i) => ({
      method: 'POST',
      path: '/file/get-presigned-url',
      body: { customer_id: i.individual, file_category: 'identity_front', ...uploadBody },
    }),
  },
  {
    route: 'POST /api/external/customer/{id}/files',
    code: 'CUSTOMER_NOT_FOUND',
    call: (i) => ({ method: 'POST', path: `/customer/${i.individual}/files`, body: { id_file: UNKNOWN } }),
  },
  {
    route: 'POST /api/external/customer/{customer}/submit',
    code: 'CUSTOMER_NOT_FOUND',
    call: (i) => ({ method: 'POST', path: `/customer/${i.customer}/submit` }),
  },
  {
    route: 'POST /api/external/customer/{customer}/upgrade-kyb-scope',
    code: 'CUSTOMER_NOT_FOUND',
    call: (i) => ({
      method: 'POST',
      path: `/customer/${i.minimal}/upgrade-kyb-scope`,
      body: { owners: [ownerBody()] },
    }),
  },
];

const routeName = (route: RouteEntry) => `${route.method.toUpperCase()} ${route.path}`;

/**
 * DESIGN.md tenancy, issue 4 item 10: a customer, owner or document of another business is a 404 on
 * every route, indistinguishable from one that does not exist.
 */
describe('customers: tenancy, two businesses on every customer route (issue 4 item 10)', () => {
  const platform = Platform.shared();
  const api = platform.customers;
  let alpha: CustomerCaller;
  let beta: CustomerCaller;
  let alphaIds: Ids;
  let betaIds: Ids;
  let alphaCustomers: CustomerJson[];

  /** A FULL business with an owner and a document, a MINIMAL one and an individual. */
  const seed = async (caller: CustomerCaller): Promise<Ids> => {
    const full = await api.fullReadyToSubmit(caller);
    const minimal = await api.createCustomer(caller.token, businessBody({ kyb_scope: 'MINIMAL' }));
    const individual = await api.createCustomer(caller.token, individualBody());
    return {
      customer: full.id,
      minimal: minimal.id,
      individual: individual.id,
      owner: full.owners[0]!.id,
      document: full.documents[0]!.id,
    };
  };
  const snapshot = (ids: Ids) =>
    Promise.all([ids.customer, ids.minimal, ids.individual].map((id) => api.getCustomer(alpha.token, id)));

  beforeAll(async () => {
    await platform.start();
    [alpha, beta] = await Promise.all([
      api.caller({ kybMinimalAllowed: true }),
      api.caller({ kybMinimalAllowed: true }),
    ]);
    [alphaIds, betaIds] = await Promise.all([seed(alpha), seed(beta)]);
    alphaCustomers = await snapshot(alphaIds);
  });
  afterAll(() => platform.stop());

  it('issue 4 item 10: the cases below cover every customer route of the gateway’s table', () => {
    const customerRoutes = PUBLIC_ROUTES.filter(
      (route) => route.path.startsWith('/api/external/customer/') || route.path.startsWith('/api/external/file/'),
    ).map(routeName);
    expect(customerRoutes.length).toBeGreaterThanOrEqual(CASES.length);
    expect(customerRoutes.sort()).toEqual(CASES.map((c) => c.route).sort());
  });

  it.each(CASES.map((c) => [c.route, c] as const))(
    'issue 4 item 10: %s with another business’s customer is 404, exactly like an unknown one',
    async (_route, tenancyCase) => {
      const { method, path, body } = tenancyCase.call(alphaIds);
      const foreign = await expectError(await api.call(beta.token, method, path, body), 404, {
        code: tenancyCase.code,
      });
      const unknownIds: Ids = {
        customer: UNKNOWN,
        minimal: UNKNOWN,
        individual: UNKNOWN,
        owner: UNKNOWN,
        document: UNKNOWN,
      };
      const unknownCall = tenancyCase.call(unknownIds);
      const unknown = await expectError(
        await api.call(beta.token, unknownCall.method, unknownCall.path, unknownCall.body),
        404,
        {
          code: tenancyCase.code,
        },
      );
      // Same answer but for the id it names: nothing tells the caller the customer exists.
      const anonymous = (message: unknown) => String(message).replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>');
      expect(anonymous(foreign.message)).toBe(anonymous(unknown.message));
      expect(Object.keys(foreign).sort()).toEqual(Object.keys(unknown).sort());
    },
  );

  it('issue 4 item 10: nothing of the other business changed after all those calls', async () => {
    expect(await snapshot(alphaIds)).toEqual(alphaCustomers);
  });

  it('issue 4 item 10: another business’s owner under one’s own customer is 404 on the owner routes', async () => {
    const base = `/customer/${betaIds.customer}/owner/${alphaIds.owner}`;
    await expectError(await api.call(beta.token, 'DELETE', base), 404, { code: 'OWNER_NOT_FOUND' });
    await expectError(
      await api.call(beta.token, 'POST', `${base}/file/presigned-url`, { slot: 'id_document_front', ...uploadBody }),
      404,
      { code: 'OWNER_NOT_FOUND' },
    );
    await expectError(
      await api.call(beta.token, 'POST', `${base}/files`, { slot: 'id_document_front', file_id: UNKNOWN }),
      404,
      { code: 'OWNER_NOT_FOUND' },
    );
  });

  it('issue 4 item 10: another business’s document under one’s own customer is 404', async () => {
    await expectError(
      await api.call(beta.token, 'PUT', `/customer/${betaIds.customer}/document/${alphaIds.document}`, {
        file_id: UNKNOWN,
      }),
      404,
      { code: 'DOCUMENT_NOT_FOUND' },
    );
  });

  it('issue 4 item 10: an owners entry naming another business’s owner is refused like an unknown owner', async () => {
    await expectInvalid(
      await api.call(beta.token, 'PUT', `/customer/${betaIds.customer}`, {
        owners: [{ id: alphaIds.owner, title: 'CEO' }],
      }),
      { 'owners.0.id': /is not an owner of this customer/ },
    );
  });

  it('issue 4 item 10: another business’s uploaded file cannot be registered', async () => {
    const alphaFile = await api.documentFile(alpha.token, alphaIds.customer);
    await expectInvalid(
      await api.call(beta.token, 'POST', `/customer/${betaIds.customer}/document`, {
        type: 'CAC_STATUS_REPORT',
        file_id: alphaFile,
      }),
      { file_id: /was not issued for this customer/ },
    );
  });

  it('issue 4 item 10: the admin API sees every business (the back office is not a tenant)', async () => {
    const entries = await api.audit(alphaIds.customer);
    expect(entries.length).toBeGreaterThan(0);
  });
});
