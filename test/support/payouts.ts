import { randomInt } from 'node:crypto';
import { eventually } from '@corridor/testing';
import { jsonOf } from './customers.js';
import { PaymentsApi } from './payments.js';

/** Every scope the payout routes ask for (seed part 5), with the payments reads a payout suite makes. */
export const PAYOUT_SCOPES = [
  'payout:create',
  'bank:read',
  'beneficiary:read',
  'fees:read',
  'wallet:read',
  'transaction:read',
] as const;

const NO_ID = '00000000-0000-4000-8000-000000000000';

/** Every public payout route with its scope: a token without the scope is refused on each. */
export const PAYOUT_ROUTES = [
  { method: 'POST', path: '/payout', scope: 'payout:create' },
  { method: 'GET', path: `/payout/${NO_ID}`, scope: 'transaction:read' },
  { method: 'GET', path: '/bank', scope: 'bank:read' },
  { method: 'GET', path: '/bank/account-lookup?bank_code=058&account_number=0000000000', scope: 'bank:read' },
  { method: 'GET', path: '/beneficiary', scope: 'beneficiary:read' },
  { method: 'GET', path: `/beneficiary/${NO_ID}`, scope: 'beneficiary:read' },
] as const;

/** payments' environment for the payout suites: the sandbox rail and the worker, scaled down. */
export const PAYOUT_TIMINGS = {
  SANDBOX_RAIL_SETTLE_MS: '300',
  SANDBOX_RAIL_REVERSE_MS: '500',
  PAYOUT_POLL_INTERVAL_MS: '200',
} as const;

/** The sandbox rail's magic account cores (decision 0013): the last digit picks the outcome. */
export const MAGIC_CORES = {
  invalidAccount: '999000001',
  bankUnavailable: '999000002',
  delayed: '999000003',
  reversed: '999000004',
  accountClosed: '999000005',
  notFound: '999000009',
} as const;

// CBN's NUBAN weights over the 3-digit bank code and the 9-digit serial, written here apart from
// payments' own directory so the tests do not trust the code they check.
const NUBAN_WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3];

/** A valid 10-digit NUBAN of a Nigerian bank: the 9-digit serial and its check digit. */
export function nuban(bankCode: string, serial: string): string {
  if (!/^\d{3}$/.test(bankCode) || !/^\d{9}$/.test(serial)) throw new Error(`not a NUBAN: ${bankCode}/${serial}`);
  const digits = `${bankCode}${serial}`.split('').map(Number);
  const sum = digits.reduce((total, digit, index) => total + digit * (NUBAN_WEIGHTS[index] ?? 0), 0);
  return `${serial}${(10 - (sum % 10)) % 10}`;
}

/** The same serial with a wrong check digit. */
export function badNuban(bankCode: string, serial: string): string {
  const good = nuban(bankCode, serial);
  return `${serial}${(Number(good[9]) + 1) % 10}`;
}

/** A random serial that is not magic (never 9990…): the sandbox settles it successfully. */
export const ordinarySerial = () => `${1 + randomInt(8)}${String(randomInt(100_000_000)).padStart(8, '0')}`;

export interface BankJson {
  code: string;
  name: string;
  country: string;
  currency: string;
  scheme: 'nuban' | 'sort_code' | 'iban' | 'aba';
}

export interface DestinationJson {
  bank_code: string;
  bank_name: string;
  account_number: string;
  account_name: string;
  currency: string;
}

export type PayoutStatusWord = 'pending' | 'processing' | 'successful' | 'failed' | 'reversed';

/** A payout as @corridor/payments-json renders it (amount positive; the id is the transaction's). */
export interface PayoutJson {
  id: string;
  status: PayoutStatusWord;
  amount: number;
  fee: number;
  currency: string;
  reference: string | null;
  narration: string;
  destination: DestinationJson;
  beneficiary_id: string | null;
  failure_reason:
    null | 'invalid_account' | 'account_closed' | 'bank_unavailable' | 'rejected_by_bank' | 'returned_by_bank';
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  reversed_at: string | null;
}

export interface BeneficiaryJson extends DestinationJson {
  id: string;
  created_at: string;
  last_used_at: string | null;
}

/** GET /beneficiary: the cursor envelope of GET /transaction. */
export interface BeneficiaryPage {
  data: BeneficiaryJson[];
  links: { first: null; last: null; prev: string | null; next: string | null };
  meta: { path: string; per_page: number; next_cursor: string | null; prev_cursor: string | null };
}

