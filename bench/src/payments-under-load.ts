import type { LedgerCheckJson } from '../../test/dist/support/payments.js';
import type { Platform } from '../../test/dist/support/platform.js';
import type { Target } from './load.js';

/** Each swap moves 100 minor units of USD (amount_side from). */
export const SWAP_AMOUNT = 100;
/** Enough for every swap a phase can make on this machine, with fees, many times over. */
const FUNDING = 10_000_000_000;
const MID_RATE = '1500.25';
/** A fee of the business's own (25 + 1 % of 100 = 26), so each swap also posts a fee transfer. */
const SWAP_FEE = { flat: 25, percentage_bps: 100 };
const SWAP_BODY = { from_currency: 'USD', to_currency: 'NGN', amount: SWAP_AMOUNT, amount_side: 'from' };

/** A funded business of the bench's platform, ready to swap and read its wallets under load. */
export interface PaymentsUnderLoad {
  /** POST /api/external/swap of USD → NGN, no Idempotency-Key: each request is a new swap. */
  swapRequest: Target;
  /** GET /api/external/wallet of that business. */
  walletRequest: Target;
  funding: number;
  /** The fee of one swap of SWAP_AMOUNT, as GET /fees quotes it and the first swap charged. */
  feePerSwap: number;
  /** Swaps made before any load (each request is tried once). */
  swapsBeforeLoad: number;
  /** The books after `swaps` swaps in all: the ledger check and the USD wallet against the funding. */
  books(swaps: number): Promise<Books>;
  /** The USD wallet's ledger balance now. */
  usdBalance(): Promise<number>;
}

export interface Books {
  check: LedgerCheckJson;
  ledgerBalance: number;
  expectedLedgerBalance: number;
  moneyConserved: boolean;
}

/**
 * A business of its own (not whoami's, so the phases' rate-limit windows stay apart), its limits
 * raised so the limiter never answers 429, a USD→NGN mid-rate, a swap fee and a funded USD wallet.
 */
export async function preparePayments(
  platform: Platform,
  rateLimits: { per_minute: number; per_hour: number },
): Promise<PaymentsUnderLoad> {
  const api = platform.payments;
  const business = await platform.createBusiness('Bench Payments');
  await platform.patchBusiness(business.id, { rate_limits: rateLimits });
  const credentials = await platform.createCredentials(business.id, { bundles: ['full-access'] });
  const token = await platform.accessToken(credentials, 'swap:create wallet:read fees:read transaction:read');
  await api.setRate('USD', 'NGN', MID_RATE);
  await api.setFeeRule({ business_id: business.id, type: 'swap', currency: 'USD', ...SWAP_FEE });
  await api.fund(business.id, 'USD', FUNDING);

  const { total: feePerSwap } = await api.fees(token, 'swap', 'USD', SWAP_AMOUNT);
  const first = await api.swap(token, SWAP_BODY);
  // The conservation check below assumes every swap costs the same: the first one must agree.
  if (first.status !== 'SUCCESSFUL' || first.amount !== -SWAP_AMOUNT || first.fee !== feePerSwap)
    throw new Error(`the first swap is not what the bench expects: ${JSON.stringify(first)}`);
  await api.wallets(token);

  const authorization = `Bearer ${token}`;
  const usdBalance = async () => {
    const usd = (await api.adminWallets(business.id)).find((wallet) => wallet.currency === 'USD');
    if (!usd) throw new Error('the bench business has no USD wallet');
    return usd.ledger_balance;
  };
  return {
    swapRequest: {
      url: `${platform.publicUrl}/api/external/swap`,
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(SWAP_BODY),
    },
    walletRequest: { url: `${platform.publicUrl}/api/external/wallet`, headers: { authorization } },
    funding: FUNDING,
    feePerSwap,
    swapsBeforeLoad: 1,
    usdBalance,
    async books(swaps: number): Promise<Books> {
      const check = await api.checkLedger();
      const ledgerBalance = await usdBalance();
      const expectedLedgerBalance = FUNDING - swaps * (SWAP_AMOUNT + feePerSwap);
      return { check, ledgerBalance, expectedLedgerBalance, moneyConserved: ledgerBalance === expectedLedgerBalance };
    },
  };
}

/**
 * Swaps spread over `count` businesses (issue 35: "swaps spread over 16 businesses"): each connection
 * sends its requests as each business in turn, so no two requests in a row queue on one wallet row.
 */
export interface SpreadSwaps {
  swapRequest: Target;
  businesses: PaymentsUnderLoad[];
  feePerSwap: number;
  swapsBeforeLoad: number;
  /** The books after `swaps` swaps over all the businesses: the ledger check and their USD wallets summed. */
  books(swaps: number): Promise<Books>;
}

export async function prepareSpreadSwaps(
  platform: Platform,
  count: number,
  rateLimits: { per_minute: number; per_hour: number },
): Promise<SpreadSwaps> {
  const businesses = await Promise.all(Array.from({ length: count }, () => preparePayments(platform, rateLimits)));
  const [first] = businesses;
  if (!first) throw new Error('no swapping business');
  if (businesses.some((one) => one.feePerSwap !== first.feePerSwap))
    throw new Error('the businesses charge different fees');
  const url = new URL(first.swapRequest.url);
  return {
    swapRequest: {
      ...first.swapRequest,
      rotation: businesses.map((one) => ({ path: url.pathname, headers: one.swapRequest.headers ?? {} })),
    },
    businesses,
    feePerSwap: first.feePerSwap,
    swapsBeforeLoad: businesses.reduce((sum, one) => sum + one.swapsBeforeLoad, 0),
    async books(swaps: number): Promise<Books> {
      const check = await platform.payments.checkLedger();
      const balances = await Promise.all(businesses.map((one) => one.usdBalance()));
      const ledgerBalance = balances.reduce((sum, balance) => sum + balance, 0);
      const expectedLedgerBalance = count * FUNDING - swaps * (SWAP_AMOUNT + first.feePerSwap);
      return { check, ledgerBalance, expectedLedgerBalance, moneyConserved: ledgerBalance === expectedLedgerBalance };
    },
  };
}
