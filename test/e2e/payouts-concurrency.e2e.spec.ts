import { expectError, Platform } from '../support/platform.js';
import { unique } from '../support/customers.js';
import {
  inBatches,
  nuban,
  ordinarySerial,
  PAYOUT_SCOPES,
  PAYOUT_TIMINGS,
  PayoutsApi,
  type PayoutJson,
} from '../support/payouts.js';

const ATTEMPTS = 100;
const AMOUNT = 100_00;
const FEE = 10_00;
/** The wallet affords exactly this many payouts of AMOUNT + FEE. */
const AFFORDABLE = 37;

/**
 * DESIGN.md "Pending before posted" and "Locks": a payout reserves amount + fee in the statement that
 * moves the balance, so 100 concurrent payouts against a wallet that affords 37 make exactly 37.
 *
 * What it tolerates (issue 37): nothing of the run beside it (the e2e-serial project); an idle
 * `npm start` stack is fine. Beside a Kubernetes build its wallet reads outlived the gateway's gRPC
 * deadline (504): `npm test` no longer runs that build beside any suite.
 */
describe('payouts: concurrent payouts never overdraw a wallet', () => {
  const platform = new Platform({ paymentsEnv: PAYOUT_TIMINGS });
  const api = new PayoutsApi(platform);

  beforeAll(() => platform.start());
  afterAll(async () => {
    try {
      if (platform.started) await api.expectBooksBalance();
    } finally {
      await platform.stop();
    }
  });

  it(`of ${ATTEMPTS} concurrent payouts against a wallet that affords ${AFFORDABLE}, exactly ${AFFORDABLE} are made; available never below 0`, async () => {
    const business = await platform.createBusiness('Racing Payouts');
    await platform.patchBusiness(business.id, { rate_limits: { per_minute: 100_000, per_hour: 6_000_000 } });
    const credentials = await platform.createCredentials(business.id);
    const token = await platform.accessToken(credentials, PAYOUT_SCOPES.join(' '));
    await api.setFeeRule({ business_id: business.id, type: 'payout', currency: 'NGN', flat: FEE, percentage_bps: 0 });
    expect((await api.fees(token, 'payout', 'NGN', AMOUNT)).total).toBe(FEE);
    await api.fund(business.id, 'NGN', AFFORDABLE * (AMOUNT + FEE));

    // Reads the balance throughout the race: no moment may show it below zero.
    const seen: number[] = [];
    let racing = true;
    const watching = (async () => {
      while (racing) seen.push((await api.wallet(token, 'NGN')).available_balance);
    })();
    const responses = await Promise.all(
      Array.from({ length: ATTEMPTS }, () =>
        api.payoutResponse(token, {
          amount: AMOUNT,
          currency: 'NGN',
          bank_code: '044',
          account_number: nuban('044', ordinarySerial()),
          narration: 'race',
          reference: `race-${unique()}-${unique()}`,
        }),
      ),
    );
    racing = false;
    await watching;

    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status !== 201 && status !== 422)).toEqual([]);
    expect({
      created: statuses.filter((status) => status === 201).length,
      refused: statuses.filter((status) => status === 422).length,
    }).toEqual({ created: AFFORDABLE, refused: ATTEMPTS - AFFORDABLE });
    const payouts: PayoutJson[] = [];
    for (const response of responses) {
      if (response.status === 201) payouts.push(((await response.json()) as { data: PayoutJson }).data);
      else await expectError(response, 422, { code: 'INSUFFICIENT_FUNDS' });
    }
    expect(new Set(payouts.map((payout) => payout.id)).size).toBe(AFFORDABLE);
    expect(seen.length).toBeGreaterThan(0);
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(0);

    await inBatches(payouts, 8, (payout) =>
      api.payoutWhen(token, payout.id, (read) => read.status === 'successful', 60_000),
    );
    expect(await api.wallet(token, 'NGN')).toMatchObject({
      available_balance: 0,
      pending_balance: 0,
      ledger_balance: 0,
    });
    const listed = await api.transactions(token, 'type=PAYOUT&per_page=100');
    expect(listed.data).toHaveLength(AFFORDABLE);
    await api.expectBooksBalance();
  }, 180_000);
});
