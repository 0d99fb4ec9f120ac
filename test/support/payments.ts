import { randomBytes } from 'node:crypto';
import {
  eventually,
  EventCollector,
  logged,
  startService,
  type ServiceProcess,
  type TestDatabase,
} from '@corridor/testing';
import { jsonOf } from './customers.js';
import { migratedDatabase } from './databases.js';
import type { Platform } from './platform.js';

/** Every scope a payments route asks for (seed part 5). */
export const PAYMENTS_SCOPES = [
  'currency:read',
  'rates:read',
  'fees:read',
  'wallet:read',
  'swap:create',
  'transaction:read',
] as const;

/** Every public payments route with its scope: a token without the scope is refused on each. */
export const PAYMENTS_ROUTES = [
  { method: 'GET', path: '/api/external/currency', scope: 'currency:read' },
  { method: 'GET', path: '/api/external/rates?from=USD&to=NGN', scope: 'rates:read' },
  { method: 'GET', path: '/api/external/fees?type=swap&currency=USD&amount=100', scope: 'fees:read' },
  { method: 'GET', path: '/api/external/wallet', scope: 'wallet:read' },
  { method: 'POST', path: '/api/external/swap', scope: 'swap:create' },
  { method: 'GET', path: '/api/external/transaction/00000000-0000-4000-8000-000000000000', scope: 'transaction:read' },
  { method: 'GET', path: '/api/external/transaction', scope: 'transaction:read' },
] as const;

export const CURRENCIES = ['NGN', 'USD', 'GBP', 'EUR', 'CAD'] as const;

export interface SwapDetailsJson {
  from_currency: string;
  from_amount: number;
  to_currency: string;
  to_amount: number;
  rate: string;
  fee: number;
  quote_id: string | null;
  amount_side: 'from' | 'to';
}

/** A transaction as the gateway answers it (signed as the wallet sees it: net = amount - fee). */
export interface TransactionJson {
  id: string;
  type: 'SWAP' | 'COLLECTION' | 'PAYOUT' | 'REFUND' | 'ADJUSTMENT';
  status: 'PENDING' | 'PROCESSING' | 'SUCCESSFUL' | 'FAILED' | 'EXPIRED' | 'REVERSED';
  currency: string;
  amount: number;
  fee: number;
  net: number;
  reference: string | null;
  description: string;
  refund_status: null | 'processing' | 'successful' | 'failed';
  swap_details: SwapDetailsJson | null;
  created_at: string;
  updated_at: string;
}

/** The Laravel cursor-paginator envelope of GET /transaction. */
export interface TransactionPage {
  data: TransactionJson[];
  links: { first: null; last: null; prev: string | null; next: string | null };
  meta: { path: string; per_page: number; next_cursor: string | null; prev_cursor: string | null };
}

export interface WalletJson {
  currency: string;
  available_balance: number;
  pending_balance: number;
  ledger_balance: number;
  updated_at: string | null;
}

export interface QuoteJson {
  quote_id: string;
  from_currency: string;
  to_currency: string;
  rate: string;
  mid_rate: string;
  spread_bps: number;
  created_at: string;
  expires_at: string;
}

export interface FeesJson {
  type: string;
  currency: string;
  amount: number;
  flat: number;
  percentage_bps: number;
  percentage_amount: number;
  minimum: number | null;
  maximum: number | null;
  total: number;
}

export interface FeeRuleBody {
  business_id?: string | null;
  type: 'swap' | 'collection' | 'payout' | 'refund';
  currency: string;
  flat: number;
  percentage_bps: number;
  minimum?: number | null;
  maximum?: number | null;
}

export interface LedgerCheckJson {
  ok: boolean;
  violations: { rule: string; currency: string; account: string; detail: string }[];
  accounts_checked: number;
  transfers_checked: number;
  checked_at: string;
}

/** A platform business with a token for the payments routes. */
export interface PaymentsCaller {
  token: string;
  businessId: string;
}

/** A decimal string as an integer count of 10^-12: rates carry at most 12 fraction digits. */
export function rateUnits(rate: string): bigint {
  const match = /^(\d+)(?:\.(\d{1,12}))?$/.exec(rate);
  if (!match) throw new Error(`not a decimal rate: ${rate}`);
  return BigInt(match[1] ?? '0') * 10n ** 12n + BigInt((match[2] ?? '').padEnd(12, '0'));
}

