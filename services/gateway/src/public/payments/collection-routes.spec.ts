import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { CollectionFailureCode } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { type TransactionStatus } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { alreadyExists, invalidArgument, notFound } from '@corridor/grpc';
import { collectionBody, collectionCreatedBody, COLLECTION_ROUTES } from './collection-routes.js';
import {
  COLLECTION_ID,
  CUSTOMER_ID,
  moneyRequestJson,
  moneyRequestTransaction,
  PAYMENT_TOKEN,
} from '../../../test/public/payments/collection.fixtures.js';
import { paymentRoutesUnderTest } from '../../../test/public/payments/fake-payments-service.js';
import { BUSINESS_ID, swapTransaction, UPDATED } from '../../../test/public/payments/payments.fixtures.js';

/** POST /collection and GET /collection/{id} (seed 3.5, 8) against a fake payments on loopback. */
describe('the collection routes', () => {
  const payments = paymentRoutesUnderTest(COLLECTION_ROUTES, ['collection:create', 'transaction:read']);

  const path = '/api/external/collection';
  const collect = (body: unknown) => payments.call('post', path, body);
  const valid = {
    customer_id: CUSTOMER_ID,
    amount: 15_000,
    currency: 'GBP',
    description: 'Order 77',
    redirect_url: 'https://shop.example/return?order=77',
    reference: 'order-77',
  };

  /** 422 VALIDATION_FAILED naming exactly `fields`, and payments never asked. */
  const expectRefused = async (body: unknown, fields: string[]) => {
    const response = await collect(body);
    expect(response).toMatchObject({ status: 422, body: { status: false, code: 'VALIDATION_FAILED' } });
    expect(Object.keys(response.body.errors as object).sort()).toEqual([...fields].sort());
    expect(payments.calls).toHaveLength(0);
    return response.body.errors as Record<string, string[]>;
  };

  it('requires collection:create to request money and transaction:read to read a collection', () => {
    expect(COLLECTION_ROUTES.map((route) => [route.method, route.path, route.scope])).toEqual([
      ['post', path, 'collection:create'],
      ['get', `${path}/{id}`, 'transaction:read'],
    ]);
  });

  it('POST /collection sends typed values and answers 201 with the pending collection and its payment link on this host', async () => {
    const response = await collect(valid);
    expect(response).toEqual({
      status: 201,
      body: { message: 'collection created', data: moneyRequestJson(payments.base) },
    });
    expect(collectionCreatedBody.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls[0]).toMatchObject({
      method: 'createCollection',
      request: {
        customerId: CUSTOMER_ID,
        amount: 15_000n,
        currency: 'GBP',
        description: 'Order 77',
        redirectUrl: 'https://shop.example/return?order=77',
        reference: 'order-77',
      },
      caller: { businessId: BUSINESS_ID },
    });
  });

  it('never shows the payment token as a field of its own, only inside payment_link', async () => {
    const text = JSON.stringify((await collect(valid)).body);
    expect(text).not.toMatch(/payment_token/i);
    expect(text.split(PAYMENT_TOKEN)).toHaveLength(2);
  });

  it('POST /collection says where the collection can be read; redirect_url and reference are optional', async () => {
    const response = await fetch(`${payments.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...valid, redirect_url: undefined, reference: undefined }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`${path}/${COLLECTION_ID}`);
    expect(payments.calls[0]?.request.redirectUrl).toBeUndefined();
    expect(payments.calls[0]?.request.reference).toBeUndefined();
  });

  it('POST /collection names every missing field at once', async () => {
    const errors = await expectRefused({}, ['customer_id', 'amount', 'currency', 'description']);
    expect(errors).toEqual({
      customer_id: ['is required'],
      amount: ['is required'],
      currency: ['is required'],
      description: ['is required'],
    });
  });

  it.each([
    ['not a URL', 'shop.example/return', /^must be an absolute URL such as https:\/\/…, got "shop.example\/return"$/],
    ['http', 'http://shop.example/return', /^must use https, got http$/],
    ['javascript:', 'javascript:alert(1)', /^must use https, got javascript$/],
    ['with a space', 'https://shop.example/re turn', /^must not contain spaces or control characters/],
    ['with a newline', 'https://shop.example/\nreturn', /^must not contain spaces or control characters/],
    ['not a string', 42, /^must be a string, got 42$/],
  ])('POST /collection refuses a redirect_url that is %s, naming the rule', async (_case, redirectUrl, problem) => {
    const errors = await expectRefused({ ...valid, redirect_url: redirectUrl }, ['redirect_url']);
    expect(errors.redirect_url).toHaveLength(1);
    expect(errors.redirect_url?.[0]).toMatch(problem);
  });

  it('POST /collection takes a redirect_url of 2048 characters and refuses 2049 (seed 8)', async () => {
    const prefix = 'https://shop.example/return?pad=';
    const longest = prefix + 'a'.repeat(2048 - prefix.length);
    expect((await collect({ ...valid, redirect_url: longest })).status).toBe(201);
    expect(payments.calls[0]?.request.redirectUrl).toBe(longest);
    payments.calls.length = 0;
    const errors = await expectRefused({ ...valid, redirect_url: `${longest}a` }, ['redirect_url']);
    expect(errors.redirect_url).toEqual(['must be at most 2048 characters']);
  });

  it('POST /collection takes an https redirect_url whatever the scheme’s case, as sent', async () => {
    await collect({ ...valid, redirect_url: 'HTTPS://Shop.example/Return' });
    expect(payments.calls[0]?.request.redirectUrl).toBe('HTTPS://Shop.example/Return');
  });

  it.each([
    [{ description: '' }, 'description', /must not be empty/],
    [{ description: 'd'.repeat(256) }, 'description', /^must be at most 255 characters$/],
    [{ reference: 'r'.repeat(101) }, 'reference', /^must be at most 100 characters$/],
    [{ amount: 0 }, 'amount', /^must be greater than 0, got 0$/],
    [{ amount: 10.5 }, 'amount', /a JSON integer/],
    [{ customer_id: 'cus_1' }, 'customer_id', /^must be a uuid, got "cus_1"$/],
    [{ currency: 'pounds' }, 'currency', /currency code/],
    [{ payer_email: 'a@b.c' }, 'payer_email', /^is not a recognised field$/],
  ])('POST /collection refuses %j, naming %s', async (change, field, problem) => {
    const errors = await expectRefused({ ...valid, ...change }, [field]);
    expect(errors[field]?.[0]).toMatch(problem);
  });

  it('POST /collection takes a description of 255 characters', async () => {
    expect((await collect({ ...valid, description: 'd'.repeat(255) })).status).toBe(201);
  });

  it.each([
    ['CUSTOMER_NOT_FOUND', `no customer ${CUSTOMER_ID} in this business`],
    ['INVALID_AMOUNT', 'amount must be at least 1.00 GBP'],
    ['UNKNOWN_CURRENCY', 'no currency XYZ'],
    ['CURRENCY_OPERATION_NOT_SUPPORTED', 'USD takes no collections'],
  ])("POST /collection answers payments' refusal %s as 422 with its code and message", async (code, message) => {
    payments.answers.set('createCollection', () => {
      throw invalidArgument(message, undefined, code);
    });
    expect(await collect(valid)).toEqual({ status: 422, body: { status: false, code, message } });
  });

  it('POST /collection answers 409 when the reference is already used', async () => {
    payments.answers.set('createCollection', () => {
      throw alreadyExists('REFERENCE_ALREADY_USED', 'reference order-77 is already used by another transaction');
    });
    expect(await collect(valid)).toMatchObject({ status: 409, body: { code: 'REFERENCE_ALREADY_USED' } });
  });

  it('GET /collection/{id} answers the collection asked for', async () => {
    const response = await payments.call('get', `${path}/${COLLECTION_ID}`);
    expect(response).toEqual({
      status: 200,
      body: { message: 'collection retrieved', data: moneyRequestJson(payments.base) },
    });
    expect(collectionBody.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls[0]).toMatchObject({ method: 'getCollection', request: { collectionId: COLLECTION_ID } });
  });

  it('GET /collection/{id} shows a declined request with why and when', async () => {
    payments.answers.set('getCollection', () => ({
      transaction: moneyRequestTransaction({
        failureCode: CollectionFailureCode.DECLINED_BY_PAYER,
        completedAt: timestampFromDate(UPDATED),
      }),
    }));
    const data = (await payments.call('get', `${path}/${COLLECTION_ID}`)).body.data;
    expect(data).toMatchObject({
      collection_details: { failure_reason: 'declined_by_payer', completed_at: UPDATED.toISOString() },
    });
  });

  it('GET /collection/{id} answers a collection without a payment token with payment_link null', async () => {
    payments.answers.set('getCollection', () => ({
      transaction: moneyRequestTransaction({ paymentToken: undefined }),
    }));
    const data = (await payments.call('get', `${path}/${COLLECTION_ID}`)).body.data as Record<string, unknown>;
    expect(data.collection_details).toMatchObject({ payment_link: null });
  });

  it('GET /collection/{id} answers 404 for an id that is not a uuid, without asking payments', async () => {
    expect(await payments.call('get', `${path}/col_1`)).toMatchObject({
      status: 404,
      body: { code: 'COLLECTION_NOT_FOUND', message: 'no collection col_1 in this business' },
    });
    expect(payments.calls).toHaveLength(0);
  });

  it('GET /collection/{id} passes payments’ 404 on (another business’s collection looks missing)', async () => {
    payments.answers.set('getCollection', () => {
      throw notFound('COLLECTION_NOT_FOUND', `no collection ${COLLECTION_ID} in this business`);
    });
    expect(await payments.call('get', `${path}/${COLLECTION_ID}`)).toMatchObject({
      status: 404,
      body: { code: 'COLLECTION_NOT_FOUND' },
    });
  });

  it('answers 500, not a collection, when payments sends a transaction that is none or a method without a word', async () => {
    const unknownStatus = moneyRequestTransaction();
    unknownStatus.status = 99 as TransactionStatus;
    for (const transaction of [
      swapTransaction(),
      moneyRequestTransaction({ method: 0 }),
      moneyRequestTransaction({ failureCode: 0 }),
      unknownStatus,
    ]) {
      payments.answers.set('getCollection', () => ({ transaction }));
      expect(await payments.call('get', `${path}/${COLLECTION_ID}`)).toMatchObject({
        status: 500,
        body: { code: 'INTERNAL' },
      });
    }
  });
});
