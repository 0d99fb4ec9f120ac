import { FeeOperation } from '@corridor/contracts/corridor/payments/v1/money_pb';
import { DomainError, invalidArgument, Status } from '@corridor/grpc';
import { CATALOGUE_ROUTES, currencyListBody, feeBreakdownBody, rateQuoteBody } from './catalogue-routes.js';
import { paymentRoutesUnderTest } from '../../../test/public/payments/fake-payments-service.js';
import {
  BUSINESS_ID,
  CREATED,
  EXPIRES,
  feeBreakdown,
  QUOTE_ID,
} from '../../../test/public/payments/payments.fixtures.js';

/** GET /currency, /rates and /fees against payments over real gRPC (a fake service on loopback). */
describe('the currency, rate and fee routes', () => {
  const payments = paymentRoutesUnderTest(CATALOGUE_ROUTES, ['currency:read', 'rates:read', 'fees:read']);

  const get = (path: string) => payments.call('get', path, undefined, { 'x-request-id': 'req-catalogue' });

  /** The one call payments received, made for BUSINESS_ID. */
  const received = () => {
    expect(payments.calls).toHaveLength(1);
    expect(payments.calls[0]?.caller).toMatchObject({ businessId: BUSINESS_ID, requestId: 'req-catalogue' });
    return payments.calls[0];
  };

  /** 422 VALIDATION_FAILED naming exactly `fields`, and payments never asked. */
  const expectRefused = async (path: string, fields: string[]) => {
    const response = await get(path);
    expect(response).toMatchObject({ status: 422, body: { status: false, code: 'VALIDATION_FAILED' } });
    expect(Object.keys(response.body.errors as object).sort()).toEqual([...fields].sort());
    expect(response.body.message).toMatch(new RegExp(`^(${fields.join('|')}) `));
    expect(payments.calls).toHaveLength(0);
    return response.body.errors as Record<string, string[]>;
  };

  it('requires currency:read, rates:read and fees:read', () => {
    expect(CATALOGUE_ROUTES.map((route) => [route.method, route.path, route.scope])).toEqual([
      ['get', '/api/external/currency', 'currency:read'],
      ['get', '/api/external/rates', 'rates:read'],
      ['get', '/api/external/fees', 'fees:read'],
    ]);
  });

  it('GET /currency answers every currency with its exponent and operations in words', async () => {
    const response = await get('/api/external/currency');
    expect(response).toEqual({
      status: 200,
      body: {
        message: 'currencies retrieved',
        data: [
          {
            code: 'NGN',
            name: 'Nigerian Naira',
            exponent: 2,
            operations: ['swap', 'collection', 'payout', 'virtual_account'],
          },
          { code: 'USD', name: 'US Dollar', exponent: 2, operations: ['swap'] },
        ],
      },
    });
    expect(currencyListBody.safeParse(response.body).error).toBeUndefined();
    expect(received()?.method).toBe('listCurrencies');
  });

  it('GET /currency refuses a query parameter it does not take', async () => {
    const errors = await expectRefused('/api/external/currency?code=NGN', ['code']);
    expect(errors.code).toEqual(['is not a recognised query parameter; this endpoint takes none']);
  });

  it('GET /rates asks payments for the pair and answers the quote', async () => {
    const response = await get('/api/external/rates?from=NGN&to=USD');
    expect(response).toEqual({
      status: 200,
      body: {
        message: 'rate retrieved',
        data: {
          quote_id: QUOTE_ID,
          from_currency: 'NGN',
          to_currency: 'USD',
          rate: '0.000649',
          mid_rate: '0.000652',
          spread_bps: 50,
          created_at: CREATED.toISOString(),
          expires_at: EXPIRES.toISOString(),
        },
      },
    });
    expect(rateQuoteBody.safeParse(response.body).error).toBeUndefined();
    expect(received()).toMatchObject({ method: 'quoteRate', request: { fromCurrency: 'NGN', toCurrency: 'USD' } });
  });

  it.each([
    ['?to=USD', ['from']],
    ['?from=NGN&to=usd', ['to']],
    ['?from=NGN&to=USD&to=EUR', ['to']],
    ['?from=NGN&to=USD&amount=5', ['amount']],
    ['', ['from', 'to']],
  ])('GET /rates%s is 422 naming %j', async (query, fields) => {
    await expectRefused(`/api/external/rates${query}`, fields);
  });

  it('GET /rates passes payments’ refusal of a pair on as it is', async () => {
    payments.answers.set('quoteRate', () => {
      throw invalidArgument('Corridor has no rate from NGN to XAF', undefined, 'UNSUPPORTED_PAIR');
    });
    expect(await get('/api/external/rates?from=NGN&to=XAF')).toMatchObject({
      status: 422,
      body: { code: 'UNSUPPORTED_PAIR', message: 'Corridor has no rate from NGN to XAF' },
    });
  });

  it('GET /fees sends the type as the proto enum and the amount as int64, and answers the breakdown', async () => {
    payments.answers.set('getFees', () => ({
      fees: feeBreakdown({ operation: FeeOperation.REFUND, maximum: 500_000n }),
    }));
    const response = await get('/api/external/fees?type=refund&currency=NGN&amount=15000000');
    expect(response).toEqual({
      status: 200,
      body: {
        message: 'fees retrieved',
        data: {
          type: 'refund',
          currency: 'NGN',
          amount: 15_000_000,
          flat: 0,
          percentage_bps: 150,
          percentage_amount: 225_000,
          minimum: 10_000,
          maximum: 500_000,
          total: 225_000,
        },
      },
    });
    expect(feeBreakdownBody.safeParse(response.body).error).toBeUndefined();
    expect(received()).toMatchObject({
      method: 'getFees',
      request: { operation: FeeOperation.REFUND, currency: 'NGN', amount: 15_000_000n },
    });
  });

  it('GET /fees answers a cap the rule does not have as null', async () => {
    const response = await get('/api/external/fees?type=swap&currency=NGN&amount=100');
    expect(response.body.data).toMatchObject({ minimum: 10_000, maximum: null });
  });

  it.each([
    [
      'type=exchange&currency=NGN&amount=100',
      'type',
      /^must be one of swap, collection, payout, refund, got "exchange"$/,
    ],
    ['type=SWAP&currency=NGN&amount=100', 'type', /must be one of swap/],
    ['type=swap&currency=NGN&amount=10.5', 'amount', /whole number of minor units/],
    ['type=swap&currency=NGN&amount=1e400', 'amount', /whole number of minor units/],
    ['type=swap&currency=NGN&amount=9007199254740992', 'amount', /from 1 to 9007199254740991/],
    ['type=swap&currency=NGN&amount=0', 'amount', /from 1 to/],
    ['type=swap&currency=NGN&amount=-5', 'amount', /whole number/],
    ['type=swap&currency=NGN&amount=', 'amount', /whole number/],
    ['type=swap&currency=NGN', 'amount', /^is required$/],
    // NUL is refused by the gateway's input boundary before the route's own check (issue 18).
    ['type=swap&currency=N%00N&amount=1', 'currency', /control characters/],
  ])('GET /fees?%s is 422 naming %s', async (query, field, problem) => {
    const errors = await expectRefused(`/api/external/fees?${query}`, [field]);
    expect(errors[field]?.[0]).toMatch(problem);
  });

  it('answers 500, not a rounded amount, when payments sends a fee past 2^53 - 1', async () => {
    payments.answers.set('getFees', () => ({ fees: feeBreakdown({ total: 2n ** 60n }) }));
    expect(await get('/api/external/fees?type=swap&currency=NGN&amount=100')).toMatchObject({
      status: 500,
      body: { code: 'INTERNAL' },
    });
  });

  it('answers 503 when payments is down', async () => {
    payments.answers.set('listCurrencies', () => {
      throw new DomainError(Status.UNAVAILABLE, 'UNAVAILABLE', 'connection refused');
    });
    expect(await get('/api/external/currency')).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE' } });
  });
});