/** floor(amount * rate) in exact arithmetic: what a swap of `amount` minor units delivers. */
export function convert(amount: number, rate: string): number {
  return Number((BigInt(amount) * rateUnits(rate)) / 10n ** 12n);
}

/** payments as a real process of a platform: its own database, a free port, the platform's Kafka. */
export class PaymentsProcess {
  process: ServiceProcess | undefined;
  db: TestDatabase | undefined;
  /** Its gRPC port; with `payments: false`, a port nobody listens on (never `npm start`'s). */
  port = 0;

  constructor(
    private readonly platform: Platform,
    private readonly extraEnv: Record<string, string> = {},
  ) {}

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  async createDatabase(): Promise<TestDatabase> {
    this.db = await migratedDatabase('payments', this.platform.postgresAdminUrl, this.platform.rootOf('payments'));
    return this.db;
  }

  /** payments' environment: this platform's database, topic prefix and identity. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    if (!this.db) throw new Error('payments is not part of this platform (payments: false)');
    return {
      PAYMENTS_GRPC_ADDRESS: this.address,
      DATABASE_URL: this.db.url,
      KAFKA_BROKERS: this.platform.kafkaBrokers,
      KAFKA_TOPIC_PREFIX: this.platform.topicPrefix,
      CORRIDOR_ENVIRONMENT: this.platform.environment,
      IDENTITY_GRPC_ADDRESS: this.platform.identityAddress,
      CUSTOMER_GRPC_ADDRESS: this.platform.customerAddress,
      OUTBOX_POLL_INTERVAL_MS: '200',
      ...this.platform.telemetryEnv(),
      ...this.extraEnv,
      ...extra,
    };
  }

  /** (Re)starts payments, for example after killing it. */
  async start(extra: Record<string, string> = {}): Promise<ServiceProcess> {
    this.process = await startService({
      service: 'payments',
      root: this.platform.rootOf('payments'),
      env: this.env(extra),
      ready: logged('payments listening'),
      supervised: this.platform.supervised,
    });
    return this.process;
  }

  /** Stops payments (SIGTERM unless told), e.g. SIGKILL for a crash. */
  async kill(signal?: NodeJS.Signals): Promise<void> {
    await this.process?.kill(signal);
  }

  /**
   * A crash and a restart: kills payments with `signal` (SIGKILL: no shutdown hook runs), starts it
   * again on the same port and database, and waits until the gateway reaches it.
   */
  async restart(signal: NodeJS.Signals = 'SIGKILL', extra: Record<string, string> = {}): Promise<ServiceProcess> {
    await this.kill(signal);
    const restarted = await this.start(extra);
    await eventually(async () => {
      const ready = await fetch(`${this.platform.publicUrl}/readyz`);
      if (ready.status !== 200) throw new Error(`gateway not ready: ${await ready.text()}`);
    }, 15_000);
    return restarted;
  }

  async drop(): Promise<void> {
    await this.db?.drop();
  }
}

const BASE = '/api/external';
const json = { 'content-type': 'application/json' };

/**
 * The payments routes through a platform's gateway and admin listener. Each helper asserts the
 * documented success status and returns the answer; `call` and `swapResponse` are for failure cases.
 */
export class PaymentsApi {
  constructor(private readonly platform: Platform) {}

  /** A new business with a token for every payments route (or the given scopes). */
  async caller(scopes: readonly string[] = PAYMENTS_SCOPES): Promise<PaymentsCaller> {
    const { token, businessId } = await this.platform.tokenFor([...scopes]);
    return { token, businessId };
  }

