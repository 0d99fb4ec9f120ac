import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { PayoutFailureCode, PayoutStatus } from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import { alreadyExists, invalidArgument, notFound } from '@corridor/grpc';
import { paymentRoutesUnderTest } from '../../../test/public/payments/fake-payments-service.js';
import { BUSINESS_ID, swapTransaction } from '../../../test/public/payments/payments.fixtures.js';
import {
  BENEFICIARY_ID,
  PAYOUT_ID,
  PAYOUT_JSON,
  payoutTransaction,
} from '../../../test/public/payments/payout.fixtures.js';
import { payoutBody, payoutCreatedBody, PAYOUT_ROUTES } from './payout-routes.js';

/** POST /payout and GET /payout/{id} against payments over real gRPC (a fake service on loopback). */
describe('the payout routes (decision 0013)', () => {
  const payments = paymentRoutesUnderTest(PAYOUT_ROUTES, ['payout:create', 'transaction:read']);

  const payout = (body: unknown) =>
    payments.call('post', '/api/external/payout', body, { 'x-request-id': 'req-payout' });
  const valid = {
    amount: 5_000_000,
    currency: 'NGN',
    bank_code: '058',
    account_number: '0123456789',
    narration: 'November invoice',
    reference: 'payout-2041',
  };
  const toBeneficiary = {
    amount: 5_000_000,
    currency: 'NGN',
    beneficiary_id: BENEFICIARY_ID,
    narration: 'Rent',
    reference: 'rent-11',
  };

  /** 422 VALIDATION_FAILED naming exactly `fields`, and payments never asked. */
  const expectRefused = async (body: unknown, fields: string[]) => {
    const response = await payout(body);
    expect(response).toMatchObject({ status: 422, body: { status: false, code: 'VALIDATION_FAILED' } });
    expect(Object.keys(response.body.errors as object).sort()).toEqual([...fields].sort());
    expect(payments.calls).toHaveLength(0);
    return response.body.errors as Record<string, string[]>;
  };

  it('requires payout:create to pay out and transaction:read to read a payout', () => {
    expect(PAYOUT_ROUTES.map((route) => [route.method, route.path, route.scope])).toEqual([
      ['post', '/api/external/payout', 'payout:create'],
      ['get', '/api/external/payout/{id}', 'transaction:read'],
    ]);
  });

  it('POST /payout sends typed values (amount as int64, save_beneficiary false) and answers 201 with the pending payout', async () => {
    const response = await payout(valid);
    expect(response).toEqual({ status: 201, body: { message: 'payout created', data: PAYOUT_JSON } });
    expect(payoutCreatedBody.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls).toHaveLength(1);
    const [call] = payments.calls;
    expect(call?.method).toBe('createPayout');
    expect(call?.request).toMatchObject({
      amount: 5_000_000n,
      currency: 'NGN',
      bankCode: '058',
      accountNumber: '0123456789',
      narration: 'November invoice',
      reference: 'payout-2041',
      saveBeneficiary: false,
    });
    expect(call?.request.beneficiaryId).toBeUndefined();
    expect(call?.caller).toMatchObject({ businessId: BUSINESS_ID, requestId: 'req-payout' });
  });

  it('POST /payout passes save_beneficiary true with a new destination', async () => {
    await payout({ ...valid, save_beneficiary: true });
    expect(payments.calls[0]?.request).toMatchObject({ bankCode: '058', saveBeneficiary: true });
  });

  it('POST /payout pays a saved beneficiary by its id alone', async () => {
    await payout(toBeneficiary);
    const request = payments.calls[0]?.request;
    expect(request).toMatchObject({ beneficiaryId: BENEFICIARY_ID, amount: 5_000_000n, reference: 'rent-11' });
    expect(request?.bankCode).toBeUndefined();
    expect(request?.accountNumber).toBeUndefined();
  });

  it('POST /payout says where the payout can be read', async () => {
    const response = await fetch(`${payments.base}/api/external/payout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(valid),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`/api/external/payout/${PAYOUT_ID}`);
  });

  it('POST /payout names every missing field at once, the destination included', async () => {
    const errors = await expectRefused({}, [
      'amount',
      'currency',
      'narration',
      'reference',
      'bank_code',
      'account_number',
    ]);
    expect(errors).toMatchObject({
      amount: ['is required'],
      narration: ['is required'],
      reference: ['is required'],
      bank_code: ['is required unless beneficiary_id is given'],
      account_number: ['is required unless beneficiary_id is given'],
    });
    await expectRefused(undefined, ['amount', 'currency', 'narration', 'reference', 'bank_code', 'account_number']);
  });

  it.each([
    ['only bank_code', { account_number: undefined }, { account_number: 'is required with bank_code' }],
    ['only account_number', { bank_code: undefined }, { bank_code: 'is required with account_number' }],
    [
      'a destination and a beneficiary',
      { beneficiary_id: BENEFICIARY_ID },
      {
        bank_code: 'must not be given with beneficiary_id: send bank_code and account_number, or beneficiary_id',
        account_number: 'must not be given with beneficiary_id: send bank_code and account_number, or beneficiary_id',
      },
    ],
  ])('POST /payout refuses %s, naming each field to change', async (_case, change, problems) => {
    const errors = await expectRefused({ ...valid, ...change }, Object.keys(problems));
    for (const [field, problem] of Object.entries(problems)) expect(errors[field]).toEqual([problem]);
  });

  it('POST /payout refuses an account number beside a beneficiary, naming only account_number', async () => {
    const errors = await expectRefused({ ...toBeneficiary, account_number: '0123456789' }, ['account_number']);
    expect(errors.account_number?.[0]).toMatch(/must not be given with beneficiary_id/);
  });

  it.each([
    ['a float', 10.5, /^must be a whole number of minor units \(a JSON integer\), got 10\.5$/],
    ['a string', '5000000', /got a string$/],
    ['past 2^53 - 1', 9_007_199_254_740_992, /^must be at most 9007199254740991 \(2\^53 - 1\)/],
    ['zero', 0, /^must be greater than 0, got 0$/],
    ['negative', -5_000, /^must be greater than 0, got -5000$/],
  ])('POST /payout refuses an amount that is %s, naming amount', async (_case, amount, problem) => {
    const errors = await expectRefused({ ...valid, amount }, ['amount']);
    expect(errors.amount?.[0]).toMatch(problem);
  });

  it('POST /payout takes the largest safe integer as it is', async () => {
    await payout({ ...valid, amount: Number.MAX_SAFE_INTEGER });
    expect(payments.calls[0]?.request.amount).toBe(9_007_199_254_740_991n);
  });

  it.each([
    [{ narration: '' }, 'narration', /must not be empty/],
    [{ narration: 'n'.repeat(101) }, 'narration', /^must be at most 100 characters$/],
    [{ narration: 'rent\u0007' }, 'narration', /control characters/],
    [{ reference: '' }, 'reference', /must not be empty/],
    [{ reference: 'r'.repeat(101) }, 'reference', /^must be at most 100 characters$/],
    [{ reference: 42 }, 'reference', /^must be a string, got 42$/],
    [{ currency: 'naira' }, 'currency', /^must be a currency code such as NGN, got "naira"$/],
    [{ bank_code: '05-8' }, 'bank_code', /^must be 3 to 11 letters or digits .*, got "05-8"$/],
    [{ bank_code: '05' }, 'bank_code', /3 to 11 letters or digits/],
    [{ bank_code: 'DEUTDEFFXXXX' }, 'bank_code', /3 to 11 letters or digits/],
    [{ bank_code: 58 }, 'bank_code', /^must be a bank code such as 058, got 58$/],
    [
      { account_number: '0123 456789' },
      'account_number',
      /^must be 4 to 34 letters or digits, without spaces or dashes/,
    ],
    [{ account_number: '123' }, 'account_number', /4 to 34 letters or digits/],
    [{ account_number: 'D'.repeat(35) }, 'account_number', /4 to 34 letters or digits/],
    [{ account_number: 123456789 }, 'account_number', /^must be an account number such as 0123456789, got 123456789$/],
    [{ save_beneficiary: 'true' }, 'save_beneficiary', /^must be true or false, got a string$/],
    [{ fee: 0 }, 'fee', /^is not a recognised field$/],
  ])('POST /payout refuses %j, naming %s', async (change, field, problem) => {
    const errors = await expectRefused({ ...valid, ...change }, [field]);
    expect(errors[field]?.[0]).toMatch(problem);
  });

  it('POST /payout refuses a beneficiary_id that is not a uuid, naming it', async () => {
    const errors = await expectRefused({ ...toBeneficiary, beneficiary_id: 'ben-1' }, ['beneficiary_id']);
    expect(errors.beneficiary_id).toEqual(['must be a uuid, got "ben-1"']);
  });

  it.each([['[]'], ['[{"amount":5000000}]']])('POST /payout refuses the JSON %s as a body', async (raw) => {
    expect(await expectRefused(raw, ['(body)'])).toEqual({ '(body)': ['must be a JSON object'] });
  });

  it.each([
    ['INSUFFICIENT_FUNDS', 'the NGN wallet has 1000.00 available, the payout needs 50050.00'],
    ['UNKNOWN_BANK', 'no bank 999'],
    ['INVALID_ACCOUNT_NUMBER', '0123456780 is not a valid NUBAN at 058: its check digit does not hold'],
    ['CURRENCY_MISMATCH', 'Guaranty Trust Bank holds NGN accounts, not USD'],
    ['PAYOUT_LIMIT_EXCEEDED', 'the daily NGN payout limit of 100000.00 would be exceeded'],
    ['BENEFICIARY_NOT_FOUND', `no beneficiary ${BENEFICIARY_ID} in this business`],
  ])("POST /payout answers payments' refusal %s as 422 with its code and message", async (code, message) => {
    payments.answers.set('createPayout', () => {
      throw invalidArgument(message, undefined, code);
    });
    expect(await payout(valid)).toEqual({ status: 422, body: { status: false, code, message } });
  });

  it('POST /payout answers 409 when the reference is already used', async () => {
    payments.answers.set('createPayout', () => {
      throw alreadyExists('REFERENCE_ALREADY_USED', 'reference payout-2041 is already used by another transaction');
    });
    expect(await payout(valid)).toMatchObject({ status: 409, body: { code: 'REFERENCE_ALREADY_USED' } });
  });

  it('GET /payout/{id} answers the payout, with payments asked for that id as the caller', async () => {
    const response = await payments.call('get', `/api/external/payout/${PAYOUT_ID}`);
    expect(response).toEqual({ status: 200, body: { message: 'payout retrieved', data: PAYOUT_JSON } });
    expect(payoutBody.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls[0]).toMatchObject({
      method: 'getPayout',
      request: { payoutId: PAYOUT_ID },
      caller: { businessId: BUSINESS_ID },
    });
  });

  it('GET /payout/{id} shows a reversed payout with its failure reason and both instants', async () => {
    const [done, returned] = [new Date('2026-11-21T09:00:03Z'), new Date('2026-11-21T09:00:05Z')];
    payments.answers.set('getPayout', () => ({
      transaction: payoutTransaction({
        status: PayoutStatus.REVERSED,
        failureCode: PayoutFailureCode.RETURNED_BY_BANK,
        beneficiaryId: BENEFICIARY_ID,
        completedAt: timestampFromDate(done),
        reversedAt: timestampFromDate(returned),
      }),
    }));
    expect((await payments.call('get', `/api/external/payout/${PAYOUT_ID}`)).body.data).toEqual({
      ...PAYOUT_JSON,
      status: 'reversed',
      failure_reason: 'returned_by_bank',
      beneficiary_id: BENEFICIARY_ID,
      completed_at: done.toISOString(),
      reversed_at: returned.toISOString(),
    });
  });

  it('GET /payout/{id} answers 404 for an id that is not a uuid, without asking payments', async () => {
    expect(await payments.call('get', '/api/external/payout/po_1')).toMatchObject({
      status: 404,
      body: { code: 'PAYOUT_NOT_FOUND' },
    });
    expect(payments.calls).toHaveLength(0);
  });

  it('GET /payout/{id} passes payments’ 404 on (another business’s payout looks missing)', async () => {
    payments.answers.set('getPayout', () => {
      throw notFound('PAYOUT_NOT_FOUND', `no payout ${PAYOUT_ID} in this business`);
    });
    expect(await payments.call('get', `/api/external/payout/${PAYOUT_ID}`)).toMatchObject({
      status: 404,
      body: { code: 'PAYOUT_NOT_FOUND', message: `no payout ${PAYOUT_ID} in this business` },
    });
  });

  it('answers 500, not a payout, when payments sends a status without a word or a transaction that is no payout', async () => {
    for (const transaction of [payoutTransaction({ status: PayoutStatus.UNSPECIFIED }), swapTransaction()]) {
      payments.answers.set('getPayout', () => ({ transaction }));
      expect(await payments.call('get', `/api/external/payout/${PAYOUT_ID}`)).toMatchObject({
        status: 500,
        body: { code: 'INTERNAL' },
      });
    }
  });
});
