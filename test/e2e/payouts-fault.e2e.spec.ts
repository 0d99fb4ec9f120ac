import { eventually, query } from '@corridor/testing';
import { unique } from '../support/customers.js';
import { Platform } from '../support/platform.js';
import type { TransactionJson } from '../support/payments.js';
import {
  inBatches,
  MAGIC_CORES,
  nuban,
  ordinarySerial,
  PAYOUT_SCOPES,
  PAYOUT_TIMINGS,
  PayoutsApi,
  type PayoutJson,
} from '../support/payouts.js';

const PAYOUTS = 500;
const AMOUNT = 100_00;
const FEE = 10_00;
/** More than every payout costs, by an odd margin, so an exact balance is telling. */
const FUNDING = PAYOUTS * (AMOUNT + FEE) + 12_345;
/** Long enough that the delayed ones are certainly with the rail when payments dies. */
const DELAY_MS = 3_000;

type Expected = Pick<PayoutJson, 'status' | 'failure_reason'>;

/** What each tenth of the payouts is sent to, and how the sandbox rail must end it (decision 0013). */
const DESTINATIONS: { core: () => string; expected: Expected }[] = [
  { core: () => MAGIC_CORES.invalidAccount, expected: { status: 'failed', failure_reason: 'invalid_account' } },
  { core: () => MAGIC_CORES.bankUnavailable, expected: { status: 'failed', failure_reason: 'bank_unavailable' } },
  { core: () => MAGIC_CORES.accountClosed, expected: { status: 'failed', failure_reason: 'account_closed' } },
  { core: () => MAGIC_CORES.reversed, expected: { status: 'reversed', failure_reason: 'returned_by_bank' } },
  { core: () => MAGIC_CORES.delayed, expected: { status: 'successful', failure_reason: null } },
  ...Array.from({ length: 5 }, () => ({
    core: ordinarySerial,
    expected: { status: 'successful', failure_reason: null } as Expected,
  })),
];

/** The transaction's status that goes with a payout's. */
const TRANSACTION_STATUS: Record<PayoutJson['status'], TransactionJson['status']> = {
  pending: 'PENDING',
  processing: 'PROCESSING',
  successful: 'SUCCESSFUL',
  failed: 'FAILED',
  reversed: 'REVERSED',
};

/**
 * DESIGN.md "Idempotent by construction" and decision 0013: payments killed with SIGKILL while 500
 * payouts are with the worker and the rail loses none, submits none twice, and the books balance.
 */
describe('payouts survive a SIGKILL of payments mid-flight', () => {
  const platform = new Platform({ paymentsEnv: { ...PAYOUT_TIMINGS, SANDBOX_RAIL_DELAY_MS: String(DELAY_MS) } });
  const api = new PayoutsApi(platform);

  beforeAll(() => platform.start());
  afterAll(() => platform.stop());

  it('500 payouts, payments killed right after the last is acknowledged: each ends once, submitted once, the money exact', async () => {
    const business = await platform.createBusiness('Crash Payouts');
    // The burst and the reads after it must not meet the rate limit (120 a minute by default).
    await platform.patchBusiness(business.id, { rate_limits: { per_minute: 100_000, per_hour: 6_000_000 } });
    const credentials = await platform.createCredentials(business.id);
    const token = await platform.accessToken(credentials, PAYOUT_SCOPES.join(' '));
    await api.setFeeRule({ business_id: business.id, type: 'payout', currency: 'NGN', flat: FEE, percentage_bps: 0 });
    await api.fund(business.id, 'NGN', FUNDING);

    const plan = Array.from({ length: PAYOUTS }, (_, index) => {
      const destination = DESTINATIONS[index % DESTINATIONS.length];
      if (!destination) throw new Error('no destination');
      return { core: destination.core(), expected: destination.expected };
    });
    const created = await inBatches(plan, 16, async ({ core, expected }) => {
      const payout = await api.payout(token, {
        amount: AMOUNT,
        currency: 'NGN',
        bank_code: '058',
        account_number: nuban('058', core),
        narration: 'crash test',
        reference: `crash-${unique()}-${unique()}`,
      });
      return { id: payout.id, fee: payout.fee, expected };
    });
    await platform.paymentsService.kill('SIGKILL');

    // Proof the kill met work in flight: otherwise this test would show nothing about crashes.
    const [inFlight] = await query<{ count: string }>(
      platform.paymentsService.db?.url ?? '',
      `select count(*) from payout where status in ('pending', 'processing')`,
    );
    expect(Number(inFlight?.count)).toBeGreaterThan(0);
    expect(created.every((payout) => payout.fee === FEE)).toBe(true);

    await platform.paymentsService.restart();
    const expectedById = new Map(created.map((payout) => [payout.id, payout.expected]));
    const listed = await eventually(
      async () => {
        const all: TransactionJson[] = [];
        for (let page = await api.transactions(token, 'type=PAYOUT&per_page=100'); ;) {
          all.push(...page.data);
          if (!page.links.next) break;
          page = await api.transactions(token, page.links.next);
        }
        const unfinished = all.filter(
          (t) => t.status !== TRANSACTION_STATUS[expectedById.get(t.id)?.status ?? 'successful'],
        );
        if (all.length < PAYOUTS || unfinished.length > 0)
          throw new Error(`${all.length} listed, ${unfinished.length} not in their final state yet`);
        return all;
      },
      90_000,
      1_000,
    );
    // Each payout listed exactly once: one transaction, in one state.
    expect(listed.map((t) => t.id).sort()).toEqual([...expectedById.keys()].sort());

    const views = await inBatches(created, 16, async ({ id, expected }) => ({
      id,
      expected,
      payout: await api.getPayout(token, id),
      rail: await api.railPayout(id),
    }));
    const mismatches = views.filter(
      ({ expected, payout, rail }) =>
        payout.status !== expected.status ||
        payout.failure_reason !== expected.failure_reason ||
        rail.submit_calls !== 1 ||
        rail.state !== expected.status,
    );
    expect(mismatches).toEqual([]);

    const successful = views.filter(({ payout }) => payout.status === 'successful').length;
    const left = FUNDING - successful * (AMOUNT + FEE);
    expect(await api.wallet(token, 'NGN')).toMatchObject({
      available_balance: left,
      pending_balance: 0,
      ledger_balance: left,
    });
    await api.expectBooksBalance();
  }, 300_000);
});
