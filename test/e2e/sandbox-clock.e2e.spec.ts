import { createTestCertificates, eventually, type ReceivedWebhook, type TestCertificates } from '@corridor/testing';
import { listMissedEvents } from '@corridor/webhook-signature';
import { CollectionsApi, collectionHookOf, COLLECTION_SCOPES } from '../support/collections.js';
import { jsonOf, unique } from '../support/customers.js';
import { expectError, Platform } from '../support/platform.js';
import { MAGIC_CORES, nuban, PAYOUT_SCOPES, PayoutsApi } from '../support/payouts.js';
import { ReceivingBusiness, RECEIVING_SCOPES, receiverEnv } from '../support/receiving-business.js';

/** Seed 6.4's schedule as it is (1 m, 5 m, 15 m, 1 h): the clock, not the environment, makes it short. */
const SEED_SCHEDULE = [0, 60_000, 300_000, 900_000, 3_600_000];
const HOUR = 3_600;
const DAY = 24 * HOUR;
/** What "within seconds" means for a moved clock (issue 34: under 10 s of wall time). */
const WITHIN_MS = 10_000;

interface ClockJson {
  now: string;
  offset_seconds: number;
  created_at: string;
  updated_at: string;
}

/**
 * Issue 34 part 5 (decision 0069): a business's sandbox clock. Every deadline of the business is
 * judged against it in every service, with the platform's real settings (a 48 h money request, the
 * 7-day refund window, a 60 s quote, a 24 h KYC session, seed 6.4's retry ladder): no environment
 * variable shortens them. Production refuses the clock.
 */
