import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  VirtualAccountCloseReason,
  VirtualAccountStatus,
} from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { alreadyExists, invalidArgument, notFound } from '@corridor/grpc';
import { VirtualAccountList } from './collection-responses.js';
import {
  CUSTOMER_ID,
  VIRTUAL_ACCOUNT_ID,
  VIRTUAL_ACCOUNT_JSON,
  virtualAccount,
} from '../../../test/public/payments/collection.fixtures.js';
import { paymentRoutesUnderTest } from '../../../test/public/payments/fake-payments-service.js';
import { BUSINESS_ID, UPDATED } from '../../../test/public/payments/payments.fixtures.js';
import {
  identificationTypesBody,
  virtualAccountBody,
  virtualAccountClosedBody,
  virtualAccountCreatedBody,
  VIRTUAL_ACCOUNT_ROUTES,
} from './virtual-account-routes.js';

/** The virtual account routes (seed 1, 9) against payments over real gRPC (a fake service on loopback). */
describe('the virtual account routes', () => {
  const payments = paymentRoutesUnderTest(VIRTUAL_ACCOUNT_ROUTES, [
    'virtual-account:create',
    'virtual-account:read',
    'virtual-account:close',
  ]);

  const path = '/api/external/virtual-account';
  const open = (body: unknown) => payments.call('post', path, body);
  const valid = { customer_id: CUSTOMER_ID, currency: 'NGN' };

  /** 422 VALIDATION_FAILED naming exactly `fields`, and payments never asked. */
  const expectRefused = async (
    response: Promise<{ status: number; body: Record<string, unknown> }>,
    fields: string[],
  ) => {
    const answer = await response;
    expect(answer).toMatchObject({ status: 422, body: { status: false, code: 'VALIDATION_FAILED' } });
    expect(Object.keys(answer.body.errors as object).sort()).toEqual([...fields].sort());
    expect(payments.calls).toHaveLength(0);
    return answer.body as { message: string; errors: Record<string, string[]> };
  };

  it('requires the virtual-account scopes, identification-types matched before {id}', () => {
    expect(VIRTUAL_ACCOUNT_ROUTES.map((route) => [route.method, route.path, route.scope])).toEqual([
      ['post', path, 'virtual-account:create'],
      ['get', path, 'virtual-account:read'],
      ['get', `${path}/identification-types`, 'virtual-account:read'],
      ['get', `${path}/{id}`, 'virtual-account:read'],
      ['post', `${path}/{id}/close`, 'virtual-account:close'],
    ]);
  });

  it('POST /virtual-account opens an account for the customer and currency, answering 201 where to read it', async () => {
    const response = await fetch(`${payments.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(valid),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`${path}/${VIRTUAL_ACCOUNT_ID}`);
    const body = (await response.json()) as unknown;
    expect(body).toEqual({ message: 'virtual account created', data: VIRTUAL_ACCOUNT_JSON });
    expect(virtualAccountCreatedBody.safeParse(body).error).toBeUndefined();
    expect(payments.calls[0]).toMatchObject({
      method: 'createVirtualAccount',
      request: { customerId: CUSTOMER_ID, currency: 'NGN' },
      caller: { businessId: BUSINESS_ID },
    });
  });

  it('POST /virtual-account refuses account_name, saying it was removed and the account is named after the customer', async () => {
    const body = await expectRefused(open({ ...valid, account_name: 'Acme NGN' }), ['account_name']);
    expect(body.errors.account_name).toEqual([
      'is not a recognised field: it was removed (customer_id is required instead), and the account is named after the customer',
    ]);
    expect(body.message).toMatch(/^account_name is not a recognised field: it was removed/);
  });

  it('POST /virtual-account names account_name as removed beside the other problems of the body', async () => {
    const body = await expectRefused(open({ account_name: 'Acme', currency: 'naira', colour: 'red' }), [
      'customer_id',
      'currency',
      'account_name',
      'colour',
    ]);
    expect(body.errors).toMatchObject({
      customer_id: ['is required'],
      colour: ['is not a recognised field'],
      account_name: [expect.stringMatching(/it was removed/)],
    });
  });

  it.each([
    [{ customer_id: 'cus_1' }, 'customer_id', /^must be a uuid, got "cus_1"$/],
    [{ currency: 'ngn' }, 'currency', /must be a currency code such as NGN/],
    [{ currency: undefined }, 'currency', /^is required$/],
  ])('POST /virtual-account refuses %j, naming %s', async (change, field, problem) => {
    const body = await expectRefused(open({ ...valid, ...change }), [field]);
    expect(body.errors[field]?.[0]).toMatch(problem);
  });

  it.each([
    ['CUSTOMER_NOT_VERIFIED', 'customer 7c1e6a81 is PENDING: only VERIFIED customers hold virtual accounts'],
    ['CURRENCY_NOT_ALLOWED_FOR_CUSTOMER', 'a business customer with MINIMAL KYB holds NGN accounts only'],
    ['VIRTUAL_ACCOUNT_ALREADY_OPEN', 'the customer already has an open NGN virtual account'],
  ])("POST /virtual-account answers payments' refusal %s as 422 with its code and message", async (code, message) => {
    payments.answers.set('createVirtualAccount', () => {
      throw invalidArgument(message, undefined, code);
    });
    expect(await open(valid)).toEqual({ status: 422, body: { status: false, code, message } });
  });

  it('GET /virtual-account asks for the first page of 15 and answers the cursor envelope', async () => {
    const response = await payments.call('get', path);
    expect(response).toEqual({
      status: 200,
      body: {
        data: [VIRTUAL_ACCOUNT_JSON],
        links: { first: null, last: null, prev: null, next: null },
        meta: { path: `${payments.base}${path}`, per_page: 15, next_cursor: null, prev_cursor: null },
      },
    });
    expect(VirtualAccountList.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls[0]?.request).toMatchObject({ page: { cursor: '', limit: 15 } });
    for (const filter of ['customerId', 'currency', 'status'])
      expect(payments.calls[0]?.request[filter]).toBeUndefined();
  });

  it('GET /virtual-account sends each filter typed and links the next page with them', async () => {
    payments.answers.set('listVirtualAccounts', () => ({
      virtualAccounts: [virtualAccount()],
      page: { nextCursor: 'older', limit: 5 },
    }));
    const query = `customer_id=${CUSTOMER_ID}&currency=NGN&status=closed&per_page=5`;
    const response = await payments.call('get', `${path}?${query}`);
    expect(payments.calls[0]?.request).toMatchObject({
      customerId: CUSTOMER_ID,
      currency: 'NGN',
      status: VirtualAccountStatus.CLOSED,
      page: { cursor: '', limit: 5 },
    });
    expect(response.body.links).toMatchObject({ next: `${payments.base}${path}?${query}&cursor=older` });
  });

  it.each([
    ['status=open', 'status', /^must be one of active, closed, got "open"$/],
    ['customer_id=42', 'customer_id', /must be a uuid/],
    ['per_page=500', 'per_page', /from 1 to 100/],
    ['name=x', 'name', /^is not a recognised query parameter; use customer_id, currency, status, cursor, per_page$/],
  ])('GET /virtual-account?%s is 422 naming %s', async (query, field, problem) => {
    const body = await expectRefused(payments.call('get', `${path}?${query}`), [field]);
    expect(body.errors[field]?.[0]).toMatch(problem);
  });

  it('GET /virtual-account/identification-types lists the documents, not a virtual account called so', async () => {
    const response = await payments.call('get', `${path}/identification-types`);
    expect(response).toEqual({
      status: 200,
      body: {
        message: 'identification types retrieved',
        data: [
          { code: 'BVN', name: 'Bank Verification Number', country: 'NG', customer_types: ['individual'] },
          { code: 'PASSPORT', name: 'International passport', country: '', customer_types: ['individual', 'business'] },
        ],
      },
    });
    expect(identificationTypesBody.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls.map((call) => call.method)).toEqual(['listIdentificationTypes']);
  });

  it('GET /virtual-account/identification-types takes no query parameter', async () => {
    await expectRefused(payments.call('get', `${path}/identification-types?country=NG`), ['country']);
  });

  it('GET /virtual-account/{id} answers the account asked for', async () => {
    const response = await payments.call('get', `${path}/${VIRTUAL_ACCOUNT_ID}`);
    expect(response).toEqual({
      status: 200,
      body: { message: 'virtual account retrieved', data: VIRTUAL_ACCOUNT_JSON },
    });
    expect(virtualAccountBody.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls[0]).toMatchObject({
      method: 'getVirtualAccount',
      request: { virtualAccountId: VIRTUAL_ACCOUNT_ID },
    });
  });

  it('POST /virtual-account/{id}/close answers 200 with the closed account, its instant and reason', async () => {
    const response = await payments.call('post', `${path}/${VIRTUAL_ACCOUNT_ID}/close`);
    expect(response).toEqual({
      status: 200,
      body: {
        message: 'virtual account closed',
        data: {
          ...VIRTUAL_ACCOUNT_JSON,
          status: 'closed',
          closed_at: UPDATED.toISOString(),
          close_reason: 'requested',
        },
      },
    });
    expect(virtualAccountClosedBody.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls[0]).toMatchObject({
      method: 'closeVirtualAccount',
      request: { virtualAccountId: VIRTUAL_ACCOUNT_ID },
    });
  });

  it('shows an account closed because the customer was rejected', async () => {
    payments.answers.set('getVirtualAccount', () => ({
      virtualAccount: virtualAccount({
        status: VirtualAccountStatus.CLOSED,
        closedAt: timestampFromDate(UPDATED),
        closeReason: VirtualAccountCloseReason.CUSTOMER_REJECTED,
      }),
    }));
    expect((await payments.call('get', `${path}/${VIRTUAL_ACCOUNT_ID}`)).body.data).toMatchObject({
      status: 'closed',
      close_reason: 'customer_rejected',
    });
  });

  it.each([
    ['get', 'va_1'],
    ['post', 'va_1/close'],
  ])('%s /virtual-account/%s answers 404 VIRTUAL_ACCOUNT_NOT_FOUND without asking payments', async (method, rest) => {
    expect(await payments.call(method, `${path}/${rest}`)).toMatchObject({
      status: 404,
      body: { code: 'VIRTUAL_ACCOUNT_NOT_FOUND', message: 'no virtual account va_1 in this business' },
    });
    expect(payments.calls).toHaveLength(0);
  });

  it('passes payments’ 404 on for an account of another business, and its 409 on an idempotent retry in flight', async () => {
    payments.answers.set('closeVirtualAccount', () => {
      throw notFound('VIRTUAL_ACCOUNT_NOT_FOUND', `no virtual account ${VIRTUAL_ACCOUNT_ID} in this business`);
    });
    expect(await payments.call('post', `${path}/${VIRTUAL_ACCOUNT_ID}/close`)).toMatchObject({
      status: 404,
      body: { code: 'VIRTUAL_ACCOUNT_NOT_FOUND' },
    });
    payments.answers.set('createVirtualAccount', () => {
      throw alreadyExists('IDEMPOTENCY_REQUEST_IN_FLIGHT', 'a request with this Idempotency-Key is in flight');
    });
    expect(await open(valid)).toMatchObject({ status: 409, body: { code: 'IDEMPOTENCY_REQUEST_IN_FLIGHT' } });
  });

  it('answers 500, not an account, when payments sends a status without a word', async () => {
    payments.answers.set('getVirtualAccount', () => ({
      virtualAccount: virtualAccount({ status: VirtualAccountStatus.UNSPECIFIED }),
    }));
    expect(await payments.call('get', `${path}/${VIRTUAL_ACCOUNT_ID}`)).toMatchObject({
      status: 500,
      body: { code: 'INTERNAL' },
    });
  });
});
