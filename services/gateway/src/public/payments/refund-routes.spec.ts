import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { RefundStatus } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { failedPrecondition, invalidArgument, notFound } from '@corridor/grpc';
import { COLLECTION_ID, refund, REFUND_ID, REFUND_JSON } from '../../../test/public/payments/collection.fixtures.js';
import { paymentRoutesUnderTest } from '../../../test/public/payments/fake-payments-service.js';
import { BUSINESS_ID, UPDATED } from '../../../test/public/payments/payments.fixtures.js';
import { refundBody, refundCreatedBody, refundExistingBody, REFUND_ROUTES } from './refund-routes.js';

/** POST /refund and GET /refund/{id} (seed 2.5, 3.5, 4.4) against a fake payments on loopback. */
describe('the refund routes', () => {
  const payments = paymentRoutesUnderTest(REFUND_ROUTES, ['refund:create', 'refund:read']);

  const path = '/api/external/refund';
  const start = (body: unknown) => payments.call('post', path, body);
  const valid = { transaction_id: COLLECTION_ID, reason: 'customer returned the goods', reference: 'refund-77' };

  /** 422 VALIDATION_FAILED naming exactly `fields`, and payments never asked. */
  const expectRefused = async (body: unknown, fields: string[]) => {
    const response = await start(body);
    expect(response).toMatchObject({ status: 422, body: { status: false, code: 'VALIDATION_FAILED' } });
    expect(Object.keys(response.body.errors as object).sort()).toEqual([...fields].sort());
    expect(payments.calls).toHaveLength(0);
    return response.body.errors as Record<string, string[]>;
  };

  it('requires refund:create to start a refund and refund:read to read one', () => {
    expect(REFUND_ROUTES.map((route) => [route.method, route.path, route.scope])).toEqual([
      ['post', path, 'refund:create'],
      ['get', `${path}/{id}`, 'refund:read'],
    ]);
  });

  it('POST /refund sends the collection, reason and reference, and answers 201 with the processing refund', async () => {
    const response = await fetch(`${payments.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(valid),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`${path}/${REFUND_ID}`);
    const body = (await response.json()) as unknown;
    expect(body).toEqual({ message: 'refund initiated', data: REFUND_JSON });
    expect(refundCreatedBody.safeParse(body).error).toBeUndefined();
    expect(payments.calls[0]).toMatchObject({
      method: 'createRefund',
      request: { transactionId: COLLECTION_ID, reason: 'customer returned the goods', reference: 'refund-77' },
      caller: { businessId: BUSINESS_ID },
    });
    expect(payments.calls[0]?.request.amount).toBeUndefined();
  });

  it('POST /refund answers 200 with the same refund when payments says the reference already made it (seed 4.4)', async () => {
    payments.answers.set('createRefund', () => ({ refund: refund(), existing: true }));
    const response = await start(valid);
    expect(response).toEqual({
      status: 200,
      body: { message: 'refund already initiated with this reference', data: REFUND_JSON },
    });
    expect(refundExistingBody.safeParse(response.body).error).toBeUndefined();
  });

  it('POST /refund takes the transaction_id alone, and passes an amount on as int64 for payments to check', async () => {
    await start({ transaction_id: COLLECTION_ID });
    expect(payments.calls[0]?.request).toMatchObject({ transactionId: COLLECTION_ID });
    for (const field of ['reason', 'reference', 'amount']) expect(payments.calls[0]?.request[field]).toBeUndefined();
    await start({ transaction_id: COLLECTION_ID, amount: 15_000 });
    expect(payments.calls[1]?.request.amount).toBe(15_000n);
  });

  it.each([
    [{ transaction_id: undefined }, 'transaction_id', /^is required$/],
    [{ transaction_id: 'txn_1' }, 'transaction_id', /^must be a uuid, got "txn_1"$/],
    [{ reason: '' }, 'reason', /must not be empty/],
    [{ reason: 'r'.repeat(256) }, 'reason', /^must be at most 255 characters$/],
    [{ reference: 'r'.repeat(101) }, 'reference', /^must be at most 100 characters$/],
    [{ amount: 0 }, 'amount', /^must be greater than 0, got 0$/],
    [{ amount: -15_000 }, 'amount', /greater than 0/],
    [{ currency: 'GBP' }, 'currency', /^is not a recognised field$/],
  ])('POST /refund refuses %j, naming %s', async (change, field, problem) => {
    const errors = await expectRefused({ ...valid, ...change }, [field]);
    expect(errors[field]?.[0]).toMatch(problem);
  });

  it.each([
    'NOT_A_COLLECTION',
    'COLLECTION_NOT_SUCCESSFUL',
    'REFUND_CURRENCY_NOT_SUPPORTED',
    'REFUND_WINDOW_CLOSED',
    'ALREADY_REFUNDED',
    'PARTIAL_REFUND_NOT_SUPPORTED',
    'INSUFFICIENT_FUNDS',
  ])("POST /refund answers payments' refusal %s as 422 with its code and message", async (code) => {
    const message = `the collection cannot be refunded: ${code.toLowerCase()}`;
    payments.answers.set('createRefund', () => {
      throw invalidArgument(message, undefined, code);
    });
    expect(await start(valid)).toEqual({ status: 422, body: { status: false, code, message } });
  });

  it('POST /refund answers 400 when the reference was used on another collection, 404 for an unknown collection', async () => {
    payments.answers.set('createRefund', () => {
      throw failedPrecondition(
        'REFERENCE_USED_ON_ANOTHER_TRANSACTION',
        'reference refund-77 already names a refund of another transaction',
      );
    });
    expect(await start(valid)).toMatchObject({
      status: 400,
      body: { code: 'REFERENCE_USED_ON_ANOTHER_TRANSACTION' },
    });
    payments.answers.set('createRefund', () => {
      throw notFound('TRANSACTION_NOT_FOUND', `no transaction ${COLLECTION_ID} in this business`);
    });
    expect(await start(valid)).toMatchObject({ status: 404, body: { code: 'TRANSACTION_NOT_FOUND' } });
  });

  it('GET /refund/{id} answers the refund asked for', async () => {
    const response = await payments.call('get', `${path}/${REFUND_ID}`);
    expect(response).toEqual({ status: 200, body: { message: 'refund retrieved', data: REFUND_JSON } });
    expect(refundBody.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls[0]).toMatchObject({ method: 'getRefund', request: { refundId: REFUND_ID } });
  });

  it('GET /refund/{id} shows a failed refund with the bank’s reason and when it ended', async () => {
    payments.answers.set('getRefund', () => ({
      refund: refund({
        status: RefundStatus.FAILED,
        failureReason: 'the payer’s account is closed',
        completedAt: timestampFromDate(UPDATED),
        reason: undefined,
        reference: undefined,
      }),
    }));
    expect((await payments.call('get', `${path}/${REFUND_ID}`)).body.data).toEqual({
      ...REFUND_JSON,
      status: 'failed',
      failure_reason: 'the payer’s account is closed',
      completed_at: UPDATED.toISOString(),
      reason: null,
      reference: null,
    });
  });

  it('GET /refund/{id} answers 404 REFUND_NOT_FOUND for an id that is not a uuid, without asking payments', async () => {
    expect(await payments.call('get', `${path}/rf_1`)).toMatchObject({
      status: 404,
      body: { code: 'REFUND_NOT_FOUND', message: 'no refund rf_1 in this business' },
    });
    expect(payments.calls).toHaveLength(0);
  });

  it('answers 500, not a refund, when payments sends a negative amount or a status without a word', async () => {
    for (const sent of [refund({ amount: -15_000n }), refund({ status: RefundStatus.UNSPECIFIED })]) {
      payments.answers.set('getRefund', () => ({ refund: sent }));
      expect(await payments.call('get', `${path}/${REFUND_ID}`)).toMatchObject({
        status: 500,
        body: { code: 'INTERNAL' },
      });
    }
  });
});