describe('the sandbox clock (issue 34 part 5; decision 0069)', () => {
  let certificates: TestCertificates;
  let platform: Platform;
  const production = new Platform({ environment: 'production', customers: false, notifications: false });
  let api: CollectionsApi;
  let payouts: PayoutsApi;
  const businesses: ReceivingBusiness[] = [];

  beforeAll(async () => {
    certificates = await createTestCertificates();
    platform = new Platform({ notificationEnv: receiverEnv(certificates, SEED_SCHEDULE) });
    api = new CollectionsApi(platform);
    payouts = new PayoutsApi(platform);
    await Promise.all([platform.start(), production.start()]);
  });
  afterAll(async () => {
    await Promise.all(businesses.map((business) => business.stop()));
    await Promise.all([platform?.stop(), production.stop()]);
  });

  const business = async () => {
    const owner = await ReceivingBusiness.create(platform, certificates);
    businesses.push(owner);
    const token = await owner.tokenWith([
      ...new Set([...RECEIVING_SCOPES, ...COLLECTION_SCOPES, ...PAYOUT_SCOPES, 'rates:read', 'swap:create']),
    ]);
    return { owner, token };
  };
  const clockCall = (target: Platform, token: string, path: string, body?: unknown) =>
    target.api(`/api/external/sandbox/clock${path}`, token, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  const startClock = async (token: string) =>
    (await jsonOf<{ data: ClockJson }>(await clockCall(platform, token, '', {}), 201, 'start clock')).data;
  const advance = async (token: string, seconds: number) =>
    (await jsonOf<{ data: ClockJson }>(await clockCall(platform, token, '/advance', { seconds }), 200, 'advance')).data;

  it('a clock starts at the present once, reads back, and moves forward only; production refuses it (403 SANDBOX_ONLY)', async () => {
    const { token } = await business();
    await expectError(await clockCall(platform, token, ''), 404, { code: 'SANDBOX_CLOCK_NOT_FOUND' });
    await expectError(await clockCall(platform, token, '/advance', { seconds: 60 }), 404, {
      code: 'SANDBOX_CLOCK_NOT_FOUND',
    });
    const before = Date.now();
    const started = await startClock(token);
    expect(started.offset_seconds).toBe(0);
    expect(Math.abs(Date.parse(started.now) - before)).toBeLessThan(5_000);
    const again = await jsonOf<{ message: string; data: ClockJson }>(
      await clockCall(platform, token, '', {}),
      200,
      'start again',
    );
    expect(again).toMatchObject({ message: 'sandbox clock retrieved', data: { offset_seconds: 0 } });
    const moved = await advance(token, 2 * DAY);
    expect(moved.offset_seconds).toBe(2 * DAY);
    expect(Date.parse(moved.now) - Date.now()).toBeGreaterThan(2 * DAY * 1000 - 5_000);
    const read = await jsonOf<{ data: ClockJson }>(await clockCall(platform, token, ''), 200, 'read');
    expect(read.data.offset_seconds).toBe(2 * DAY);
    for (const seconds of [-1, 31_536_001, 1.5, '60', null]) {
      const refused = await expectError(await clockCall(platform, token, '/advance', { seconds }), 422, {
        code: 'VALIDATION_FAILED',
      });
      expect(Object.keys(refused.errors as object)).toEqual(['seconds']);
    }
    await expectError(await clockCall(platform, token, '/advance', { seconds: 60, days: 1 }), 422);

    const elsewhere = await production.tokenFor(['mock:webhook:trigger']);
    await expectError(await clockCall(production, elsewhere.token, ''), 403, { code: 'SANDBOX_ONLY' });
    await expectError(await clockCall(production, elsewhere.token, '', {}), 403, { code: 'SANDBOX_ONLY' });
    await expectError(await clockCall(production, elsewhere.token, '/advance', { seconds: 60 }), 403, {
      code: 'SANDBOX_ONLY',
    });
  });

  it('advanced 49 h, a 48 h money request expires with its collection.expired webhook within seconds; another business’s does not', async () => {
    const { owner, token } = await business();
    const other = await business();
    await startClock(token);
    const request = async (caller: { token: string }) => {
      const customer = await api.verifiedCustomer(caller.token, 'MINIMAL');
      return api.moneyRequestWhenKnown(caller.token, {
        customer_id: customer.id,
        amount: 5_000_00,
        currency: 'NGN',
        description: 'Invoice 49',
        reference: `mr-${unique()}`,
      });
    };
    const [mine, theirs] = [await request({ token }), await request(other)];
    const expiresIn = Date.parse(mine.collection_details?.expires_at ?? '') - Date.parse(mine.created_at);
    expect(expiresIn).toBe(48 * HOUR * 1000);

    const advancedAt = Date.now();
    await advance(token, 49 * HOUR);
    const [hook] = await owner.receiver.waitFor(
      (one: ReceivedWebhook) => collectionHookOf(one, mine.id)?.event === 'collection.expired',
      1,
      WITHIN_MS,
    );
    const expiredIn = Date.now() - advancedAt;
    console.log(`sandbox clock: a 49 h advance to its collection.expired webhook in ${expiredIn} ms`);
    expect(expiredIn).toBeLessThan(WITHIN_MS);
    expect(hook?.verified).toBe(true);
    expect(collectionHookOf(hook!, mine.id)?.data).toMatchObject({ transaction_status: 'EXPIRED' });
    expect((await api.collectionTransaction(token, mine.id)).status).toBe('EXPIRED');
    // The other business has no clock: its request waits its real 48 hours.
    expect((await api.collectionTransaction(other.token, theirs.id)).status).toBe('PENDING');
  });

  it('the 7-day refund window: refundable 6 days after the collection, closed at 8 (REFUND_WINDOW_CLOSED), each judged the moment the clock answered', async () => {
    const { owner, token } = await business();
    await startClock(token);
    await api.fund(owner.businessId, 'GBP', 1_000_00);
    const customer = await api.upgradeAndVerify(token, (await api.verifiedCustomer(token, 'MINIMAL')).id);
    const account = await api.openWhenKnown(token, customer.id, 'GBP');
    const collect = () => api.incomingTransfer(token, account.id, { amount: 100_00, sender_name: 'Jane Payer' });
    const [early, late] = [await collect(), await collect()];
    expect([early.status, late.status]).toEqual(['SUCCESSFUL', 'SUCCESSFUL']);

    await advance(token, 6 * DAY);
    const refund = await api.refund(token, {
      transaction_id: early.id,
      reason: 'returned',
      reference: `rf-${unique()}`,
    });
    expect(refund.status).toBe('processing');
    const advancedAt = Date.now();
    await advance(token, 2 * DAY);
    await expectError(
      await api.refundResponse(token, { transaction_id: late.id, reason: 'returned', reference: `rf-${unique()}` }),
      422,
      { code: 'REFUND_WINDOW_CLOSED', message: /within 7 days/ },
    );
    const closedIn = Date.now() - advancedAt;
    console.log(`sandbox clock: a 2-day advance to the refund refused REFUND_WINDOW_CLOSED in ${closedIn} ms`);
    expect(closedIn).toBeLessThan(WITHIN_MS);
  });

  it('a quote expires by the clock (QUOTE_EXPIRED), and a KYC session’s 24 h deadline passes with merchant.kyc.session.expired', async () => {
    const { owner, token } = await business();
    await startClock(token);
    await api.setRate('USD', 'NGN', '1500');
    await api.fund(owner.businessId, 'USD', 100_00);
    const quote = await api.quote(token, 'USD', 'NGN');
    const session = (
      await jsonOf<{ data: { id: string; expires_at: string } }>(
        await platform.api('/api/external/kyc-session', token, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ customer_reference: `merchant-${unique()}`, requirements: ['DOCUMENTS'] }),
        }),
        201,
        'create kyc session',
      )
    ).data;
    await advance(token, DAY + 60);
    await expectError(
      await api.swapResponse(token, {
        from_currency: 'USD',
        to_currency: 'NGN',
        amount: 10_00,
        quote_id: quote.quote_id,
      }),
      422,
      { code: 'QUOTE_EXPIRED' },
    );
    const [expired] = await owner.receiver.waitFor(
      (one: ReceivedWebhook) =>
        (one.json as { event?: string; data?: { session_id?: string } } | undefined)?.data?.session_id === session.id,
      1,
      WITHIN_MS,
    );
    expect((expired?.json as { event: string }).event).toBe('merchant.kyc.session.expired');
    const read = await jsonOf<{ data: { status: string } }>(
      await platform.api(`/api/external/kyc-session/${session.id}`, token),
      200,
      'read session',
    );
    expect(read.data.status).toBe('EXPIRED');
  });

  it('the rail’s delays run on the clock: a delayed payout (10 s on the rail) settles as soon as the clock passes them', async () => {
    const { owner, token } = await business();
    await startClock(token);
    await api.fund(owner.businessId, 'NGN', 1_000_000_00);
    const payout = await payouts.payout(token, {
      amount: 10_000_00,
      currency: 'NGN',
      bank_code: '058',
      account_number: nuban('058', MAGIC_CORES.delayed),
      narration: `Invoice ${unique()}`,
      reference: `po-${unique()}`,
    });
    // With the rail: accepted, its settlement 10 s away on the business's time.
    await payouts.payoutWhen(token, payout.id, (read) => read.status === 'processing', WITHIN_MS);
    const advancedAt = Date.now();
    await advance(token, 60);
    await payouts.payoutWhen(token, payout.id, (read) => read.status === 'successful', WITHIN_MS);
    // Well before the rail's own 10 s: the clock, not the wait, settled it.
    expect(Date.now() - advancedAt).toBeLessThan(5_000);
  });

  it('a receiver that stays down is disabled after 5 simulated days, with its notice; enabled again, it gets the held backlog once', async () => {
    const { owner, token } = await business();
    await startClock(token);
    owner.receiver.respondWith(() => ({ status: 503 }));
    const attempts = () => owner.receiver.requests.length;
    /** A new event, refused at every step of the ladder the clock runs through: one final failure. */
    const failedThroughTheLadder = async () => {
      const before = attempts();
      const { customerId } = await owner.submitNew();
      await owner.receiver.waitFor(() => true, before + 1, WITHIN_MS);
      for (const [step, seconds] of [60, 300, 900, 3_600].entries()) {
        await advance(token, seconds + 1);
        await owner.receiver.waitFor(() => true, before + step + 2, WITHIN_MS);
      }
      return customerId;
    };
    const health = async () =>
      (
        await jsonOf<{ data: { id: string; url_health: Record<string, { status: string; reason: string | null }> } }>(
          await platform.api('/api/external/webhook', token),
          200,
          'webhook',
        )
      ).data;

    await failedThroughTheLadder();
    expect((await health()).url_health.kyc_url?.status).toBe('enabled');
    // Five days on (the clock's), the next delivery that fails its whole ladder ends the run's patience.
    await advance(token, 5 * DAY);
    await failedThroughTheLadder();
    // Judged as the last answer is recorded.
    const disabled = await eventually(async () => {
      const read = await health();
      expect(read.url_health.kyc_url).toMatchObject({ status: 'disabled', reason: 'failing_for' });
      return read;
    }, WITHIN_MS);
    const events = await jsonOf<{ data: { event: string; payload: { data: Record<string, unknown> } }[] }>(
      await platform.api('/api/external/event?type=webhook.endpoint_disabled', token),
      200,
      'notices',
    );
    expect(events.data.map((event) => [event.event, event.payload.data.url_kind, event.payload.data.reason])).toEqual([
      ['webhook.endpoint_disabled', 'kyc_url', 'failing_for'],
    ]);

    // While disabled: the event lands in the history, its delivery is held, nothing is sent.
    const sentBefore = attempts();
    const { customerId: held } = await owner.submitNew();
    await eventually(async () => {
      const history = await jsonOf<{ data: { payload: { data: { customer_id?: string } } }[] }>(
        await platform.api('/api/external/event?type=customer.status_changed&per_page=1', token),
        200,
        'history',
      );
      expect(history.data[0]?.payload.data.customer_id).toBe(held);
    }, WITHIN_MS);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(attempts()).toBe(sentBefore);

    // Back up, and enabled with the backlog: the held delivery, once, verified.
    owner.receiver.respondWith(() => ({ status: 200 }));
    const enabled = await jsonOf<{ data: { queued: number } }>(
      await platform.api(`/api/external/webhook/${disabled.id}/endpoint/kyc_url/enable`, token, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ replay: true }),
      }),
      200,
      'enable',
    );
    expect(enabled.data.queued).toBe(1);
    const [backlog] = await owner.waitForCustomer(held, 1, WITHIN_MS);
    expect(backlog?.verified).toBe(true);
    expect((await health()).url_health.kyc_url?.status).toBe('enabled');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(owner.webhooksOf(held)).toHaveLength(1);
  });

  it('a receiver down for a simulated 3 days: seed 6.4’s ladder runs out on the clock, and every event comes back from the history', async () => {
    const { owner, token } = await business();
    await startClock(token);
    owner.receiver.respondWith(() => ({ status: 503 }));
    const EVENTS = 4;
    const customers: string[] = [];
    for (let i = 0; i < EVENTS; i++) customers.push((await owner.submitNew()).customerId);
    // Attempt 1 of each, at once, refused.
    await owner.receiver.waitFor(() => true, EVENTS, WITHIN_MS);
    // Each step of the ladder comes due when the clock passes it: 1 m, 5 m, 15 m, 1 h after the last.
    for (const [step, seconds] of [60, 300, 900, 3_600].entries()) {
      await advance(token, seconds + 1);
      await owner.receiver.waitFor(() => true, EVENTS * (step + 2), WITHIN_MS);
    }
    await advance(token, 3 * DAY);
    const deliveries = await jsonOf<{ data: { status: string; attempt_count: number }[] }>(
      await platform.api('/api/external/webhook/deliveries?per_page=100', token),
      200,
      'deliveries',
    );
    expect(deliveries.data.map((delivery) => [delivery.status, delivery.attempt_count])).toEqual(
      Array.from({ length: EVENTS }, () => ['failed', 5]),
    );
    expect(owner.receiver.requests).toHaveLength(EVENTS * 5);

    // Back up: the gap helper lists every event the receiver never confirmed, from the history.
    owner.receiver.respondWith(() => ({ status: 200 }));
    const missed = await listMissedEvents({
      lastSequence: 0,
      seen: [],
      api: { baseUrl: platform.publicUrl, token },
    });
    expect(missed).toHaveLength(EVENTS);
    expect(
      new Set(missed.map((event) => (event.payload as { data: { customer_id: string } }).data.customer_id)),
    ).toEqual(new Set(customers));
  });
});