/** GET /admin/payouts/{id}/rail: what the sandbox bank saw. */
export interface RailPayoutJson {
  payout_id: string;
  submit_calls: number;
  state: 'accepted' | 'successful' | 'failed' | 'reversed';
}

/** A status a payout stays in (a successful one may still be reversed: see `payoutWhen`). */
export const isFinal = (status: PayoutStatusWord) => ['successful', 'failed', 'reversed'].includes(status);

/** The payments API with the payout routes (issue 12): banks, lookups, beneficiaries, payouts. */
export class PayoutsApi extends PaymentsApi {
  async banks(token: string, query: Record<string, string> = {}): Promise<BankJson[]> {
    const search = new URLSearchParams(query);
    return this.data(
      await this.call(token, 'GET', `/bank${search.size > 0 ? `?${search}` : ''}`),
      200,
      `banks ${search}`,
    );
  }

  lookupResponse(token: string, bankCode: string, accountNumber: string): Promise<Response> {
    const search = new URLSearchParams({ bank_code: bankCode, account_number: accountNumber });
    return this.call(token, 'GET', `/bank/account-lookup?${search}`);
  }

  async lookup(token: string, bankCode: string, accountNumber: string): Promise<DestinationJson> {
    return this.data(await this.lookupResponse(token, bankCode, accountNumber), 200, 'account lookup');
  }

  payoutResponse(token: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.call(token, 'POST', '/payout', body, headers);
  }

  /** POST /payout (201 "payout created"). */
  async payout(
    token: string,
    body: Record<string, unknown>,
    headers: Record<string, string> = {},
  ): Promise<PayoutJson> {
    const answer = await jsonOf<{ message: string; data: PayoutJson }>(
      await this.payoutResponse(token, body, headers),
      201,
      'payout',
    );
    // Thrown, not expect()ed: the bench uses this helper outside jest.
    if (answer.message !== 'payout created') throw new Error(`payout answered the message "${answer.message}"`);
    return answer.data;
  }

  async getPayout(token: string, id: string): Promise<PayoutJson> {
    return this.data(await this.call(token, 'GET', `/payout/${id}`), 200, `payout ${id}`);
  }

  /** Polls GET /payout/{id} until `accept` holds; the last one read. */
  async payoutWhen(
    token: string,
    id: string,
    accept: (payout: PayoutJson) => boolean,
    timeoutMs = 30_000,
  ): Promise<PayoutJson> {
    return eventually(
      async () => {
        const payout = await this.getPayout(token, id);
        if (!accept(payout)) throw new Error(`payout ${id} is not there yet: ${JSON.stringify(payout)}`);
        return payout;
      },
      timeoutMs,
      200,
    );
  }

  /** GET /beneficiary with a query string, or a full `links` URL of a previous page. */
  async beneficiaries(token: string, queryOrLink = ''): Promise<BeneficiaryPage> {
    const path = queryOrLink.startsWith('http') ? queryOrLink : `/beneficiary${queryOrLink ? `?${queryOrLink}` : ''}`;
    return jsonOf(await this.call(token, 'GET', path), 200, `beneficiaries ${queryOrLink}`);
  }

  async beneficiary(token: string, id: string): Promise<BeneficiaryJson> {
    return this.data(await this.call(token, 'GET', `/beneficiary/${id}`), 200, `beneficiary ${id}`);
  }

  /** PUT /admin/businesses/{id}/payout-limits/{currency}; null removes the limit. */
  setPayoutLimit(
    businessId: string,
    currency: string,
    dailyLimit: number | null,
  ): Promise<{ business_id: string; currency: string; daily_limit: number | null }> {
    return this.admin(
      'PUT',
      `/admin/businesses/${businessId}/payout-limits/${currency}`,
      { daily_limit: dailyLimit },
      200,
      'set payout limit',
    );
  }

  /** GET /admin/payouts/{id}/rail. */
  railPayout(payoutId: string): Promise<RailPayoutJson> {
    return this.admin('GET', `/admin/payouts/${payoutId}/rail`, undefined, 200, `rail payout ${payoutId}`);
  }
}

/** Runs `task` over `items` with at most `limit` in flight; the results in the items' order. */
export async function inBatches<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const done: { index: number; result: R }[] = [];
  const queue = items.map((item, index) => ({ item, index }));
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift())
      done.push({ index: next.index, result: await task(next.item) });
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return done.sort((a, b) => a.index - b.index).map(({ result }) => result);
}
