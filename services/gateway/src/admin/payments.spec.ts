import { FeeOperation } from '@corridor/contracts/corridor/payments/v1/money_pb';
import { AdjustmentDirection } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { invalidArgument } from '@corridor/grpc';
import { adminUnderTest } from '../../test/admin/admin-listener.fixture.js';
import { startFakePayments } from '../../test/public/payments/fake-payments-service.js';
import { BUSINESS_ID, CREATED, TRANSACTION_ID, UPDATED } from '../../test/public/payments/payments.fixtures.js';
import { Transaction } from '../public/payments/response-schemas.js';

const ADMIN_TOKEN = 'admin-token-for-the-payments-admin-spec';

/** The admin listener as bootstrap builds it, over a fake payments. */
describe('admin payments: rates, spreads, fees, adjustments, the ledger check', () => {
  const backOffice = adminUnderTest(startFakePayments, (service) => service.clients, ADMIN_TOKEN, 'req-admin-payments');

  const admin = (method: string, path: string, body?: unknown, token?: string) =>
    backOffice.admin(method, path, body, token);

  /** The one call payments received: the method and request, for no business (Admin* name it). */
  const received = (method: string) => {
    expect(backOffice.calls).toHaveLength(1);
    expect(backOffice.calls[0]?.method).toBe(method);
    expect(backOffice.calls[0]?.caller.businessId).toBeUndefined();
    expect(backOffice.calls[0]?.caller).toMatchObject({ requestId: 'req-admin-payments', environment: 'sandbox' });
    return backOffice.calls[0]?.request;
  };

  /** 422 naming exactly `fields`, payments never asked. */
  const expectRefused = async (response: Awaited<ReturnType<typeof admin>>, fields: string[]) => {
    expect(response).toMatchObject({ status: 422, body: { status: false, code: 'VALIDATION_FAILED' } });
    expect(Object.keys(response.body.errors as object).sort()).toEqual([...fields].sort());
    expect(backOffice.calls).toHaveLength(0);
  };

  /**
   * A value payments checks (decision 0021) reaches it as sent, and its 422 is answered as is; the
   * request payments received.
   */
  const expectPassedOn = async (method: string, call: () => ReturnType<typeof admin>) => {
    const errors = { field: ['payments’ own problem'] };
    backOffice.answers.set(method, () => {
      throw invalidArgument('field payments’ own problem', errors);
    });
    expect(await call()).toEqual({
      status: 422,
      body: { status: false, code: 'VALIDATION_FAILED', message: 'field payments’ own problem', errors },
    });
    return received(method);
  };

  it('POST /admin/rates sets a mid-rate given as a decimal string', async () => {
    const response = await admin('POST', '/admin/rates', {
      base_currency: 'USD',
      quote_currency: 'NGN',
      rate: '1500.25',
    });
    expect(response).toEqual({
      status: 200,
      body: {
        base_currency: 'USD',
        quote_currency: 'NGN',
        rate: '1500.25',
        derived: false,
        updated_at: UPDATED.toISOString(),
      },
    });
    expect(received('adminSetRate')).toMatchObject({ baseCurrency: 'USD', quoteCurrency: 'NGN', rate: '1500.25' });
  });

  it.each([
    [{ rate: 1500.25 }, 'rate'],
    [{ base_currency: 5 }, 'base_currency'],
    [{ quote_currency: undefined }, 'quote_currency'],
    [{ spread: 5 }, 'spread'],
  ])('POST /admin/rates refuses %j naming %s', async (change, field) => {
    const body = { base_currency: 'USD', quote_currency: 'NGN', rate: '1500.25', ...change };
    await expectRefused(await admin('POST', '/admin/rates', body), [field]);
  });

  it.each([[{ rate: '1,500.25' }], [{ rate: '0' }], [{ rate: '1.1234567890123' }], [{ base_currency: 'usd' }]])(
    'POST /admin/rates passes %j to payments, which checks rates and currencies',
    async (change) => {
      const body = { base_currency: 'USD', quote_currency: 'NGN', rate: '1500.25', ...change };
      const request = await expectPassedOn('adminSetRate', () => admin('POST', '/admin/rates', body));
      expect(request).toMatchObject({ baseCurrency: body.base_currency, rate: body.rate });
    },
  );

  it('GET /admin/rates lists the mid-rates, derived ones marked, with the default spread', async () => {
    expect(await admin('GET', '/admin/rates')).toEqual({
      status: 200,
      body: {
        data: [
          {
            base_currency: 'USD',
            quote_currency: 'NGN',
            rate: '1533.74',
            derived: false,
            updated_at: CREATED.toISOString(),
          },
          {
            base_currency: 'NGN',
            quote_currency: 'USD',
            rate: '0.000652',
            derived: true,
            updated_at: CREATED.toISOString(),
          },
        ],
        default_spread_bps: 50,
      },
    });
    received('adminListRates');
  });

  it('PUT /admin/businesses/{id}/spread sets the business’s spread', async () => {
    const response = await admin('PUT', `/admin/businesses/${BUSINESS_ID}/spread`, { spread_bps: 75 });
    expect(response).toEqual({ status: 200, body: { business_id: BUSINESS_ID, spread_bps: 75 } });
    expect(received('adminSetSpread')).toMatchObject({ businessId: BUSINESS_ID, spreadBps: 75 });
  });

  // A uint32 cannot carry them: the gateway refuses them itself.
  it.each([[-1], [2.5], ['75'], [2 ** 32]])('PUT spread refuses spread_bps %j', async (spread) => {
    await expectRefused(await admin('PUT', `/admin/businesses/${BUSINESS_ID}/spread`, { spread_bps: spread }), [
      'spread_bps',
    ]);
  });

  it('PUT spread passes a spread to payments, which takes 0 to 5000', async () => {
    const path = `/admin/businesses/${BUSINESS_ID}/spread`;
    const request = await expectPassedOn('adminSetSpread', () => admin('PUT', path, { spread_bps: 10_001 }));
    expect(request).toMatchObject({ spreadBps: 10_001 });
  });

  it('answers 404 BUSINESS_NOT_FOUND for a path id that is not a uuid, without asking payments', async () => {
    for (const [method, path, body] of [
      ['PUT', '/admin/businesses/acme/spread', { spread_bps: 1 }],
      ['GET', '/admin/businesses/acme/wallets', undefined],
      ['POST', '/admin/businesses/acme/wallets/NGN/adjustments', { amount: 1, direction: 'credit', reason: 'x' }],
    ] as const) {
      expect(await admin(method, path, body)).toMatchObject({ status: 404, body: { code: 'BUSINESS_NOT_FOUND' } });
    }
    expect(backOffice.calls).toHaveLength(0);
  });

  it('PUT /admin/fees sets a business’s rule: the type as the proto enum, amounts as int64', async () => {
    const rule = {
      business_id: BUSINESS_ID,
      type: 'payout',
      currency: 'NGN',
      flat: 5_000,
      percentage_bps: 100,
      minimum: 10_000,
      maximum: null,
    };
    const response = await admin('PUT', '/admin/fees', rule);
    expect(response).toEqual({ status: 200, body: { ...rule, updated_at: UPDATED.toISOString() } });
    expect(received('adminSetFeeRule')).toMatchObject({
      rule: {
        businessId: BUSINESS_ID,
        operation: FeeOperation.PAYOUT,
        flat: 5_000n,
        percentageBps: 100,
        minimum: 10_000n,
      },
    });
    expect((backOffice.calls[0]?.request.rule as { maximum?: bigint }).maximum).toBeUndefined();
  });

  it('PUT /admin/fees without business_id sets the default rule, answered with business_id null', async () => {
    const response = await admin('PUT', '/admin/fees', { type: 'swap', currency: 'NGN', flat: 0, percentage_bps: 50 });
    expect(response.body).toMatchObject({ business_id: null, type: 'swap', minimum: null, maximum: null });
    expect(received('adminSetFeeRule')).toMatchObject({ rule: { businessId: '', operation: FeeOperation.SWAP } });
  });

  it('PUT /admin/fees names every problem of JSON type and shape at once', async () => {
    const response = await admin('PUT', '/admin/fees', {
      business_id: 5,
      type: 'transfer',
      flat: '1',
      percentage_bps: -1,
      minimum: 1.5,
    });
    await expectRefused(response, ['business_id', 'type', 'currency', 'flat', 'percentage_bps', 'minimum']);
    // '' would reach payments as "no business": the default rule.
    await expectRefused(
      await admin('PUT', '/admin/fees', { business_id: '', type: 'swap', currency: 'NGN', flat: 0, percentage_bps: 0 }),
      ['business_id'],
    );
  });

  it('PUT /admin/fees passes the values payments checks as sent: business_id, currency, signs, caps', async () => {
    const rule = {
      business_id: 'acme',
      type: 'payout',
      currency: 'ngn',
      flat: -1,
      percentage_bps: 10_001,
      minimum: 5,
      maximum: 1,
    };
    const request = await expectPassedOn('adminSetFeeRule', () => admin('PUT', '/admin/fees', rule));
    expect(request).toMatchObject({
      rule: { businessId: 'acme', currency: 'ngn', flat: -1n, percentageBps: 10_001, minimum: 5n, maximum: 1n },
    });
  });

  it('GET /admin/fees lists the rules, optionally of one business; a malformed business_id is 422', async () => {
    const response = await admin('GET', `/admin/fees?business_id=${BUSINESS_ID}`);
    expect(response).toEqual({
      status: 200,
      body: {
        data: [
          {
            business_id: null,
            type: 'swap',
            currency: 'NGN',
            flat: 0,
            percentage_bps: 150,
            minimum: null,
            maximum: null,
            updated_at: CREATED.toISOString(),
          },
        ],
      },
    });
    expect(received('adminListFeeRules')).toMatchObject({ businessId: BUSINESS_ID });
    backOffice.calls.length = 0;
    await expectRefused(await admin('GET', '/admin/fees?business_id='), ['business_id']);
    await expectRefused(await admin('GET', '/admin/fees?type=swap'), ['type']);
    const request = await expectPassedOn('adminListFeeRules', () => admin('GET', '/admin/fees?business_id=acme'));
    expect(request).toMatchObject({ businessId: 'acme' });
  });

  it('POST adjustments credits through the ledger as "admin" and answers 201 with the ADJUSTMENT', async () => {
    const response = await admin('POST', `/admin/businesses/${BUSINESS_ID}/wallets/NGN/adjustments`, {
      amount: 500_000,
      direction: 'credit',
      reason: 'opening balance',
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ id: TRANSACTION_ID, type: 'ADJUSTMENT', amount: 500_000, net: 500_000 });
    expect(Transaction.safeParse(response.body).error).toBeUndefined();
    expect(received('adminAdjustWallet')).toMatchObject({
      businessId: BUSINESS_ID,
      currency: 'NGN',
      amount: 500_000n,
      direction: AdjustmentDirection.CREDIT,
      reason: 'opening balance',
      actor: 'admin',
    });
  });

  it.each([
    [{ amount: 10.5, direction: 'debit', reason: 'x' }, ['amount']],
    [{ amount: 100, direction: 'debit', reason: 'rubout\u007f' }, ['reason']],
    [{ amount: 100, direction: 'down', reason: 'x' }, ['direction']],
    [{ amount: 100, direction: 'debit' }, ['reason']],
    [{ amount: 100, direction: 'debit', reason: 'x', actor: 'mallory' }, ['actor']],
  ])('POST adjustments refuses %j naming %j', async (body, fields) => {
    await expectRefused(await admin('POST', `/admin/businesses/${BUSINESS_ID}/wallets/NGN/adjustments`, body), fields);
  });

  it('POST adjustments passes the wallet currency, amount and reason to payments, which checks them', async () => {
    const body = { amount: 0, direction: 'debit', reason: ' ' };
    const path = `/admin/businesses/${BUSINESS_ID}/wallets/ngn/adjustments`;
    const request = await expectPassedOn('adminAdjustWallet', () => admin('POST', path, body));
    expect(request).toMatchObject({ currency: 'ngn', amount: 0n, reason: ' ' });
  });

  it('POST adjustments passes payments’ refusals on with their code', async () => {
    const body = { amount: 100, direction: 'debit', reason: 'correction' };
    backOffice.answers.set('adminAdjustWallet', () => {
      throw invalidArgument('the NGN wallet has 0.00 available', undefined, 'INSUFFICIENT_FUNDS');
    });
    expect(await admin('POST', `/admin/businesses/${BUSINESS_ID}/wallets/NGN/adjustments`, body)).toMatchObject({
      status: 422,
      body: { code: 'INSUFFICIENT_FUNDS' },
    });
  });

  it('GET /admin/businesses/{id}/wallets lists the business’s wallets', async () => {
    const response = await admin('GET', `/admin/businesses/${BUSINESS_ID}/wallets`);
    expect(response).toEqual({
      status: 200,
      body: {
        data: [
          {
            currency: 'NGN',
            available_balance: 84_250_000,
            pending_balance: 150_750,
            ledger_balance: 84_400_750,
            updated_at: UPDATED.toISOString(),
          },
        ],
      },
    });
    expect(received('adminListWallets')).toMatchObject({ businessId: BUSINESS_ID });
  });

  it('GET /admin/ledger/check answers the invariants’ verdict with every violation named', async () => {
    expect((await admin('GET', '/admin/ledger/check')).body).toEqual({
      ok: true,
      violations: [],
      accounts_checked: 12,
      transfers_checked: 40,
      checked_at: UPDATED.toISOString(),
    });
    backOffice.answers.set('adminCheckLedger', () => ({
      ok: false,
      violations: [{ rule: 'wallet_negative', currency: 'NGN', account: 'wallet:b001:NGN', detail: 'available -100' }],
      accountsChecked: 12n,
      transfersChecked: 41n,
      checkedAt: { seconds: 1_800_000_000n, nanos: 0 },
    }));
    expect((await admin('GET', '/admin/ledger/check')).body).toMatchObject({
      ok: false,
      violations: [{ rule: 'wallet_negative', currency: 'NGN', account: 'wallet:b001:NGN', detail: 'available -100' }],
    });
  });

  it('refuses a caller without the admin token before calling payments', async () => {
    expect(await admin('GET', '/admin/ledger/check', undefined, 'wrong')).toMatchObject({
      status: 401,
      body: { code: 'ADMIN_TOKEN_INVALID' },
    });
    expect(backOffice.calls).toHaveLength(0);
  });
});
