import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../cli.js';
import { captureIo, fakeFetch, json, type Responder } from '../testing/fake-fetch.js';

describe('corridor admin rates, wallets, ledger and the sandbox money (in-process, fake admin API)', () => {
  let localDir: string;
  beforeEach(async () => {
    localDir = await mkdtemp(join(tmpdir(), 'corridor-cli-money-'));
  });
  afterEach(() => rm(localDir, { recursive: true, force: true }));

  const run = async (args: string[], respond: Responder = () => json(200, { ok: true })) => {
    const fake = fakeFetch(respond);
    const captured = captureIo(fake.fetch, {
      CORRIDOR_LOCAL: localDir,
      CORRIDOR_ADMIN_URL: 'http://admin.test:8081',
      CORRIDOR_BASE_URL: 'http://public.test:8080',
      ADMIN_TOKEN: 'env-token',
    });
    const code = await runCli(args, captured.io);
    return { code, requests: fake.requests, stdout: captured.stdout(), stderr: captured.stderr() };
  };
  const bodyOf = (body: string | undefined): unknown => (body === undefined ? undefined : JSON.parse(body));

  it('rates set USD NGN 1550.25 posts the pair with the rate as a decimal string', async () => {
    const result = await run(['admin', 'rates', 'set', 'USD', 'NGN', '1550.25']);
    expect(result.code).toBe(0);
    expect(result.requests[0]).toMatchObject({ method: 'POST', url: 'http://admin.test:8081/admin/rates' });
    expect(bodyOf(result.requests[0]?.body)).toEqual({ base_currency: 'USD', quote_currency: 'NGN', rate: '1550.25' });
  });

  it.each(['0', '0.000', '1,550', '-3', '1e3', '1.1234567890123'])(
    'rates set USD NGN %s exits 1 before any request',
    async (rate) => {
      const result = await run(['admin', 'rates', 'set', 'USD', 'NGN', rate]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/expected a positive decimal such as 1550.25/);
      expect(result.requests).toHaveLength(0);
    },
  );

  it('rates list and wallets list read the admin API', async () => {
    expect((await run(['admin', 'rates', 'list'])).requests[0]?.url).toBe('http://admin.test:8081/admin/rates');
    const wallets = await run(['admin', 'wallets', 'list', 'b-1']);
    expect(wallets.requests[0]).toMatchObject({
      method: 'GET',
      url: 'http://admin.test:8081/admin/businesses/b-1/wallets',
    });
  });

  it('wallets adjust credits a wallet with the amount in minor units and the reason', async () => {
    const result = await run(
      ['admin', 'wallets', 'adjust', 'b-1', 'USD', '--amount', '250000', '--direction', 'credit', '--reason', 'refund'],
      () => json(201, { id: 't-1', type: 'ADJUSTMENT', amount: 250000 }),
    );
    expect(result.code).toBe(0);
    expect(result.requests[0]).toMatchObject({
      method: 'POST',
      url: 'http://admin.test:8081/admin/businesses/b-1/wallets/USD/adjustments',
    });
    expect(bodyOf(result.requests[0]?.body)).toEqual({ amount: 250000, direction: 'credit', reason: 'refund' });
    expect(JSON.parse(result.stdout)).toMatchObject({ type: 'ADJUSTMENT' });
  });

  it.each([
    [['--amount', '10.50', '--direction', 'credit', '--reason', 'x'], /expected a whole number of minor units/],
    [['--amount', '9007199254740993', '--direction', 'debit', '--reason', 'x'], /expected a whole number/],
    [['--amount', '100', '--direction', 'up', '--reason', 'x'], /expected credit or debit/],
    [['--amount', '100', '--direction', 'debit'], /required option '--reason <text>' not specified/],
  ])('wallets adjust b-1 USD %j exits 1 before any request', async (options, message) => {
    const result = await run(['admin', 'wallets', 'adjust', 'b-1', 'USD', ...options]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.requests).toHaveLength(0);
  });

  it('ledger check prints the report and exits 0 when the books balance', async () => {
    const report = { ok: true, violations: [], accounts_checked: 12, transfers_checked: 40, checked_at: 'now' };
    const result = await run(['admin', 'ledger', 'check'], () => json(200, report));
    expect(result.code).toBe(0);
    expect(result.requests[0]?.url).toBe('http://admin.test:8081/admin/ledger/check');
    expect(JSON.parse(result.stdout)).toEqual(report);
  });

  it('ledger check prints the report and exits 1 when an invariant is broken', async () => {
    const violation = { rule: 'currency_unbalanced', currency: 'USD', account: '', detail: 'debits 10 ≠ credits 9' };
    const result = await run(['admin', 'ledger', 'check'], () =>
      json(200, { ok: false, violations: [violation], accounts_checked: 2, transfers_checked: 1, checked_at: 'now' }),
    );
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, violations: [violation] });
    expect(result.stderr).toBe('corridor: the ledger check found violations (1); see the report above\n');
  });

  it('sandbox seed says what it set and funded, and prints it in its JSON', async () => {
    const result = await run(['admin', 'sandbox', 'seed'], (request) => {
      const path = new URL(request.url).pathname;
      if (path === '/admin/businesses') return json(201, { id: 'b-1' });
      if (path === '/admin/businesses/b-1/credentials') return json(201, { client_id: 'ci_1', client_secret: 's' });
      if (path === '/admin/rates' && request.method === 'GET')
        return json(200, {
          data: [{ base_currency: 'NGN', quote_currency: 'USD', rate: '0.0006', derived: false }],
          default_spread_bps: 50,
        });
      if (path === '/admin/businesses/b-1/wallets')
        return json(200, {
          data: [{ currency: 'USD', available_balance: 10, pending_balance: 0, ledger_balance: 10 }],
        });
      return json(201, {});
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /\nset rates GBP\/USD, EUR\/USD, USD\/CAD, GBP\/NGN, EUR\/NGN, CAD\/NGN, GBP\/EUR, GBP\/CAD, EUR\/CAD; funded 10000000\.00 NGN, 10000\.00 GBP, 10000\.00 EUR\n$/,
    );
    expect(JSON.parse(result.stdout)).toMatchObject({
      business_id: 'b-1',
      rates_set: expect.arrayContaining(['GBP/USD']),
      wallets_funded: [
        { currency: 'NGN', amount: 1_000_000_000 },
        { currency: 'GBP', amount: 1_000_000 },
        { currency: 'EUR', amount: 1_000_000 },
      ],
    });
  });
});
