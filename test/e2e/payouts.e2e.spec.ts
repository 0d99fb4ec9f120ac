import { randomUUID } from 'node:crypto';
import { createTestCertificates, type ReceivedWebhook, type TestCertificates } from '@corridor/testing';
import { unique } from '../support/customers.js';
import { expectError, Platform } from '../support/platform.js';
import {
  badNuban,
  MAGIC_CORES,
  nuban,
  ordinarySerial,
  PAYOUT_ROUTES,
  PAYOUT_SCOPES,
  PAYOUT_TIMINGS,
  PayoutsApi,
  type PayoutJson,
} from '../support/payouts.js';
import { ReceivingBusiness, receiverEnv } from '../support/receiving-business.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const GTB = { code: '058', name: 'Guaranty Trust Bank' };
/** The payout fee of every business here: ₦10.00 + 0.5 %. */
const PAYOUT_FEE = { type: 'payout', currency: 'NGN', flat: 10_00, percentage_bps: 50 } as const;

/** A payout body to a Guaranty Trust Bank account with this core (an ordinary one by default). */
const toGtb = (amount: number, core = ordinarySerial(), extra: Record<string, unknown> = {}) => ({
  amount,
  currency: 'NGN',
  bank_code: GTB.code,
  account_number: nuban(GTB.code, core),
  narration: `Invoice ${unique()}`,
  reference: `po-${unique()}`,
  ...extra,
});

/** The body of a payout webhook as notification sends it: `{event, data}`, data the payout's JSON. */
const payoutOf = (request: ReceivedWebhook) => request.json as { event: string; data: PayoutJson };

/**
 * Payouts end to end (issue 12, decision 0013): banks and lookups, a payout's life through the
 * sandbox rail with its webhooks, failures and reversals giving the money back, beneficiaries and
 * their tenancy, the refusals and the scopes.
 */