  /** A public call; `body` is sent as is when a string (for malformed JSON), else as JSON. */
  call(
    token: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    // A `links` URL of a page is followed as it stands (its host is checked by the tests).
    const url = path.startsWith('http') ? `${new URL(path).pathname}${new URL(path).search}` : `${BASE}${path}`;
    return this.platform.api(url, token, {
      method,
      headers: body === undefined ? headers : { ...json, ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  }

  protected async data<T>(response: Response, status: number, what: string): Promise<T> {
    return (await jsonOf<{ message: string; data: T }>(response, status, what)).data;
  }

  protected async admin<T>(method: string, path: string, body: unknown, status: number, what: string): Promise<T> {
    const response = await this.platform.admin(path, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return jsonOf<T>(response, status, what);
  }

  // --- back office -----------------------------------------------------------------------------

  /** POST …/adjustments: a raw answer, for refusals. */
  adjustment(businessId: string, currency: string, body: Record<string, unknown>): Promise<Response> {
    return this.platform.admin(`/admin/businesses/${businessId}/wallets/${currency}/adjustments`, {
      method: 'POST',
      body: JSON.stringify(body),
    });
  }

  /** Credits the wallet through an admin adjustment; the ADJUSTMENT transaction. */
  async fund(businessId: string, currency: string, amount: number): Promise<TransactionJson> {
    const response = await this.adjustment(businessId, currency, {
      amount,
      direction: 'credit',
      reason: `e2e funding ${randomBytes(2).toString('hex')}`,
    });
    return jsonOf<TransactionJson>(response, 201, `fund ${currency}`);
  }

  /** POST /admin/rates: the mid-rate of a pair (the reverse is derived unless set itself). */
  setRate(base: string, quote: string, rate: string): Promise<Record<string, unknown>> {
    return this.admin('POST', '/admin/rates', { base_currency: base, quote_currency: quote, rate }, 200, 'set rate');
  }

  setSpread(businessId: string, spreadBps: number): Promise<{ business_id: string; spread_bps: number }> {
    return this.admin('PUT', `/admin/businesses/${businessId}/spread`, { spread_bps: spreadBps }, 200, 'set spread');
  }

  setFeeRule(rule: FeeRuleBody): Promise<Record<string, unknown>> {
    return this.admin('PUT', '/admin/fees', rule, 200, 'set fee rule');
  }

  async adminWallets(businessId: string): Promise<WalletJson[]> {
    return (
      await this.admin<{ data: WalletJson[] }>(
        'GET',
        `/admin/businesses/${businessId}/wallets`,
        undefined,
        200,
        'wallets',
      )
    ).data;
  }

  checkLedger(): Promise<LedgerCheckJson> {
    return this.admin('GET', '/admin/ledger/check', undefined, 200, 'ledger check');
  }

  /** DESIGN.md "The books always balance": ok, with no violation named. */
  async expectBooksBalance(): Promise<LedgerCheckJson> {
    const check = await this.checkLedger();
    expect({ ok: check.ok, violations: check.violations }).toEqual({ ok: true, violations: [] });
    return check;
  }

  // --- the public API --------------------------------------------------------------------------

  async wallets(token: string): Promise<WalletJson[]> {
    return this.data(await this.call(token, 'GET', '/wallet'), 200, 'wallets');
  }

  async wallet(token: string, currency: string): Promise<WalletJson> {
    const wallet = (await this.wallets(token)).find((w) => w.currency === currency);
    if (!wallet) throw new Error(`no ${currency} wallet`);
    return wallet;
  }

  async quote(token: string, from: string, to: string): Promise<QuoteJson> {
    return this.data(await this.call(token, 'GET', `/rates?from=${from}&to=${to}`), 200, `quote ${from}/${to}`);
  }

  async fees(token: string, type: string, currency: string, amount: number): Promise<FeesJson> {
    const query = new URLSearchParams({ type, currency, amount: String(amount) });
    return this.data(await this.call(token, 'GET', `/fees?${query}`), 200, `fees ${type} ${currency}`);
  }

  swapResponse(token: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.call(token, 'POST', '/swap', body, headers);
  }

  async swap(
    token: string,
    body: Record<string, unknown>,
    headers: Record<string, string> = {},
  ): Promise<TransactionJson> {
    return this.data(await this.swapResponse(token, body, headers), 201, 'swap');
  }

  async transaction(token: string, id: string): Promise<TransactionJson> {
    return this.data(await this.call(token, 'GET', `/transaction/${id}`), 200, `transaction ${id}`);
  }

  /** GET /transaction with a query string, or a full `links` URL of a previous page. */
  async transactions(token: string, queryOrLink = ''): Promise<TransactionPage> {
    const path = queryOrLink.startsWith('http') ? queryOrLink : `/transaction${queryOrLink ? `?${queryOrLink}` : ''}`;
    return jsonOf(await this.call(token, 'GET', path), 200, `transactions ${queryOrLink}`);
  }

  /** A collector of every event on `<prefix>corridor.payments.v1`; stop it after use. */
  events(): Promise<EventCollector> {
    return new EventCollector([this.platform.paymentsTopic]).start();
  }
}
