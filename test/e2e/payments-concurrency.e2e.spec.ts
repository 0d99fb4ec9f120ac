import { expectError, Platform } from '../support/platform.js';
import { PAYMENTS_SCOPES, type PaymentsCaller, type TransactionJson } from '../support/payments.js';

const AFFORDABLE = 100;
const ATTEMPTS = 200;
const AMOUNT = 10_00;

/**
 * DESIGN.md "Locks": a wallet's available balance never goes below zero, enforced in the statement
 * that moves it, not by a read before the write. 200 swaps race for a wallet that affords 100.
 */
describe('payments: concurrent swaps never overdraw a wallet', () => {
  const platform = new Platform();
  const api = platform.payments;
  let caller: PaymentsCaller;

  beforeAll(async () => {
    await platform.start();
    const business = await platform.createBusiness('Racing Co');
    // The burst and its reads must not meet the rate limit (120 a minute by default).
    await platform.patchBusiness(business.id, { rate_limits: { per_minute: 100_000, per_hour: 6_000_000 } });
    const credentials = await platform.createCredentials(business.id);
    caller = { businessId: business.id, token: await platform.accessToken(credentials, PAYMENTS_SCOPES.join(' ')) };
    await api.setRate('USD', 'NGN', '1500.25');
    await api.setFeeRule({
      business_id: caller.businessId,
      type: 'swap',
      currency: 'USD',
      flat: 25,
      percentage_bps: 100,
    });
  });
  afterAll(async () => {
    try {
      if (platform.started) await api.expectBooksBalance();
    } finally {
      await platform.stop();
    }
  });

  it('of 200 concurrent swaps against a wallet that affords exactly 100, exactly 100 succeed; it ends at 0', async () => {
    const { total: fee } = await api.fees(caller.token, 'swap', 'USD', AMOUNT);
    expect(fee).toBe(25 + 10);
    await api.fund(caller.businessId, 'USD', AFFORDABLE * (AMOUNT + fee));

    const responses = await Promise.all(
      Array.from({ length: ATTEMPTS }, () =>
        api.swapResponse(caller.token, { from_currency: 'USD', to_currency: 'NGN', amount: AMOUNT }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect({
      created: statuses.filter((status) => status === 201).length,
      refused: statuses.filter((status) => status === 422).length,
    }).toEqual({ created: AFFORDABLE, refused: ATTEMPTS - AFFORDABLE });

    const swaps: TransactionJson[] = [];
    for (const response of responses) {
      if (response.status === 201) swaps.push(((await response.json()) as { data: TransactionJson }).data);
      else await expectError(response, 422, { code: 'INSUFFICIENT_FUNDS' });
    }
    expect(new Set(swaps.map((swap) => swap.id)).size).toBe(AFFORDABLE);
    for (const swap of swaps) expect(swap).toMatchObject({ amount: -AMOUNT, fee, status: 'SUCCESSFUL' });

    const delivered = swaps.reduce((sum, swap) => sum + (swap.swap_details?.to_amount ?? 0), 0);
    expect(delivered).toBe(AFFORDABLE * (swaps[0]?.swap_details?.to_amount ?? -1));
    expect(await api.wallet(caller.token, 'USD')).toMatchObject({
      available_balance: 0,
      pending_balance: 0,
      ledger_balance: 0,
    });
    expect(await api.wallet(caller.token, 'NGN')).toMatchObject({
      available_balance: delivered,
      pending_balance: 0,
      ledger_balance: delivered,
    });
    // The list agrees: 100 swaps, no more.
    const listed = await api.transactions(caller.token, 'type=SWAP&per_page=100');
    expect(listed.data).toHaveLength(AFFORDABLE);
    expect(listed.links.next).toBeNull();
    await api.expectBooksBalance();
  });
});
