import { randomUUID } from 'node:crypto';
import { expectInvalid } from '../support/customers.js';
import { expectError, Platform } from '../support/platform.js';
import {
  convert,
  PAYMENTS_ROUTES,
  PAYMENTS_SCOPES,
  rateUnits,
  type PaymentsCaller,
  type TransactionJson,
} from '../support/payments.js';

/** Long enough for quote → rate change → swap on a busy 2-CPU host, short enough to wait out. */
const QUOTE_TTL_SECONDS = 2;
const USD_NGN_MID = '1500.25';
/** USD → NGN for a business at the default 50 bps: 1500.25 less 0.5 %. */
const USD_NGN = '1492.74875';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The swap's balances as its wallets must show them: the `from` wallet paid amount + fee. */
const balances = async (api: Platform['payments'], caller: PaymentsCaller, currencies: string[]) =>
  Object.fromEntries(
    await Promise.all(currencies.map(async (c) => [c, (await api.wallet(caller.token, c)).available_balance] as const)),
  );

/**
 * POST /swap between a business's own wallets (seed 4.4, 2.6): the rate and fee it applies, quotes,
 * refusals, Idempotency-Key, unique references, scopes and tenancy.
 */
describe('payments: swaps through the gateway', () => {
  const platform = new Platform({ paymentsEnv: { QUOTE_TTL_SECONDS: String(QUOTE_TTL_SECONDS) } });
  const api = platform.payments;
  /** A business with USD 10 000.00 and a swap fee of $0.30 + 1 % in USD, at the default spread. */
  let caller: PaymentsCaller;

  const usdToNgn = (amount: unknown, extra: Record<string, unknown> = {}) => ({
    from_currency: 'USD',
    to_currency: 'NGN',
    amount,
    ...extra,
  });

  beforeAll(async () => {
    await platform.start();
    await api.setRate('USD', 'NGN', USD_NGN_MID);
    caller = await api.caller();
    await api.setFeeRule({
      business_id: caller.businessId,
      type: 'swap',
      currency: 'USD',
      flat: 30,
      percentage_bps: 100,
    });
    await api.fund(caller.businessId, 'USD', 1_000_000);
  });
  afterAll(async () => {
    try {
      if (platform.started) await api.expectBooksBalance();
    } finally {
      await platform.stop();
    }
  });

  describe('the amount, the rate and the fee', () => {
    it('amount_side from: takes amount + fee from USD and credits floor(amount × rate) in NGN', async () => {
      const before = await balances(api, caller, ['USD', 'NGN']);
      const swap = await api.swap(caller.token, usdToNgn(100_00));
      const fees = await api.fees(caller.token, 'swap', 'USD', 100_00);
      expect(fees.total).toBe(30 + 100);
      // 10 000 × 1492.74875 = 14 927 487.5: the half minor unit is not paid out.
      expect(swap.swap_details).toEqual({
        from_currency: 'USD',
        from_amount: 100_00,
        to_currency: 'NGN',
        to_amount: 14_927_487,
        rate: expect.any(String),
        fee: fees.total,
        quote_id: null,
        amount_side: 'from',
      });
      expect(rateUnits(swap.swap_details?.rate ?? '')).toBe(rateUnits(USD_NGN));
      expect(swap).toMatchObject({
        type: 'SWAP',
        status: 'SUCCESSFUL',
        currency: 'USD',
        amount: -100_00,
        fee: 130,
        net: -100_00 - 130,
        reference: null,
        refund_status: null,
      });
      expect(await balances(api, caller, ['USD', 'NGN'])).toEqual({
        USD: (before.USD ?? 0) - 100_00 - 130,
        NGN: (before.NGN ?? 0) + 14_927_487,
      });
      const ngn = await api.wallet(caller.token, 'NGN');
      expect(ngn).toMatchObject({ pending_balance: 0, ledger_balance: ngn.available_balance });
    });

    it('amount_side to: credits exactly amount and takes the fewest from-units that buy it, plus their fee', async () => {
      const seller = await api.caller();
      await api.setFeeRule({
        business_id: seller.businessId,
        type: 'swap',
        currency: 'NGN',
        flat: 100,
        percentage_bps: 50,
      });
      await api.fund(seller.businessId, 'NGN', 10_000_000);
      // $50.00 wanted, paid in naira.
      const swap = await api.swap(seller.token, {
        from_currency: 'NGN',
        to_currency: 'USD',
        amount: 50_00,
        amount_side: 'to',
      });
      const details = swap.swap_details;
      if (!details) throw new Error('a swap without swap_details');
      expect(details).toMatchObject({ from_currency: 'NGN', to_currency: 'USD', to_amount: 50_00, amount_side: 'to' });
      expect(convert(details.from_amount, details.rate)).toBe(50_00);
      expect(convert(details.from_amount - 1, details.rate)).toBeLessThan(50_00);
      expect(details.fee).toBe((await api.fees(seller.token, 'swap', 'NGN', details.from_amount)).total);
      expect(swap).toMatchObject({ currency: 'NGN', amount: -details.from_amount, fee: details.fee });
      expect(await balances(api, seller, ['NGN', 'USD'])).toEqual({
        NGN: 10_000_000 - details.from_amount - details.fee,
        USD: 50_00,
      });
    });

    it('with a live quote_id the quoted rate is used even after the mid-rate changed; without, the new one', async () => {
      const trader = await api.caller();
      await api.setRate('EUR', 'GBP', '0.85');
      await api.fund(trader.businessId, 'EUR', 100_000);
      const quote = await api.quote(trader.token, 'EUR', 'GBP');
      await api.setRate('EUR', 'GBP', '0.9');
      const quoted = await api.swap(trader.token, {
        from_currency: 'EUR',
        to_currency: 'GBP',
        amount: 10_000,
        quote_id: quote.quote_id,
      });
      expect(quoted.swap_details).toMatchObject({ rate: quote.rate, quote_id: quote.quote_id });
      expect(quoted.swap_details?.to_amount).toBe(convert(10_000, quote.rate));

      const unquoted = await api.swap(trader.token, { from_currency: 'EUR', to_currency: 'GBP', amount: 10_000 });
      // 0.9 less the default 50 bps.
      expect(rateUnits(unquoted.swap_details?.rate ?? '')).toBe(rateUnits('0.8955'));
      expect(unquoted.swap_details?.to_amount).toBe(8955);
    });
  });

  describe('refusals (422 unless said otherwise), none of which moves money', () => {
    let before: Record<string, number>;
    beforeEach(async () => {
      before = await balances(api, caller, ['USD', 'NGN']);
    });
    afterEach(async () => {
      expect(await balances(api, caller, ['USD', 'NGN'])).toEqual(before);
    });

    it('an expired quote is QUOTE_EXPIRED', async () => {
      const quote = await api.quote(caller.token, 'USD', 'NGN');
      await sleep(QUOTE_TTL_SECONDS * 1000 + 1000);
      await expectError(await api.swapResponse(caller.token, usdToNgn(1000, { quote_id: quote.quote_id })), 422, {
        code: 'QUOTE_EXPIRED',
      });
    });

    it('a quote of another pair is QUOTE_MISMATCH; a quote that does not exist is QUOTE_NOT_FOUND', async () => {
      const reverse = await api.quote(caller.token, 'NGN', 'USD');
      await expectError(await api.swapResponse(caller.token, usdToNgn(1000, { quote_id: reverse.quote_id })), 422, {
        code: 'QUOTE_MISMATCH',
      });
      // Another business's quote is as good as none.
      const stranger = await api.caller();
      const theirs = await api.quote(stranger.token, 'USD', 'NGN');
      for (const quoteId of [randomUUID(), theirs.quote_id]) {
        await expectError(await api.swapResponse(caller.token, usdToNgn(1000, { quote_id: quoteId })), 422, {
          code: 'QUOTE_NOT_FOUND',
        });
      }
    });

    it('the same currency on both sides is SAME_CURRENCY', async () => {
      await expectError(
        await api.swapResponse(caller.token, { from_currency: 'USD', to_currency: 'USD', amount: 1000 }),
        422,
        { code: 'SAME_CURRENCY' },
      );
    });

    it('more than the wallet holds, fee included, is INSUFFICIENT_FUNDS', async () => {
      const poor = await api.caller();
      await api.fund(poor.businessId, 'USD', 5000);
      // 5 000 is there, but not 5 000 plus its fee.
      await expectError(await api.swapResponse(poor.token, usdToNgn(5000)), 422, { code: 'INSUFFICIENT_FUNDS' });
      expect(await api.wallet(poor.token, 'USD')).toMatchObject({ available_balance: 5000, ledger_balance: 5000 });
      await expectError(await api.swapResponse(caller.token, usdToNgn(1_000_000)), 422, { code: 'INSUFFICIENT_FUNDS' });
    });

    it.each([
      ['zero', '0'],
      ['negative', '-5'],
      ['a fraction', '10.5'],
      ['a string', '"100"'],
      ['beyond a double (1e400)', '1e400'],
      ['beyond a safe integer (2^53)', '9007199254740992'],
    ])('an amount that is %s is refused, naming amount', async (_what, amount) => {
      const raw = `{"from_currency":"USD","to_currency":"NGN","amount":${amount}}`;
      const body = await expectError(await api.swapResponse(caller.token, raw), 422);
      expect(String(body.message)).toMatch(/\bamount\b/);
      expect(['VALIDATION_FAILED', 'INVALID_AMOUNT']).toContain(body.code);
    });

    it('malformed JSON is 400; an unknown property is 422 naming it', async () => {
      await expectError(await api.swapResponse(caller.token, '{"from_currency": "USD",'), 400, {
        code: 'MALFORMED_JSON',
      });
      await expectInvalid(await api.swapResponse(caller.token, usdToNgn(1000, { surprise: true })), {
        surprise: /is not a recognised field/,
      });
    });
  });

  describe('Idempotency-Key and reference', () => {
    it('the same key and body answer the stored swap again, marked Idempotent-Replayed, moving money once', async () => {
      const before = await balances(api, caller, ['USD', 'NGN']);
      const key = randomUUID();
      const first = await api.swapResponse(caller.token, usdToNgn(1000), { 'idempotency-key': key });
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).not.toBe('true');
      const original = ((await first.json()) as { data: TransactionJson }).data;

      const again = await api.swapResponse(caller.token, usdToNgn(1000), { 'idempotency-key': key });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(((await again.json()) as { data: TransactionJson }).data).toEqual(original);

      const fee = original.fee;
      expect(await balances(api, caller, ['USD', 'NGN'])).toEqual({
        USD: (before.USD ?? 0) - 1000 - fee,
        NGN: (before.NGN ?? 0) + (original.swap_details?.to_amount ?? 0),
      });

      // The same key with another body is refused, and moves nothing.
      await expectError(await api.swapResponse(caller.token, usdToNgn(2000), { 'idempotency-key': key }), 422, {
        code: 'IDEMPOTENCY_KEY_REUSED',
      });
      expect((await api.wallet(caller.token, 'USD')).available_balance).toBe((before.USD ?? 0) - 1000 - fee);
    });

    it('a reference already used by a swap of the business is 409 REFERENCE_ALREADY_USED', async () => {
      const reference = `swap-${randomUUID()}`;
      const swap = await api.swap(caller.token, usdToNgn(1000, { reference }));
      expect(swap.reference).toBe(reference);
      const before = await balances(api, caller, ['USD', 'NGN']);
      await expectError(await api.swapResponse(caller.token, usdToNgn(1000, { reference })), 409, {
        code: 'REFERENCE_ALREADY_USED',
        message: new RegExp(reference),
      });
      expect(await balances(api, caller, ['USD', 'NGN'])).toEqual(before);
      // References are the business's own: another business may use the same one.
      const other = await api.caller();
      await api.fund(other.businessId, 'USD', 10_000);
      expect((await api.swap(other.token, usdToNgn(1000, { reference }))).reference).toBe(reference);
    });
  });

  describe('scopes and tenancy', () => {
    it.each(PAYMENTS_ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
      'seed 7 (403): %s refuses a token without its scope, naming the scope',
      async (_name, route) => {
        const { credentials } = await platform.tokenFor([]);
        const token = await platform.accessToken(
          credentials,
          PAYMENTS_SCOPES.filter((scope) => scope !== route.scope).join(' '),
        );
        const response = await api.call(
          token,
          route.method,
          route.path.replace('/api/external', ''),
          route.method === 'POST' ? usdToNgn(1000) : undefined,
        );
        await expectError(response, 403, {
          code: 'SCOPE_MISSING',
          message: new RegExp(`requires the scope ${route.scope}`),
        });
      },
    );

    it('another business’s transaction is 404, and never appears in the list', async () => {
      const other = await api.caller();
      await api.fund(other.businessId, 'USD', 10_000);
      const theirs = await api.swap(other.token, usdToNgn(1000));
      await expectError(await api.call(caller.token, 'GET', `/transaction/${theirs.id}`), 404, {
        code: 'TRANSACTION_NOT_FOUND',
      });
      // Indistinguishable from one that does not exist.
      await expectError(await api.call(caller.token, 'GET', `/transaction/${randomUUID()}`), 404, {
        code: 'TRANSACTION_NOT_FOUND',
      });
      const mine = await api.transactions(caller.token, 'per_page=100');
      expect(mine.data.length).toBeGreaterThan(0);
      expect(mine.data.map((t) => t.id)).not.toContain(theirs.id);
      // The control: the owner does see it.
      expect((await api.transactions(other.token, 'per_page=100')).data.map((t) => t.id)).toContain(theirs.id);
      expect((await api.transaction(other.token, theirs.id)).id).toBe(theirs.id);
    });
  });
});
