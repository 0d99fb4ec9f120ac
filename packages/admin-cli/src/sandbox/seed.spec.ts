import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminApi } from '../admin-api.js';
import { fakeFetch, json, type RecordedRequest } from '../testing/fake-fetch.js';
import { SANDBOX_FUNDING, SANDBOX_FUNDING_REASON, SANDBOX_RATES } from './money.js';
import type { SandboxFile } from './sandbox-file.js';
import { seedSandbox } from './seed.js';

const ADMIN = 'http://127.0.0.1:8081';
const BASE = 'http://127.0.0.1:8080';

interface FakeWallet {
  currency: string;
  available_balance: number;
  pending_balance: number;
  ledger_balance: number;
}

interface FakeState {
  revoked?: boolean;
  known?: boolean;
  tokenStatus?: number;
  /** Mid-rates payments already has, "BASE/QUOTE" (each reverse is listed as derived). */
  rates?: string[];
  /** Wallets by business id; a business without an entry has none open yet. */
  wallets?: Record<string, FakeWallet[]>;
  /** The status GET /admin/rates answers when payments is not well. */
  ratesStatus?: number;
}

/** The admin and public APIs as far as seeding uses them: stateful for rates and wallets. */
function fakeCorridor(state: FakeState = {}) {
  let created = 0;
  let newBusinessId: string | undefined;
  const rates = new Set(state.rates ?? []);
  const wallets: Record<string, FakeWallet[]> = structuredClone(state.wallets ?? {});
  const fake = fakeFetch((request: RecordedRequest) => {
    const path = request.url.replace(/^http:\/\/127\.0\.0\.1:808[01]/, '');
    const body =
      request.headers['content-type'] === 'application/json'
        ? (JSON.parse(request.body ?? '{}') as Record<string, unknown>)
        : {};
    if (request.method === 'POST' && path === '/admin/businesses') return json(201, { id: `b-new-${++created}` });
    const newCredentials = /^\/admin\/businesses\/([^/]+)\/credentials$/.exec(path);
    if (request.method === 'POST' && newCredentials?.[1]) {
      newBusinessId = newCredentials[1];
      return json(201, { client_id: 'ci_new', client_secret: 'cs_new', business_id: newBusinessId, scopes: [] });
    }
    if (request.method === 'GET' && path === '/admin/credentials/ci_old') {
      return state.known === false
        ? json(404, { status: false, message: 'credentials ci_old not found', code: 'CREDENTIAL_NOT_FOUND' })
        : json(200, { client_id: 'ci_old', business_id: 'b-old', revoked: state.revoked ?? false });
    }
    if (request.method === 'GET' && path === '/admin/credentials/ci_new' && newBusinessId)
      return json(200, { client_id: 'ci_new', business_id: newBusinessId, revoked: false });
    if (request.method === 'POST' && path === '/oauth/token') {
      const status = state.tokenStatus ?? 200;
      return status === 200
        ? json(200, { access_token: 'jwt', token_type: 'Bearer', expires_in: 3600, scope: '' })
        : json(status, { status: false, message: `token refused (${status})`, code: 'X' });
    }
    if (request.method === 'GET' && path === '/admin/rates') {
      if (state.ratesStatus)
        return json(state.ratesStatus, { status: false, message: 'payments is unavailable', code: 'UNAVAILABLE' });
      const data = [...rates].flatMap((pair) => {
        const [base, quote] = pair.split('/');
        return [
          { base_currency: base, quote_currency: quote, rate: '2', derived: false },
          { base_currency: quote, quote_currency: base, rate: '0.5', derived: true },
        ];
      });
      return json(200, { data, default_spread_bps: 50 });
    }
    if (request.method === 'POST' && path === '/admin/rates') {
      rates.add(`${String(body.base_currency)}/${String(body.quote_currency)}`);
      return json(200, { ...body, derived: false, updated_at: '2026-01-01T00:00:00Z' });
    }
    const walletList = /^\/admin\/businesses\/([^/]+)\/wallets$/.exec(path);
    if (request.method === 'GET' && walletList?.[1]) return json(200, { data: wallets[walletList[1]] ?? [] });
    const adjustment = /^\/admin\/businesses\/([^/]+)\/wallets\/([A-Z]+)\/adjustments$/.exec(path);
    if (request.method === 'POST' && adjustment?.[1] && adjustment[2]) {
      const [, businessId, currency] = adjustment;
      const amount = Number(body.amount);
      const list = (wallets[businessId] ??= []);
      const wallet = list.find((w) => w.currency === currency);
      if (wallet) {
        wallet.available_balance += amount;
        wallet.ledger_balance += amount;
      } else {
        list.push({ currency, available_balance: amount, pending_balance: 0, ledger_balance: amount });
      }
      return json(201, { id: `t-${currency}`, type: 'ADJUSTMENT', status: 'SUCCESSFUL', currency, amount });
    }
    return json(404, { status: false, message: `no route ${request.method} ${path}` });
  });
  return { ...fake, wallets };
}

