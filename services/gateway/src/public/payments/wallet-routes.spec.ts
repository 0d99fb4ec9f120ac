import { AmountSide } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { alreadyExists, invalidArgument } from '@corridor/grpc';
import { paymentRoutesUnderTest } from '../../../test/public/payments/fake-payments-service.js';
import {
  BUSINESS_ID,
  QUOTE_ID,
  SWAP_JSON,
  TRANSACTION_ID,
  UPDATED,
} from '../../../test/public/payments/payments.fixtures.js';
import { swapCreatedBody, walletListBody, WALLET_ROUTES } from './wallet-routes.js';

/** GET /wallet and POST /swap against payments over real gRPC (a fake service on loopback). */
describe('the wallet and swap routes (seed 4.4)', () => {
  const payments = paymentRoutesUnderTest(WALLET_ROUTES, ['wallet:read', 'swap:create']);

  const swap = (body: unknown) => payments.call('post', '/api/external/swap', body, { 'x-request-id': 'req-swap' });
  const valid = { from_currency: 'NGN', to_currency: 'USD', amount: 15_000_000 };

  /** 422 VALIDATION_FAILED naming exactly `fields`, and payments never asked. */
  const expectRefused = async (body: unknown, fields: string[]) => {
    const response = await swap(body);
    expect(response).toMatchObject({ status: 422, body: { status: false, code: 'VALIDATION_FAILED' } });
    expect(Object.keys(response.body.errors as object).sort()).toEqual([...fields].sort());
    expect(payments.calls).toHaveLength(0);
    return response.body.errors as Record<string, string[]>;
  };

  it('requires wallet:read to read wallets and swap:create to swap', () => {
    expect(WALLET_ROUTES.map((route) => [route.method, route.path, route.scope])).toEqual([
      ['get', '/api/external/wallet', 'wallet:read'],
      ['post', '/api/external/swap', 'swap:create'],
    ]);
  });

  it('GET /wallet answers each wallet’s balances in minor units; a wallet never used has updated_at null', async () => {
    const response = await payments.call('get', '/api/external/wallet');
    expect(response).toEqual({
      status: 200,
      body: {
        message: 'wallets retrieved',
        data: [
          {
            currency: 'NGN',
            available_balance: 84_250_000,
            pending_balance: 150_750,
            ledger_balance: 84_400_750,
            updated_at: UPDATED.toISOString(),
          },
          {
            currency: 'USD',
            available_balance: 84_250_000,
            pending_balance: 150_750,
            ledger_balance: 84_400_750,
            updated_at: null,
          },
        ],
      },
    });
    expect(walletListBody.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls[0]).toMatchObject({ method: 'listWallets', caller: { businessId: BUSINESS_ID } });
  });

  it('GET /wallet refuses a query parameter it does not take', async () => {
    const response = await payments.call('get', '/api/external/wallet?currency=NGN');
    expect(response).toMatchObject({ status: 422, body: { errors: { currency: [expect.any(String)] } } });
    expect(payments.calls).toHaveLength(0);
  });

  it('POST /swap sends typed values (amount as int64, amount_side from by default) and answers 201 with the SWAP', async () => {
    const response = await swap(valid);
    expect(response).toEqual({ status: 201, body: { message: 'swap created', data: SWAP_JSON } });
    expect(swapCreatedBody.safeParse(response.body).error).toBeUndefined();
    expect(payments.calls).toHaveLength(1);
    const [call] = payments.calls;
    expect(call?.method).toBe('createSwap');
    expect(call?.request).toMatchObject({
      fromCurrency: 'NGN',
      toCurrency: 'USD',
      amount: 15_000_000n,
      amountSide: AmountSide.FROM,
    });
    expect(call?.request.quoteId).toBeUndefined();
    expect(call?.request.reference).toBeUndefined();
    expect(call?.caller).toMatchObject({ businessId: BUSINESS_ID, requestId: 'req-swap' });
  });

  it('POST /swap passes amount_side "to", the quote and the reference', async () => {
    await swap({ ...valid, amount: 9_735, amount_side: 'to', quote_id: QUOTE_ID, reference: 'inv-2041' });
    expect(payments.calls[0]?.request).toMatchObject({
      amount: 9_735n,
      amountSide: AmountSide.TO,
      quoteId: QUOTE_ID,
      reference: 'inv-2041',
    });
  });

  it('POST /swap takes the largest safe integer as it is', async () => {
    await swap({ ...valid, amount: Number.MAX_SAFE_INTEGER });
    expect(payments.calls[0]?.request.amount).toBe(9_007_199_254_740_991n);
  });

  it('POST /swap names every missing field at once', async () => {
    const errors = await expectRefused({}, ['from_currency', 'to_currency', 'amount']);
    expect(errors).toEqual({ from_currency: ['is required'], to_currency: ['is required'], amount: ['is required'] });
    await expectRefused(undefined, ['from_currency', 'to_currency', 'amount']);
  });

  it.each([
    ['a float', 10.5, /^must be a whole number of minor units \(a JSON integer\), got 10\.5$/],
    ['a string', '15000', /^must be a whole number of minor units \(a JSON integer\), got a string$/],
    ['past 2^53 - 1', 9_007_199_254_740_992, /^must be at most 9007199254740991 \(2\^53 - 1\)/],
    ['zero', 0, /^must be greater than 0, got 0$/],
    ['negative', -100, /^must be greater than 0, got -100$/],
    ['null', null, /got null$/],
    ['a boolean', true, /got a boolean$/],
  ])('POST /swap refuses an amount that is %s, naming amount', async (_case, amount, problem) => {
    const errors = await expectRefused({ ...valid, amount }, ['amount']);
    expect(errors.amount?.[0]).toMatch(problem);
  });

  it('POST /swap refuses 1e400 (Infinity once parsed) and a 20-digit integer (rounded once parsed)', async () => {
    for (const amount of ['1e400', '123456789012345678901']) {
      const raw = `{"from_currency":"NGN","to_currency":"USD","amount":${amount}}`;
      const errors = await expectRefused(raw, ['amount']);
      expect(errors.amount?.[0]).toMatch(/whole number of minor units|at most 9007199254740991|reads back as sent/);
    }
  });

  it.each([
    [{ amount_side: 'both' }, 'amount_side', /^must be one of from, to, got "both"$/],
    [{ amount_side: 'FROM' }, 'amount_side', /must be one of from, to/],
    [{ quote_id: 'quote-1' }, 'quote_id', /^must be a uuid, got "quote-1"$/],
    [{ quote_id: 42 }, 'quote_id', /must be a uuid/],
    [{ from_currency: 7 }, 'from_currency', /^must be a currency code such as NGN, got 7$/],
    [{ to_currency: ['USD'] }, 'to_currency', /got an array$/],
    [{ reference: '' }, 'reference', /must not be empty/],
    [{ reference: 'a'.repeat(101) }, 'reference', /at most 100 characters/],
    [{ reference: 'inv\u0000' }, 'reference', /control characters/],
    [{ fee: 10 }, 'fee', /^is not a recognised field$/],
  ])('POST /swap refuses %j, naming %s', async (change, field, problem) => {
    const errors = await expectRefused({ ...valid, ...change }, [field]);
    expect(errors[field]?.[0]).toMatch(problem);
  });

  it('POST /swap names an unknown property even when it is called __proto__', async () => {
    const raw = '{"from_currency":"NGN","to_currency":"USD","amount":100,"__proto__":{"admin":true}}';
    const errors = await expectRefused(raw, ['__proto__']);
    expect(Object.getOwnPropertyDescriptor(errors, '__proto__')?.value).toEqual(['is not a recognised field']);
  });

  it.each([['[]'], ['[{"amount":1}]']])('POST /swap refuses the JSON array %s as a body', async (raw) => {
    expect(await expectRefused(raw, ['(body)'])).toEqual({ '(body)': ['must be a JSON object'] });
  });

  it("POST /swap answers payments' refusals in the error contract: 422 with its code, 409", async () => {
    payments.answers.set('createSwap', () => {
      throw invalidArgument(
        'the NGN wallet has 1000.00 available, the swap needs 150750.00',
        undefined,
        'INSUFFICIENT_FUNDS',
      );
    });
    expect(await swap(valid)).toEqual({
      status: 422,
      body: {
        status: false,
        code: 'INSUFFICIENT_FUNDS',
        message: 'the NGN wallet has 1000.00 available, the swap needs 150750.00',
      },
    });
    payments.answers.set('createSwap', () => {
      throw alreadyExists('REFERENCE_ALREADY_USED', 'reference inv-2041 is already used by another transaction');
    });
    expect(await swap({ ...valid, reference: 'inv-2041' })).toMatchObject({
      status: 409,
      body: { code: 'REFERENCE_ALREADY_USED' },
    });
  });

  it('POST /swap says where the new transaction can be read', async () => {
    const response = await fetch(`${payments.base}/api/external/swap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(valid),
    });
    expect(response.headers.get('location')).toBe(`/api/external/transaction/${TRANSACTION_ID}`);
  });
});