describe('payouts through the gateway', () => {
  let certificates: TestCertificates;
  let platform: Platform;
  let api: PayoutsApi;
  /** A business with its own HTTPS receiver as payout_url, ₦1,000,000.00 and a payout fee. */
  let owner: ReceivingBusiness;
  let token: string;
  const receivers: ReceivingBusiness[] = [];

  /** Another business with ₦ `funding` and the same fee; its receiver is stopped with the suite. */
  const business = async (funding = 1_000_000) => {
    const created = await ReceivingBusiness.create(platform, certificates);
    receivers.push(created);
    await api.setFeeRule({ business_id: created.businessId, ...PAYOUT_FEE });
    if (funding > 0) await api.fund(created.businessId, 'NGN', funding);
    return { businessId: created.businessId, token: await created.tokenWith([...PAYOUT_SCOPES]), receiver: created };
  };

  const balances = async (callerToken: string) => {
    const { available_balance, pending_balance, ledger_balance } = await api.wallet(callerToken, 'NGN');
    return { available_balance, pending_balance, ledger_balance };
  };

  beforeAll(async () => {
    certificates = await createTestCertificates();
    platform = new Platform({
      notificationEnv: receiverEnv(certificates, [0, 400, 800, 1200, 1600]),
      paymentsEnv: PAYOUT_TIMINGS,
    });
    api = new PayoutsApi(platform);
    await platform.start();
    const first = await business(100_000_000);
    owner = first.receiver;
    token = first.token;
  });
  afterAll(async () => {
    try {
      if (platform?.started) await api.expectBooksBalance();
    } finally {
      await Promise.all(receivers.map((receiver) => receiver.stop()));
      await platform?.stop();
    }
  });

  describe('banks and account lookup', () => {
    it('GET /bank lists the sandbox banks, filtered by country and by currency', async () => {
      const codes = async (query: Record<string, string> = {}) =>
        (await api.banks(token, query)).map((bank) => bank.code).sort();
      const all = await api.banks(token);
      expect(all).toContainEqual({ code: '058', name: GTB.name, country: 'NG', currency: 'NGN', scheme: 'nuban' });
      expect(all).toContainEqual({
        code: '040004',
        name: expect.any(String),
        country: 'GB',
        currency: 'GBP',
        scheme: 'sort_code',
      });
      expect(all.map((bank) => bank.code).sort()).toEqual(
        ['044', '057', '058', '040004', '200000', 'BNPAFRPPXXX', 'DEUTDEFFXXX', '021000021', '026009593'].sort(),
      );
      expect(await codes({ country: 'NG' })).toEqual(['044', '057', '058']);
      expect(await codes({ currency: 'EUR' })).toEqual(['BNPAFRPPXXX', 'DEUTDEFFXXX']);
      expect(await codes({ country: 'US', currency: 'USD' })).toEqual(['021000021', '026009593']);
      expect(await codes({ country: 'NG', currency: 'USD' })).toEqual([]);
    });

    it('a lookup answers the holder’s name, the same every time', async () => {
      const accountNumber = nuban(GTB.code, ordinarySerial());
      const found = await api.lookup(token, GTB.code, accountNumber);
      expect(found).toEqual({
        bank_code: GTB.code,
        bank_name: GTB.name,
        account_number: accountNumber,
        account_name: expect.stringMatching(/^\S+ \S+$/),
        currency: 'NGN',
      });
      expect(await api.lookup(token, GTB.code, accountNumber)).toEqual(found);
    });

    it('a lookup names what is wrong: UNKNOWN_BANK, INVALID_ACCOUNT_NUMBER (bad check digit), ACCOUNT_NOT_FOUND', async () => {
      const serial = ordinarySerial();
      await expectError(await api.lookupResponse(token, '999', nuban('058', serial)), 422, { code: 'UNKNOWN_BANK' });
      await expectError(await api.lookupResponse(token, GTB.code, badNuban(GTB.code, serial)), 422, {
        code: 'INVALID_ACCOUNT_NUMBER',
      });
      await expectError(await api.lookupResponse(token, GTB.code, nuban(GTB.code, MAGIC_CORES.notFound)), 422, {
        code: 'ACCOUNT_NOT_FOUND',
      });
    });
  });

  describe('a payout’s life', () => {
    it('is pending at once, then successful; payout.pending, .processing and .successful reach payout_url signed', async () => {
      const before = await balances(token);
      const body = toGtb(2_500_00);
      const { total: fee } = await api.fees(token, 'payout', 'NGN', body.amount);
      expect(fee).toBe(10_00 + 1_250);
      const destination = await api.lookup(token, GTB.code, body.account_number);

      const created = await api.payout(token, body);
      expect(created).toEqual({
        id: expect.stringMatching(UUID),
        status: 'pending',
        amount: body.amount,
        fee,
        currency: 'NGN',
        reference: body.reference,
        narration: body.narration,
        destination,
        beneficiary_id: null,
        failure_reason: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        completed_at: null,
        reversed_at: null,
      });
      // Reserved at once, whatever the rail has done since.
      expect((await balances(token)).available_balance).toBe(before.available_balance - body.amount - fee);

      const settled = await api.payoutWhen(token, created.id, (payout) => payout.status === 'successful');
      expect(settled).toMatchObject({ failure_reason: null, reversed_at: null, completed_at: expect.any(String) });
      expect(await balances(token)).toEqual({
        available_balance: before.available_balance - body.amount - fee,
        pending_balance: 0,
        ledger_balance: before.ledger_balance - body.amount - fee,
      });
      expect(await api.transaction(token, created.id)).toMatchObject({
        type: 'PAYOUT',
        status: 'SUCCESSFUL',
        currency: 'NGN',
        amount: -body.amount,
        fee,
        net: -body.amount - fee,
        reference: body.reference,
      });

      const hooks = await owner.receiver.waitFor(
        (request) => request.path === '/payout' && payoutOf(request).data?.id === created.id,
        3,
      );
      for (const hook of hooks) {
        expect({ verified: hook.verified, error: hook.verificationError }).toEqual({
          verified: true,
          error: undefined,
        });
        expect(payoutOf(hook).event).toBe(`payout.${payoutOf(hook).data.status}`);
      }
      expect(hooks.map((hook) => payoutOf(hook).event).sort()).toEqual([
        'payout.pending',
        'payout.processing',
        'payout.successful',
      ]);
      const successful = hooks.find((hook) => payoutOf(hook).event === 'payout.successful');
      expect(successful && payoutOf(successful).data).toEqual(settled);
    });

    it('to an account the bank refuses (core 999000001): failed, invalid_account, amount + fee available again', async () => {
      const before = await balances(token);
      const created = await api.payout(token, toGtb(1_000_00, MAGIC_CORES.invalidAccount));
      const failed = await api.payoutWhen(token, created.id, (payout) => payout.status === 'failed');
      expect(failed.failure_reason).toBe('invalid_account');
      expect(await balances(token)).toEqual({ ...before, pending_balance: 0 });
      expect((await api.transaction(token, created.id)).status).toBe('FAILED');
      const [hook] = await owner.receiver.waitFor(
        (request) => payoutOf(request).data?.id === created.id && payoutOf(request).event === 'payout.failed',
      );
      expect(hook && payoutOf(hook).data.failure_reason).toBe('invalid_account');
    });

    it('one the bank returns after success (core 999000004): reversed, returned_by_bank, the wallet made whole', async () => {
      const before = await balances(token);
      const created = await api.payout(token, toGtb(3_000_00, MAGIC_CORES.reversed));
      const reversed = await api.payoutWhen(token, created.id, (payout) => payout.status === 'reversed');
      expect(reversed).toMatchObject({
        failure_reason: 'returned_by_bank',
        completed_at: expect.any(String),
        reversed_at: expect.any(String),
      });
      expect(await balances(token)).toEqual({ ...before, pending_balance: 0 });
      expect((await api.transaction(token, created.id)).status).toBe('REVERSED');
    });

    it('GET /transaction?type=PAYOUT lists the business’s payouts, and nothing else', async () => {
      const page = await api.transactions(token, 'type=PAYOUT&per_page=100');
      expect(page.data.length).toBeGreaterThanOrEqual(3);
      expect(new Set(page.data.map((transaction) => transaction.type))).toEqual(new Set(['PAYOUT']));
      const statuses = new Set(page.data.map((transaction) => transaction.status));
      expect(statuses).toEqual(new Set(['SUCCESSFUL', 'FAILED', 'REVERSED']));
      const one = page.data[0];
      if (!one) throw new Error('no payout listed');
      expect((await api.getPayout(token, one.id)).id).toBe(one.id);
    });
  });

  describe('beneficiaries', () => {
    it('save_beneficiary keeps the destination; a payout to beneficiary_id pays it and marks it used', async () => {
      const saving = await api.payout(token, toGtb(500_00, ordinarySerial(), { save_beneficiary: true }));
      await api.payoutWhen(token, saving.id, (payout) => payout.status === 'successful');
      const listed = (await api.beneficiaries(token, 'per_page=100')).data.find(
        (saved) => saved.account_number === saving.destination.account_number,
      );
      if (!listed) throw new Error('the destination was not saved');
      expect(listed).toEqual({
        id: expect.stringMatching(UUID),
        ...saving.destination,
        created_at: expect.any(String),
        last_used_at: expect.any(String),
      });
      expect(await api.beneficiary(token, listed.id)).toEqual(listed);

      const { amount, currency, narration, reference } = toGtb(700_00);
      const paid = await api.payout(token, { amount, currency, narration, reference, beneficiary_id: listed.id });
      expect(paid).toMatchObject({ beneficiary_id: listed.id, destination: saving.destination, amount });
      await api.payoutWhen(token, paid.id, (payout) => payout.status === 'successful');
      const used = await api.beneficiary(token, listed.id);
      expect(Date.parse(used.last_used_at ?? '')).toBeGreaterThanOrEqual(Date.parse(listed.last_used_at ?? ''));
    });

    it('pages newest first in the cursor envelope', async () => {
      const saver = await business();
      const saved: PayoutJson[] = [];
      for (let i = 0; i < 3; i += 1)
        saved.push(await api.payout(saver.token, toGtb(100_00, ordinarySerial(), { save_beneficiary: true })));
      const first = await api.beneficiaries(saver.token, 'per_page=2');
      expect(first.data.map((b) => b.account_number)).toEqual(
        [saved[2], saved[1]].map((payout) => payout?.destination.account_number),
      );
      expect(first.meta.per_page).toBe(2);
      expect(first.links).toMatchObject({ first: null, last: null, prev: null, next: expect.any(String) });
      const second = await api.beneficiaries(saver.token, first.links.next ?? '');
      expect(second.data.map((b) => b.account_number)).toEqual([saved[0]?.destination.account_number]);
      expect(second.links.next).toBeNull();
    });

    it('are the business’s own: another business gets 404 on GET, 422 on a payout to one, and never lists it', async () => {
      const mine = (await api.beneficiaries(token, 'per_page=1')).data[0];
      if (!mine) throw new Error('the business has no beneficiary');
      const other = await business();
      await expectError(await api.call(other.token, 'GET', `/beneficiary/${mine.id}`), 404, {
        code: 'BENEFICIARY_NOT_FOUND',
      });
      await expectError(await api.call(other.token, 'GET', `/beneficiary/${randomUUID()}`), 404, {
        code: 'BENEFICIARY_NOT_FOUND',
      });
      const { amount, currency, narration, reference } = toGtb(100_00);
      const before = await balances(other.token);
      await expectError(
        await api.payoutResponse(other.token, { amount, currency, narration, reference, beneficiary_id: mine.id }),
        422,
        { code: 'BENEFICIARY_NOT_FOUND' },
      );
      expect(await balances(other.token)).toEqual(before);
      expect((await api.beneficiaries(other.token)).data).toEqual([]);
    });
  });

  describe('refusals', () => {
    it('422 INSUFFICIENT_FUNDS reserves nothing: every balance as before, no payout, the reference still free', async () => {
      const poor = await business(50_00);
      const before = await balances(poor.token);
      const body = toGtb(50_00);
      await expectError(await api.payoutResponse(poor.token, body), 422, { code: 'INSUFFICIENT_FUNDS' });
      expect(await balances(poor.token)).toEqual(before);
      expect((await api.transactions(poor.token, 'type=PAYOUT')).data).toEqual([]);
      await api.fund(poor.businessId, 'NGN', 100_00);
      expect((await api.payout(poor.token, body)).reference).toBe(body.reference);
    });

    it('422 VALIDATION_FAILED for both a destination and a beneficiary, or neither', async () => {
      const both = toGtb(100_00, ordinarySerial(), { beneficiary_id: randomUUID() });
      await expectError(await api.payoutResponse(token, both), 422, { code: 'VALIDATION_FAILED' });
      const { amount, currency, narration, reference } = toGtb(100_00);
      await expectError(await api.payoutResponse(token, { amount, currency, narration, reference }), 422, {
        code: 'VALIDATION_FAILED',
      });
    });

    it('422 names a destination it cannot pay: UNKNOWN_BANK, INVALID_ACCOUNT_NUMBER, ACCOUNT_NOT_FOUND, CURRENCY_MISMATCH', async () => {
      const before = await balances(token);
      const cases: [Record<string, unknown>, string][] = [
        [toGtb(100_00, ordinarySerial(), { bank_code: '999' }), 'UNKNOWN_BANK'],
        [
          toGtb(100_00, ordinarySerial(), { account_number: badNuban(GTB.code, ordinarySerial()) }),
          'INVALID_ACCOUNT_NUMBER',
        ],
        [toGtb(100_00, MAGIC_CORES.notFound), 'ACCOUNT_NOT_FOUND'],
        [toGtb(100_00, ordinarySerial(), { currency: 'USD' }), 'CURRENCY_MISMATCH'],
      ];
      for (const [body, code] of cases) await expectError(await api.payoutResponse(token, body), 422, { code });
      expect(await balances(token)).toEqual(before);
    });

    it('a daily limit set by the back office refuses the payout that would pass it with PAYOUT_LIMIT_EXCEEDED', async () => {
      const limited = await business();
      expect(await api.setPayoutLimit(limited.businessId, 'NGN', 10_000)).toEqual({
        business_id: limited.businessId,
        currency: 'NGN',
        daily_limit: 10_000,
      });
      // Whether the limit counts fees or not, 4,000 then 3,000 fit under 10,000 and 4,000 + 7,000 does not.
      await api.payout(limited.token, toGtb(4_000));
      const before = await balances(limited.token);
      await expectError(await api.payoutResponse(limited.token, toGtb(7_000)), 422, { code: 'PAYOUT_LIMIT_EXCEEDED' });
      expect((await balances(limited.token)).available_balance).toBe(before.available_balance);
      await api.payout(limited.token, toGtb(3_000));
      await api.setPayoutLimit(limited.businessId, 'NGN', null);
      await api.payout(limited.token, toGtb(7_000));
    });

    it('409 REFERENCE_ALREADY_USED for a reference the business used; another business may use it', async () => {
      const body = toGtb(100_00);
      await api.payout(token, body);
      await expectError(
        await api.payoutResponse(token, toGtb(200_00, ordinarySerial(), { reference: body.reference })),
        409,
        {
          code: 'REFERENCE_ALREADY_USED',
        },
      );
      const other = await business();
      expect((await api.payout(other.token, body)).reference).toBe(body.reference);
    });
  });

  describe('scopes', () => {
    it.each(PAYOUT_ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
      'seed 7 (403): %s refuses a token without its scope, naming the scope',
      async (_name, route) => {
        const others = PAYOUT_SCOPES.filter((scope) => scope !== route.scope);
        const limited = await owner.tokenWith([...others]);
        const response = await api.call(
          limited,
          route.method,
          route.path,
          route.method === 'POST' ? toGtb(100_00) : undefined,
        );
        await expectError(response, 403, {
          code: 'SCOPE_MISSING',
          message: new RegExp(`requires the scope ${route.scope}`),
        });
      },
    );
  });
});