const ALL_PAIRS = [
  'USD/NGN',
  'GBP/USD',
  'EUR/USD',
  'USD/CAD',
  'GBP/NGN',
  'EUR/NGN',
  'CAD/NGN',
  'GBP/EUR',
  'GBP/CAD',
  'EUR/CAD',
];

/** "METHOD url" of each request, for the order of calls. */
const calls = (fake: ReturnType<typeof fakeCorridor>) => fake.requests.map((r) => `${r.method} ${r.url}`);
/** The money calls only: what seeding asked payments for. */
const moneyCalls = (fake: ReturnType<typeof fakeCorridor>) =>
  calls(fake).filter((call) => /\/admin\/(rates|businesses\/[^/]+\/wallets)/.test(call));

describe('sandbox seed', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'corridor-seed-'));
    file = join(dir, 'sandbox.json');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const old: SandboxFile = {
    base_url: BASE,
    admin_url: ADMIN,
    admin_token: 'admin-token',
    business_id: 'b-old',
    client_id: 'ci_old',
    client_secret: 'cs_old',
  };
  const seed = (fake: ReturnType<typeof fakeCorridor>) =>
    seedSandbox({
      api: new AdminApi({ adminUrl: ADMIN, adminToken: 'admin-token' }, fake.fetch),
      adminToken: 'admin-token',
      baseUrl: BASE,
      file,
      fetchImpl: fake.fetch,
    });
  const readBack = async () => JSON.parse(await readFile(file, 'utf8')) as SandboxFile;

  it('without a file: creates "Sandbox Platform" with full-access credentials and writes the file 0600', async () => {
    const fake = fakeCorridor();
    const outcome = await seed(fake);
    expect(outcome.reused).toBe(false);
    expect(calls(fake).slice(0, 2)).toEqual([
      `POST ${ADMIN}/admin/businesses`,
      `POST ${ADMIN}/admin/businesses/b-new-1/credentials`,
    ]);
    expect(JSON.parse(fake.requests[0]!.body!)).toEqual({ name: 'Sandbox Platform' });
    expect(JSON.parse(fake.requests[1]!.body!)).toEqual({ bundles: ['full-access'] });
    expect(await readBack()).toEqual({ ...old, business_id: 'b-new-1', client_id: 'ci_new', client_secret: 'cs_new' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('keeps a file whose credentials still get a token, without writing it', async () => {
    await writeFile(file, JSON.stringify(old), { mode: 0o600 });
    const before = (await stat(file)).mtimeMs;
    const funded = (currency: string): FakeWallet => ({
      currency,
      available_balance: 5,
      pending_balance: 0,
      ledger_balance: 5,
    });
    const fake = fakeCorridor({ rates: ALL_PAIRS, wallets: { 'b-old': ['NGN', 'USD', 'GBP', 'EUR'].map(funded) } });
    const outcome = await seed(fake);
    expect(outcome).toMatchObject({ reused: true, sandbox: old });
    expect(calls(fake)).toEqual([
      `GET ${ADMIN}/admin/credentials/ci_old`,
      `POST ${BASE}/oauth/token`,
      `GET ${ADMIN}/admin/rates`,
      `GET ${ADMIN}/admin/businesses/b-old/wallets`,
    ]);
    expect((await stat(file)).mtimeMs).toBe(before);
  });

  it.each([
    [{ revoked: true }, /ci_old is revoked/],
    [{ known: false }, /identity does not know ci_old/],
    [{ tokenStatus: 401 }, /no token for ci_old: token refused \(401\)/],
  ])('replaces credentials that no longer work (%j)', async (state, reason) => {
    await writeFile(file, JSON.stringify(old));
    const outcome = await seed(fakeCorridor(state));
    expect(outcome.reused).toBe(false);
    expect(outcome.reason).toMatch(reason);
    expect((await readBack()).client_id).toBe('ci_new');
  });

  it('replaces a file that is not JSON', async () => {
    await writeFile(file, 'oops');
    const outcome = await seed(fakeCorridor());
    expect(outcome).toMatchObject({ reused: false, reason: expect.stringMatching(/not JSON/) });
  });

  describe("the sandbox's money", () => {
    it('sets a mid-rate for every pair among NGN, USD, GBP, EUR and CAD, one direction each', async () => {
      const fake = fakeCorridor();
      const outcome = await seed(fake);
      expect(outcome.money.rates_set).toEqual(ALL_PAIRS);
      const rateBodies = fake.requests
        .filter((r) => r.method === 'POST' && r.url === `${ADMIN}/admin/rates`)
        .map((r) => JSON.parse(r.body ?? '{}') as unknown);
      expect(rateBodies).toEqual(SANDBOX_RATES);
      expect(rateBodies).toContainEqual({ base_currency: 'USD', quote_currency: 'NGN', rate: '1550.00' });
      // Every unordered pair of the five currencies, exactly once.
      const pairs = new Set(ALL_PAIRS.map((pair) => pair.split('/').sort().join('/')));
      expect(pairs.size).toBe(10);
    });

    it("funds the new business's NGN, USD, GBP and EUR wallets through the admin adjustment route", async () => {
      const fake = fakeCorridor();
      const outcome = await seed(fake);
      const adjustments = fake.requests.filter((r) => r.url.endsWith('/adjustments'));
      expect(adjustments.map((r) => [r.url, JSON.parse(r.body ?? '{}') as unknown])).toEqual(
        [
          ['NGN', 1_000_000_000],
          ['USD', 1_000_000],
          ['GBP', 1_000_000],
          ['EUR', 1_000_000],
        ].map(([currency, amount]) => [
          `${ADMIN}/admin/businesses/b-new-1/wallets/${String(currency)}/adjustments`,
          { amount, direction: 'credit', reason: SANDBOX_FUNDING_REASON },
        ]),
      );
      expect(outcome.money.wallets_funded).toEqual(SANDBOX_FUNDING);
      expect(fake.wallets['b-new-1']?.map((w) => [w.currency, w.available_balance])).toEqual([
        ['NGN', 1_000_000_000],
        ['USD', 1_000_000],
        ['GBP', 1_000_000],
        ['EUR', 1_000_000],
      ]);
    });

    it('a second run funds nothing and sets no rate again', async () => {
      const fake = fakeCorridor();
      await seed(fake);
      const firstRun = fake.requests.length;
      const again = await seed(fake);
      expect(again).toMatchObject({ reused: true, money: { rates_set: [], wallets_funded: [] } });
      expect(calls(fake).slice(firstRun)).toEqual([
        `GET ${ADMIN}/admin/credentials/ci_new`,
        `POST ${BASE}/oauth/token`,
        `GET ${ADMIN}/admin/rates`,
        `GET ${ADMIN}/admin/businesses/b-new-1/wallets`,
      ]);
      expect(fake.wallets['b-new-1']?.find((w) => w.currency === 'USD')?.available_balance).toBe(1_000_000);
    });

    it("keeps an operator's rate, set in either direction, and sets only the missing pairs", async () => {
      const fake = fakeCorridor({ rates: ['NGN/USD', 'GBP/USD'] });
      const outcome = await seed(fake);
      expect(outcome.money.rates_set).toEqual(ALL_PAIRS.filter((pair) => pair !== 'USD/NGN' && pair !== 'GBP/USD'));
    });

    it('funds only the empty wallets: one holding or reserving money is left alone', async () => {
      await writeFile(file, JSON.stringify(old));
      const wallet = (currency: string, available: number, pending: number): FakeWallet => ({
        currency,
        available_balance: available,
        pending_balance: pending,
        ledger_balance: available + pending,
      });
      const fake = fakeCorridor({
        rates: ALL_PAIRS,
        // NGN spent down to nothing, USD with money, GBP with everything reserved, EUR not opened.
        wallets: { 'b-old': [wallet('NGN', 0, 0), wallet('USD', 1, 0), wallet('GBP', 0, 700)] },
      });
      const outcome = await seed(fake);
      expect(outcome.money.wallets_funded.map((funding) => funding.currency)).toEqual(['NGN', 'EUR']);
      expect(moneyCalls(fake).filter((call) => call.startsWith('POST'))).toEqual([
        `POST ${ADMIN}/admin/businesses/b-old/wallets/NGN/adjustments`,
        `POST ${ADMIN}/admin/businesses/b-old/wallets/EUR/adjustments`,
      ]);
    });

    it('payments failing is an error, and the credentials just made are kept for the next run', async () => {
      const fake = fakeCorridor({ ratesStatus: 503 });
      await expect(seed(fake)).rejects.toThrow('payments is unavailable');
      expect((await readBack()).client_id).toBe('ci_new');
      expect(fake.requests.some((r) => r.url.endsWith('/adjustments'))).toBe(false);
    });
  });

  it('a server failure is an error, not a reason for a second sandbox business', async () => {
    await writeFile(file, JSON.stringify(old));
    await expect(seed(fakeCorridor({ tokenStatus: 503 }))).rejects.toThrow('token refused (503)');
    expect(await readBack()).toEqual(old);
  });
});
