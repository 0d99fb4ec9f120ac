import type { LedgerCheckJson } from '../../test/dist/support/payments.js';
import { nuban, PayoutsApi } from '../../test/dist/support/payouts.js';
import type { Platform } from '../../test/dist/support/platform.js';
import type { Target } from './load.js';

/** Each payout sends ₦100.00 to one ordinary Guaranty Trust Bank account (the sandbox settles it). */
export const PAYOUT_AMOUNT = 100_00;
/** A flat fee of the business's own, so each payout also posts a fee transfer. */
const PAYOUT_FEE = 10_00;
/** Enough for every payout a phase can make on this machine, with fees, many times over. */
const FUNDING = 10_000_000_000;
const BANK_CODE = '058';
const ACCOUNT_NUMBER = nuban(BANK_CODE, '123456789');

/**
 * payments' sandbox rail and workers for the bench: the simulated bank answers after 50 ms and the
 * payout and refund workers look every 100 ms, so the figures are payments' own work, not the bank's
 * pretend delay.
 */
export const PAYOUT_BENCH_ENV = {
  SANDBOX_RAIL_SETTLE_MS: '50',
  PAYOUT_POLL_INTERVAL_MS: '100',
  COLLECTION_SWEEP_INTERVAL_MS: '100',
};

const payoutBody = (reference: string) => ({
  amount: PAYOUT_AMOUNT,
  currency: 'NGN',
  bank_code: BANK_CODE,
  account_number: ACCOUNT_NUMBER,
  narration: 'bench payout',
  reference,
});

/** A funded business of the bench's platform, ready to pay out under load. */
export interface PayoutsUnderLoad {
  /** POST /api/external/payout, each with a reference of its own (`[<id>]`): each request is a new payout. */
  payoutRequest: Target;
  funding: number;
  feePerPayout: number;
  /** Payouts made before any load (the request is tried once, to its settlement). */
  payoutsBeforeLoad: number;
  /** How many payouts are not settled yet: the NGN wallet's pending balance over amount + fee. */
  unsettled(): Promise<number>;
  /** The books after `payouts` payouts in all, each settled successfully. */
  books(payouts: number): Promise<PayoutBooks>;
}

export interface PayoutBooks {
  check: LedgerCheckJson;
  ledgerBalance: number;
  pendingBalance: number;
  expectedLedgerBalance: number;
  moneyConserved: boolean;
}

/**
 * A business of its own with raised limits, a payout fee, a funded NGN wallet and one settled payout;
 * given `webhookUrl`, its webhooks registered there.
 */
export async function preparePayouts(
  platform: Platform,
  rateLimits: { per_minute: number; per_hour: number },
  webhookUrl?: string,
): Promise<PayoutsUnderLoad> {
  const api = new PayoutsApi(platform);
  const business = await platform.createBusiness('Bench Payouts');
  await platform.patchBusiness(business.id, { rate_limits: rateLimits });
  const credentials = await platform.createCredentials(business.id, { bundles: ['full-access'] });
  const token = await platform.accessToken(
    credentials,
    'payout:create transaction:read wallet:read fees:read webhook:write',
  );
  // A platform hears of its payouts: each one's payout.pending, processing and successful are delivered.
  if (webhookUrl) await platform.webhooks.register(token, { payout_url: webhookUrl, collection_url: webhookUrl });
  await api.setFeeRule({
    business_id: business.id,
    type: 'payout',
    currency: 'NGN',
    flat: PAYOUT_FEE,
    percentage_bps: 0,
  });
  await api.fund(business.id, 'NGN', FUNDING);

  const { total: feePerPayout } = await api.fees(token, 'payout', 'NGN', PAYOUT_AMOUNT);
  const first = await api.payout(token, payoutBody('bench-first'));
  // The conservation check assumes every payout costs the same and succeeds: the first one must.
  const settled = await api.payoutWhen(
    token,
    first.id,
    (payout) => payout.status !== 'pending' && payout.status !== 'processing',
  );
  if (settled.status !== 'successful' || settled.amount !== PAYOUT_AMOUNT || settled.fee !== feePerPayout)
    throw new Error(`the first payout is not what the bench expects: ${JSON.stringify(settled)}`);

  const ngn = async () => {
    const wallet = (await api.adminWallets(business.id)).find((candidate) => candidate.currency === 'NGN');
    if (!wallet) throw new Error('the bench business has no NGN wallet');
    return wallet;
  };
  return {
    payoutRequest: {
      url: `${platform.publicUrl}/api/external/payout`,
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(payoutBody('bench-[<id>]')),
      idReplacement: true,
    },
    funding: FUNDING,
    feePerPayout,
    payoutsBeforeLoad: 1,
    async unsettled() {
      return (await ngn()).pending_balance / (PAYOUT_AMOUNT + feePerPayout);
    },
    async books(payouts: number): Promise<PayoutBooks> {
      const check = await api.checkLedger();
      const wallet = await ngn();
      const expectedLedgerBalance = FUNDING - payouts * (PAYOUT_AMOUNT + feePerPayout);
      return {
        check,
        ledgerBalance: wallet.ledger_balance,
        pendingBalance: wallet.pending_balance,
        expectedLedgerBalance,
        moneyConserved: wallet.ledger_balance === expectedLedgerBalance && wallet.pending_balance === 0,
      };
    },
  };
}
