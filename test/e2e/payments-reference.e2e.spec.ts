import { expectError, Platform } from '../support/platform.js';
import {
  CURRENCIES,
  rateUnits,
  type FeesJson,
  type PaymentsCaller,
  type QuoteJson,
  type TransactionJson,
  type WalletJson,
} from '../support/payments.js';

const OPERATIONS = ['swap', 'collection', 'payout', 'virtual_account'];
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The mid-rate less `spreadBps`, rounded down at 12 decimals (the business never gains a fraction). */
const lessSpread = (mid: bigint, spreadBps: number) => (mid * BigInt(10_000 - spreadBps)) / 10_000n;

/** The five currencies' wallets, all at zero: what a business sees before any money moves. */
const zeroWallets = () =>
  CURRENCIES.map((currency) =>
    expect.objectContaining({ currency, available_balance: 0, pending_balance: 0, ledger_balance: 0 }),
  );

/**
 * The reference data a platform reads before moving money (DESIGN.md "Payments"): currencies, the
 * business's rates with its spread, fee breakdowns from the back office's schedule, and wallets.
 */
describe('payments: currencies, rates, fees and wallets through the gateway', () => {
  const platform = new Platform();
  const api = platform.payments;
  let caller: PaymentsCaller;

  beforeAll(async () => {
    await platform.start();
    caller = await api.caller();
    await api.setRate('USD', 'NGN', '1500.25');
  });
  // Check the books after every suite (DESIGN.md "The books always balance").
  afterAll(async () => {
    try {
      if (platform.started) await api.expectBooksBalance();
    } finally {
      await platform.stop();
    }
  });

  describe('GET /currency', () => {
    it('lists NGN, USD, GBP, EUR and CAD, each with exponent 2 and the operations it supports', async () => {
      const response = await api.call(caller.token, 'GET', '/currency');
      const body = (await response.json()) as {
        message: string;
        data: { code: string; name: string; exponent: number; operations: string[] }[];
      };
      expect(response.status).toBe(200);
      expect(typeof body.message).toBe('string');
      const codes = body.data.map((currency) => currency.code);
      expect(new Set(codes).size).toBe(codes.length);
      expect(codes).toEqual(expect.arrayContaining([...CURRENCIES]));
      for (const code of CURRENCIES) {
        const currency = body.data.find((c) => c.code === code);
        expect(currency).toEqual({ code, name: expect.any(String), exponent: 2, operations: expect.any(Array) });
        expect(currency?.operations).toContain('swap');
        for (const operation of currency?.operations ?? []) expect(OPERATIONS).toContain(operation);
      }
    });
  });

  describe('GET /rates', () => {
    it('quotes the mid-rate less the default spread, with a quote id valid for QUOTE_TTL_SECONDS (60)', async () => {
      const { default_spread_bps: defaultSpread } = (await (await platform.admin('/admin/rates')).json()) as {
        default_spread_bps: number;
      };
      expect(defaultSpread).toBe(50);
      const quote = await api.quote(caller.token, 'USD', 'NGN');
      expect(quote).toEqual({
        quote_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        from_currency: 'USD',
        to_currency: 'NGN',
        rate: expect.any(String),
        mid_rate: '1500.25',
        spread_bps: 50,
        created_at: expect.stringMatching(ISO_INSTANT),
        expires_at: expect.stringMatching(ISO_INSTANT),
      });
      // 1500.25 less 0.5 % is 1492.74875 exactly.
      expect(rateUnits(quote.rate)).toBe(rateUnits('1492.74875'));
      expect(Date.parse(quote.expires_at) - Date.parse(quote.created_at)).toBe(60_000);
    });

    it('applies a business’s own spread, and the reverse pair is derived from the mid-rate set one way', async () => {
      const own = await api.caller();
      await api.setSpread(own.businessId, 120);
      const forward = await api.quote(own.token, 'USD', 'NGN');
      expect(forward.spread_bps).toBe(120);
      expect(rateUnits(forward.rate)).toBe(lessSpread(rateUnits('1500.25'), 120));

      const reverse = await api.quote(own.token, 'NGN', 'USD');
      // 1 / 1500.25, rounded down to 12 decimals, then the spread.
      const derivedMid = 10n ** 24n / rateUnits('1500.25');
      expect(rateUnits(reverse.mid_rate)).toBe(derivedMid);
      expect(rateUnits(reverse.rate)).toBe(lessSpread(derivedMid, 120));
      // Another business keeps the default.
      expect((await api.quote(caller.token, 'USD', 'NGN')).spread_bps).toBe(50);
    });

    it('a quote id can be named by a swap, which then uses the quoted rate', async () => {
      const funded = await api.caller();
      await api.fund(funded.businessId, 'USD', 100_00);
      const quote: QuoteJson = await api.quote(funded.token, 'USD', 'NGN');
      const swap = await api.swap(funded.token, {
        from_currency: 'USD',
        to_currency: 'NGN',
        amount: 10_00,
        quote_id: quote.quote_id,
      });
      expect(swap.swap_details).toMatchObject({ quote_id: quote.quote_id, rate: quote.rate });
    });

    it('a pair without a rate is 422 UNSUPPORTED_PAIR; an unknown currency is 422 UNKNOWN_CURRENCY', async () => {
      await expectError(await api.call(caller.token, 'GET', '/rates?from=CAD&to=GBP'), 422, {
        code: 'UNSUPPORTED_PAIR',
        message: /CAD.*GBP/,
      });
      await expectError(await api.call(caller.token, 'GET', '/rates?from=USD&to=XYZ'), 422, {
        code: 'UNKNOWN_CURRENCY',
        message: /XYZ/,
      });
    });
  });

  describe('GET /fees', () => {
    const fees = (who: PaymentsCaller, amount: number): Promise<FeesJson> =>
      api.fees(who.token, 'payout', 'NGN', amount);

    beforeAll(async () => {
      // The default NGN payout rule: ₦10 + 1.5 %, at least ₦15, at most ₦500.
      const rule = await api.setFeeRule({
        business_id: null,
        type: 'payout',
        currency: 'NGN',
        flat: 1000,
        percentage_bps: 150,
        minimum: 1500,
        maximum: 50000,
      });
      expect(rule).toEqual({
        business_id: null,
        type: 'payout',
        currency: 'NGN',
        flat: 1000,
        percentage_bps: 150,
        minimum: 1500,
        maximum: 50000,
        updated_at: expect.stringMatching(ISO_INSTANT),
      });
    });

    it('breaks the fee down into flat and percentage, the percentage rounded half up to a minor unit', async () => {
      expect(await fees(caller, 100_000)).toEqual({
        type: 'payout',
        currency: 'NGN',
        amount: 100_000,
        flat: 1000,
        percentage_bps: 150,
        percentage_amount: 1500,
        minimum: 1500,
        maximum: 50000,
        total: 2500,
      });
      // 1.5 % of 66 667 is 1 000.005: rounded to 1 000.
      expect(await fees(caller, 66_667)).toMatchObject({ percentage_amount: 1000, total: 2000 });
      // 1.5 % of 70 030 is 1 050.45 → 1 050; of 70 070, 1 051.05 → 1 051; of 70 100, 1 051.5 → 1 052.
      expect((await fees(caller, 70_030)).percentage_amount).toBe(1050);
      expect((await fees(caller, 70_070)).percentage_amount).toBe(1051);
      expect((await fees(caller, 70_100)).percentage_amount).toBe(1052);
    });

    it('raises a small fee to the minimum and caps a large one at the maximum', async () => {
      expect(await fees(caller, 10_000)).toMatchObject({ flat: 1000, percentage_amount: 150, total: 1500 });
      expect(await fees(caller, 10_000_000)).toMatchObject({ flat: 1000, percentage_amount: 150_000, total: 50_000 });
    });

    it('a business’s own rule wins over the default, for that business only', async () => {
      const own = await api.caller();
      await api.setFeeRule({
        business_id: own.businessId,
        type: 'payout',
        currency: 'NGN',
        flat: 0,
        percentage_bps: 10,
      });
      expect(await fees(own, 100_000)).toEqual({
        type: 'payout',
        currency: 'NGN',
        amount: 100_000,
        flat: 0,
        percentage_bps: 10,
        percentage_amount: 100,
        minimum: null,
        maximum: null,
        total: 100,
      });
      expect((await fees(caller, 100_000)).total).toBe(2500);
      const listed = (await (await platform.admin(`/admin/fees?business_id=${own.businessId}`)).json()) as {
        data: Record<string, unknown>[];
      };
      expect(listed.data).toContainEqual(
        expect.objectContaining({ business_id: own.businessId, type: 'payout', currency: 'NGN', percentage_bps: 10 }),
      );
    });

    it('a bad type, currency or amount is 422 naming the parameter', async () => {
      for (const [query, parameter] of [
        ['type=lunch&currency=NGN&amount=100', 'type'],
        ['type=payout&currency=XYZ&amount=100', 'currency'],
        ['type=payout&currency=NGN&amount=-1', 'amount'],
        ['type=payout&currency=NGN&amount=1.5', 'amount'],
      ] as const) {
        const body = await expectError(await api.call(caller.token, 'GET', `/fees?${query}`), 422);
        expect({ query, message: body.message }).toEqual({ query, message: expect.stringContaining(parameter) });
      }
    });
  });

  describe('GET /wallet', () => {
    it('shows a wallet in every currency, all at zero, before any money moves', async () => {
      const fresh = await api.caller();
      const wallets: WalletJson[] = await api.wallets(fresh.token);
      expect(wallets).toHaveLength(CURRENCIES.length);
      expect(wallets).toEqual(expect.arrayContaining(zeroWallets()));
    });

    it('shows an admin credit at once, and the credit is an ADJUSTMENT transaction of the business', async () => {
      const funded = await api.caller();
      const credit: TransactionJson = await api.fund(funded.businessId, 'NGN', 250_000);
      expect(credit).toMatchObject({
        type: 'ADJUSTMENT',
        status: 'SUCCESSFUL',
        currency: 'NGN',
        amount: 250_000,
        fee: 0,
        net: 250_000,
        refund_status: null,
        swap_details: null,
      });
      const ngn = await api.wallet(funded.token, 'NGN');
      expect(ngn).toMatchObject({ available_balance: 250_000, pending_balance: 0, ledger_balance: 250_000 });
      expect(ngn.updated_at).toMatch(ISO_INSTANT);
      // The other wallets are untouched, and the back office sees the same balances.
      const others = (await api.wallets(funded.token)).filter((wallet) => wallet.currency !== 'NGN');
      expect(others.every((wallet) => wallet.available_balance === 0 && wallet.ledger_balance === 0)).toBe(true);
      const admin = await api.adminWallets(funded.businessId);
      expect(admin.find((wallet) => wallet.currency === 'NGN')).toMatchObject({ available_balance: 250_000 });
      // The public read of the transaction agrees.
      expect(await api.transaction(funded.token, credit.id)).toMatchObject({
        id: credit.id,
        type: 'ADJUSTMENT',
        amount: 250_000,
        net: 250_000,
        created_at: credit.created_at,
      });
    });

    it('an admin debit lowers the balance; a debit beyond it is 422 INSUFFICIENT_FUNDS and moves nothing', async () => {
      const funded = await api.caller();
      await api.fund(funded.businessId, 'GBP', 50_000);
      const debit = await api.adjustment(funded.businessId, 'GBP', {
        amount: 20_000,
        direction: 'debit',
        reason: 'chargeback',
      });
      expect(debit.status).toBe(201);
      expect(await debit.json()).toMatchObject({ type: 'ADJUSTMENT', amount: -20_000, net: -20_000, fee: 0 });
      expect(await api.wallet(funded.token, 'GBP')).toMatchObject({
        available_balance: 30_000,
        ledger_balance: 30_000,
      });

      await expectError(
        await api.adjustment(funded.businessId, 'GBP', { amount: 30_001, direction: 'debit', reason: 'too much' }),
        422,
        { code: 'INSUFFICIENT_FUNDS' },
      );
      expect(await api.wallet(funded.token, 'GBP')).toMatchObject({
        available_balance: 30_000,
        ledger_balance: 30_000,
      });
    });
  });
});
