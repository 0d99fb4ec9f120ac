import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { RefundStatus } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { TransactionStatus, TransactionType } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { notFound } from '@corridor/grpc';
import { TransactionList } from './response-schemas.js';
import { paymentRoutesUnderTest } from '../../../test/public/payments/fake-payments-service.js';
import {
  BUSINESS_ID,
  SWAP_JSON,
  swapTransaction,
  TRANSACTION_ID,
} from '../../../test/public/payments/payments.fixtures.js';
import { transactionBody, TRANSACTION_ROUTES } from './transaction-routes.js';
import {
  COLLECTION_ID,
  moneyRequestJson,
  moneyRequestTransaction,
  refund,
  REFUND_ID,
  REFUND_JSON,
  refundTransaction,
} from '../../../test/public/payments/collection.fixtures.js';

/** GET /transaction/{id} and the cursor-paginated GET /transaction against a fake payments. */
describe('the transaction routes', () => {
  const payments = paymentRoutesUnderTest(TRANSACTION_ROUTES, ['transaction:read']);

  const get = (path: string) => payments.call('get', path);
  const list = `/api/external/transaction`;

  it('requires transaction:read for both', () => {
    expect(TRANSACTION_ROUTES.map((route) => [route.method, route.path, route.scope])).toEqual([
      ['get', '/api/external/transaction/{id}', 'transaction:read'],
      ['get', '/api/external/transaction', 'transaction:read'],
    ]);
  });

  it('GET /transaction/{id} answers the transaction with signed amounts and its swap_details', async () => {
    const response = await get(`${list}/${TRANSACTION_ID}`);
    expect(response).toEqual({ status: 200, body: { message: 'transaction retrieved', data: SWAP_JSON } });
    expect(transactionBody.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls[0]).toMatchObject({
      method: 'getTransaction',
      request: { transactionId: TRANSACTION_ID },
      caller: { businessId: BUSINESS_ID },
    });
  });

  it('renders refund_status in words and a missing reference as null', async () => {
    payments.answers.set('getTransaction', () => ({
      transaction: swapTransaction({ refundStatus: RefundStatus.PROCESSING, reference: undefined }),
    }));
    expect((await get(`${list}/${TRANSACTION_ID}`)).body.data).toMatchObject({
      refund_status: 'processing',
      reference: null,
    });
  });

  it('GET /transaction/{id} answers 404 for an id that is not a uuid, without asking payments', async () => {
    expect(await get(`${list}/not-an-id`)).toMatchObject({ status: 404, body: { code: 'TRANSACTION_NOT_FOUND' } });
    expect(payments.calls).toHaveLength(0);
  });

  it('GET /transaction/{id} passes payments’ 404 on (another business’s transaction looks missing)', async () => {
    payments.answers.set('getTransaction', () => {
      throw notFound('TRANSACTION_NOT_FOUND', `no transaction ${TRANSACTION_ID} in this business`);
    });
    expect(await get(`${list}/${TRANSACTION_ID}`)).toMatchObject({
      status: 404,
      body: { code: 'TRANSACTION_NOT_FOUND' },
    });
  });

  it('answers 500 when payments sends a type or status the contract has no word for', async () => {
    payments.answers.set('getTransaction', () => ({
      transaction: swapTransaction({ type: TransactionType.UNSPECIFIED }),
    }));
    expect((await get(`${list}/${TRANSACTION_ID}`)).status).toBe(500);
    payments.answers.set('getTransaction', () => ({
      transaction: swapTransaction({ status: 99 as TransactionStatus }),
    }));
    expect((await get(`${list}/${TRANSACTION_ID}`)).status).toBe(500);
  });

  it('GET /transaction asks for the first page of 15 without filters and answers the cursor envelope', async () => {
    const response = await get(list);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [SWAP_JSON],
      links: { first: null, last: null, prev: null, next: null },
      meta: { path: `${payments.base}${list}`, per_page: 15, next_cursor: null, prev_cursor: null },
    });
    expect(TransactionList.safeParse(response.body).error).toBeUndefined();
    const [call] = payments.calls;
    expect(call?.request).toMatchObject({ page: { cursor: '', limit: 15 } });
    for (const filter of ['status', 'type', 'currency', 'reference', 'from', 'to']) {
      expect(call?.request[filter]).toBeUndefined();
    }
  });

  it('GET /transaction sends each filter typed: enums as proto values, the window as timestamps', async () => {
    const query =
      'status=EXPIRED&type=SWAP&currency=NGN&reference=inv%202041&from=2026-11-01T00:00:00Z&to=2026-11-21T10:00:00%2B01:00&per_page=50&cursor=abc';
    expect((await get(`${list}?${query}`)).status).toBe(200);
    expect(payments.calls[0]?.request).toMatchObject({
      status: TransactionStatus.EXPIRED,
      type: TransactionType.SWAP,
      currency: 'NGN',
      reference: 'inv 2041',
      from: timestampFromDate(new Date('2026-11-01T00:00:00Z')),
      to: timestampFromDate(new Date('2026-11-21T09:00:00Z')),
      page: { cursor: 'abc', limit: 50 },
    });
  });

  it('links prev and next to this list with the filters as given and the cursor last', async () => {
    payments.answers.set('listTransactions', () => ({
      transactions: [swapTransaction()],
      page: { nextCursor: 'older+/=', previousCursor: 'newer', limit: 2 },
    }));
    const response = await get(`${list}?type=SWAP&per_page=2&cursor=now&reference=a%20b`);
    const filters = `${payments.base}${list}?type=SWAP&per_page=2&reference=a%20b`;
    expect(response.body).toMatchObject({
      links: { first: null, last: null, prev: `${filters}&cursor=newer`, next: `${filters}&cursor=older%2B%2F%3D` },
      meta: { path: `${payments.base}${list}`, per_page: 2, next_cursor: 'older+/=', prev_cursor: 'newer' },
    });
    expect(TransactionList.safeParse(response.body).error).toBeUndefined();
    // Following next asks payments for exactly that cursor.
    const next = (response.body.links as { next: string }).next;
    await get(next.slice(payments.base.length));
    expect(payments.calls[1]?.request).toMatchObject({
      type: TransactionType.SWAP,
      page: { cursor: 'older+/=', limit: 2 },
    });
  });

  it('answers an empty page with both links null', async () => {
    payments.answers.set('listTransactions', () => ({ transactions: [], page: { limit: 15 } }));
    expect((await get(`${list}?status=FAILED`)).body).toMatchObject({
      data: [],
      links: { prev: null, next: null },
      meta: { next_cursor: null, prev_cursor: null },
    });
  });

  it.each([
    ['per_page=0', 'per_page', /from 1 to 100/],
    ['per_page=101', 'per_page', /from 1 to 100, got 101/],
    ['per_page=ten', 'per_page', /whole number/],
    ['per_page=1.5', 'per_page', /whole number/],
    [
      'status=DONE',
      'status',
      /^must be one of PENDING, PROCESSING, SUCCESSFUL, FAILED, EXPIRED, REVERSED, got "DONE"$/,
    ],
    ['type=swap', 'type', /^must be one of SWAP, COLLECTION, PAYOUT, REFUND, ADJUSTMENT/],
    ['from=2026-02-30T00:00:00Z', 'from', /ISO 8601 date-time/],
    ['to=2026-11-21', 'to', /ISO 8601 date-time with a time zone/],
    ['from=2026-11-21T10:00:00+01:00', 'from', /send the \+ of a time zone offset as %2B/],
    ['from=2026-11-21T00:00:00Z&to=2026-11-01T00:00:00Z', 'from', /^must be before to \(2026-11-01T00:00:00.000Z\)$/],
    ['cursor=', 'cursor', /must not be empty/],
    [
      'page=2',
      'page',
      /^is not a recognised query parameter; use status, type, currency, reference, from, to, cursor, per_page$/,
    ],
    ['status=FAILED&status=EXPIRED', 'status', /^must be given once$/],
  ])('GET /transaction?%s is 422 naming %s', async (query, field, problem) => {
    const response = await get(`${list}?${query}`);
    expect(response).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED' } });
    const errors = response.body.errors as Record<string, string[]>;
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field]?.[0]).toMatch(problem);
    expect(payments.calls).toHaveLength(0);
  });

  describe('with collections and refunds (issue 11)', () => {
    // A caller that also holds refund:read, against its own fake.
    const refundReader = paymentRoutesUnderTest(TRANSACTION_ROUTES, ['transaction:read', 'refund:read']);

    const collection = `${list}/${COLLECTION_ID}`;

    it('GET /transaction/{id} answers a collection with its details and the payment link on this host', async () => {
      payments.answers.set('getTransaction', () => ({ transaction: moneyRequestTransaction() }));
      const response = await get(collection);
      expect(response).toEqual({
        status: 200,
        body: { message: 'transaction retrieved', data: moneyRequestJson(payments.base) },
      });
      expect(transactionBody.safeParse(response.body).error).toBeUndefined();
    });

    it('GET /transaction/{id} with refund:read adds the collection’s refund as `refund` (seed 2.5)', async () => {
      refundReader.answers.set('getTransaction', () => ({ transaction: moneyRequestTransaction(), refund: refund() }));
      const response = await refundReader.call('get', collection);
      expect(response.body.data).toEqual({ ...moneyRequestJson(refundReader.base), refund: REFUND_JSON });
      expect(transactionBody.safeParse(response.body).error).toBeUndefined();
    });

    it('GET /transaction/{id} with refund:read answers refund null when there is none', async () => {
      refundReader.answers.set('getTransaction', () => ({ transaction: swapTransaction() }));
      const response = await refundReader.call('get', `${list}/${TRANSACTION_ID}`);
      expect(response.body.data).toEqual({ ...SWAP_JSON, refund: null });
      expect(transactionBody.safeParse(response.body).error).toBeUndefined();
    });

    it('GET /transaction/{id} without refund:read has no `refund` key, even when the collection has one', async () => {
      payments.answers.set('getTransaction', () => ({ transaction: moneyRequestTransaction(), refund: refund() }));
      const data = (await get(collection)).body.data as Record<string, unknown>;
      expect(Object.keys(data)).not.toContain('refund');
      expect(data).toEqual(moneyRequestJson(payments.base));
    });

    it('renders a REFUND transaction with its refund_details, the refund itself', async () => {
      payments.answers.set('getTransaction', () => ({ transaction: refundTransaction() }));
      const response = await get(`${list}/${REFUND_ID}`);
      expect(response.body.data).toMatchObject({
        id: REFUND_ID,
        type: 'REFUND',
        status: 'PROCESSING',
        amount: -15_000,
        collection_details: null,
        refund_details: REFUND_JSON,
      });
      expect(transactionBody.safeParse(response.body).error).toBeUndefined();
    });

    it('GET /transaction lists collections with their payment links', async () => {
      payments.answers.set('listTransactions', () => ({
        transactions: [moneyRequestTransaction(), refundTransaction()],
        page: { limit: 15 },
      }));
      const response = await get(`${list}?type=COLLECTION`);
      expect((response.body.data as unknown[])[0]).toEqual(moneyRequestJson(payments.base));
      expect(TransactionList.safeParse(response.body).error).toBeUndefined();
    });
  });
});
