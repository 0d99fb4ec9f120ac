import { segment, type AdminApi } from '../admin-api.js';
import { CliError } from '../errors.js';
import { isRecord } from '../http.js';

/** A mid-rate as the admin API takes it: units of quote_currency per unit of base_currency. */
export interface SandboxRate {
  base_currency: string;
  quote_currency: string;
  rate: string;
}

/** A credit a sandbox wallet gets when it is empty, in minor units. */
export interface SandboxFunding {
  currency: string;
  amount: number;
}

/**
 * Mid-rates for every pair among NGN, USD, GBP, EUR and CAD, one direction each (payments derives
 * the reverse); the cross rates follow from the four USD ones so a round trip loses only the spread.
 */
export const SANDBOX_RATES: readonly SandboxRate[] = [
  { base_currency: 'USD', quote_currency: 'NGN', rate: '1550.00' },
  { base_currency: 'GBP', quote_currency: 'USD', rate: '1.27' },
  { base_currency: 'EUR', quote_currency: 'USD', rate: '1.08' },
  { base_currency: 'USD', quote_currency: 'CAD', rate: '1.37' },
  { base_currency: 'GBP', quote_currency: 'NGN', rate: '1968.50' },
  { base_currency: 'EUR', quote_currency: 'NGN', rate: '1674.00' },
  { base_currency: 'CAD', quote_currency: 'NGN', rate: '1131.39' },
  { base_currency: 'GBP', quote_currency: 'EUR', rate: '1.1759' },
  { base_currency: 'GBP', quote_currency: 'CAD', rate: '1.7399' },
  { base_currency: 'EUR', quote_currency: 'CAD', rate: '1.4796' },
];

/** 10,000,000.00 NGN and 10,000.00 USD, GBP and EUR (every exponent is 2). */
export const SANDBOX_FUNDING: readonly SandboxFunding[] = [
  { currency: 'NGN', amount: 1_000_000_000 },
  { currency: 'USD', amount: 1_000_000 },
  { currency: 'GBP', amount: 1_000_000 },
  { currency: 'EUR', amount: 1_000_000 },
];

export const SANDBOX_FUNDING_REASON = 'sandbox funding (corridor admin sandbox seed)';

export interface MoneySeedOutcome {
  /** The pairs set now, "USD/NGN"; pairs that already had a rate keep it. */
  rates_set: string[];
  /** The wallets credited now; a wallet holding or reserving anything is left alone. */
  wallets_funded: SandboxFunding[];
}

function listOf(body: unknown, what: string): unknown[] {
  if (isRecord(body) && Array.isArray(body.data)) return body.data;
  throw new CliError(`the admin API's ${what} has no data list`);
}

/** Sets each sandbox pair that has no rate in either direction, so an operator's own rate stays. */
async function seedRates(api: AdminApi): Promise<string[]> {
  const existing = listOf(await api.call('GET', '/admin/rates'), 'rate list').filter(isRecord);
  const hasRate = (a: string, b: string) =>
    existing.some((rate) => rate.base_currency === a && rate.quote_currency === b);
  const set: string[] = [];
  for (const rate of SANDBOX_RATES) {
    if (hasRate(rate.base_currency, rate.quote_currency) || hasRate(rate.quote_currency, rate.base_currency)) continue;
    await api.call('POST', '/admin/rates', rate);
    set.push(`${rate.base_currency}/${rate.quote_currency}`);
  }
  return set;
}

/** Nothing posted, nothing reserved; a wallet payments has not opened yet is empty too. */
function isEmpty(wallet: Record<string, unknown> | undefined): boolean {
  if (!wallet) return true;
  return [wallet.available_balance, wallet.pending_balance, wallet.ledger_balance].every((balance) => balance === 0);
}

/** Credits each empty sandbox wallet, so a second `npm start` never funds it again. */
async function fundWallets(api: AdminApi, businessId: string): Promise<SandboxFunding[]> {
  const path = `/admin/businesses/${segment(businessId)}/wallets`;
  const wallets = listOf(await api.call('GET', path), 'wallet list').filter(isRecord);
  const funded: SandboxFunding[] = [];
  for (const funding of SANDBOX_FUNDING) {
    if (!isEmpty(wallets.find((wallet) => wallet.currency === funding.currency))) continue;
    await api.call('POST', `${path}/${segment(funding.currency)}/adjustments`, {
      amount: funding.amount,
      direction: 'credit',
      reason: SANDBOX_FUNDING_REASON,
    });
    funded.push(funding);
  }
  return funded;
}

/** The sandbox's money: rates to swap at and wallets to swap from. */
export async function seedSandboxMoney(api: AdminApi, businessId: string): Promise<MoneySeedOutcome> {
  return { rates_set: await seedRates(api), wallets_funded: await fundWallets(api, businessId) };
}
