import { createTestCertificates, eventually, type ReceivedWebhook, type TestCertificates } from '@corridor/testing';
import { COLLECTION_SCOPES, COLLECTION_TIMINGS, CollectionsApi, collectionHookOf } from '../support/collections.js';
import { unique, type CustomerJson } from '../support/customers.js';
import { inBatches, nuban, ordinarySerial, PAYOUT_SCOPES, PAYOUT_TIMINGS, PayoutsApi } from '../support/payouts.js';
import { Platform, type AnswerTally } from '../support/platform.js';
import { customerOf, ReceivingBusiness, receiverEnv } from '../support/receiving-business.js';

/**
 * Issue 36 part 3: two of every service (identity, customer-kyb, notification, payments, each on a
 * port of its own with every client given both and balancing round-robin) and two gateways sharing
 * Redis. Every API call of the suite alternates between the gateways and is counted by status and
 * code: at the end none is a 500, and every 503 carries Retry-After (part 4). The books balance.
 *
 * - Money through both gateways: customers verified in one call, GBP accounts, transfers in, NGN
 *   payouts; every collection and payout webhook arrives signed, once per event.
 * - Rate limits stay exact across the two gateways at 300 concurrent requests.
 * - While customers are being made (Kafka events flowing, topics of 3 partitions), one notification
 *   and one payments replica are SIGKILLed and started again: the consumer groups rebalance and every
 *   customer's two webhooks arrive, none lost.
 */
const GTB = '058';
const PAYOUT_FEE = { type: 'payout', currency: 'NGN', flat: 10_00, percentage_bps: 50 } as const;

describe('two of everything (issue 36)', () => {
  let certificates: TestCertificates;
  let platform: Platform;
  let collections: CollectionsApi;
  let payouts: PayoutsApi;
  let owner: ReceivingBusiness;
  let token: string;
  /** Every answer of the public API the suite got: "status code" → how many; 503s without Retry-After. */
  let tally: AnswerTally = { answers: new Map(), unavailableWithoutRetryAfter: [] };

  /** The receiver's requests per x-corridor-webhook-id, for "once per event". */
  const byWebhookId = (requests: readonly ReceivedWebhook[]) => {
    const ids = new Map<string, number>();
    for (const request of requests) ids.set(request.webhookId ?? '', (ids.get(request.webhookId ?? '') ?? 0) + 1);
    return ids;
  };

  beforeAll(async () => {
    certificates = await createTestCertificates();
    platform = new Platform({
      replicas: 2,
      notificationEnv: receiverEnv(certificates, [0, 400, 800, 1200, 1600]),
      paymentsEnv: { ...COLLECTION_TIMINGS, ...PAYOUT_TIMINGS },
    });
    await platform.start();
    // Every call of the suite through the gateways in turn, each answer counted.
    tally = platform.spreadOverGateways();
    collections = new CollectionsApi(platform);
    payouts = new PayoutsApi(platform);
    owner = await ReceivingBusiness.create(platform, certificates);
    token = await owner.tokenWith([...new Set([...COLLECTION_SCOPES, ...PAYOUT_SCOPES])]);
    await payouts.setFeeRule({ business_id: owner.businessId, ...PAYOUT_FEE });
    await payouts.fund(owner.businessId, 'NGN', 100_000_000);
  });
  afterAll(async () => {
    try {
      if (platform?.started) await collections.expectBooksBalance();
      console.log('two of everything: answers by status and code', Object.fromEntries(tally.answers));
      expect([...tally.answers.keys()].filter((key) => key.startsWith('500'))).toEqual([]);
      expect(tally.unavailableWithoutRetryAfter).toEqual([]);
    } finally {
      await owner?.stop();
      await platform?.stop();
    }
  });

  it('runs two of each service and two gateways, both ready', async () => {
    expect(
      Object.fromEntries(Object.entries(platform.replicaProcesses).map(([name, more]) => [name, 1 + more.length])),
    ).toEqual({ identity: 2, 'customer-kyb': 2, notification: 2, payments: 2 });
    expect(platform.publicUrls).toHaveLength(2);
    for (const url of platform.publicUrls) expect((await fetch(`${url}/readyz`)).status).toBe(200);
  });

  it('moves money through both gateways: transfers into GBP accounts and NGN payouts, each webhook signed and once per event', async () => {
    const sandboxCustomer = async (): Promise<CustomerJson> => {
      const response = await platform.api('/api/external/sandbox/customer', token, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { data: CustomerJson }).data;
    };
    const collected = await inBatches(
      Array.from({ length: 6 }, (_, i) => i),
      3,
      async (i) => {
        const customer = await sandboxCustomer();
        const account = await collections.openWhenKnown(token, customer.id, 'GBP');
        const transfer = await collections.incomingTransfer(token, account.id, {
          amount: 100_00 + i,
          sender_name: `Payer ${i}`,
        });
        expect(transfer.status).toBe('SUCCESSFUL');
        return transfer.id;
      },
    );
    const paid = await inBatches(
      Array.from({ length: 6 }, (_, i) => i),
      3,
      async (i) => {
        const payout = await payouts.payout(token, {
          amount: 1_000_00 + i,
          currency: 'NGN',
          bank_code: GTB,
          account_number: nuban(GTB, ordinarySerial()),
          narration: `Invoice ${unique()}`,
          reference: `po-${unique()}`,
        });
        return (await payouts.payoutWhen(token, payout.id, (seen) => seen.status === 'successful')).id;
      },
    );

    const collectionHooks = await owner.receiver.waitFor(
      (request) => collected.some((id) => collectionHookOf(request, id) !== undefined),
      collected.length,
      60_000,
    );
    const payoutHooks = await owner.receiver.waitFor(
      (request) =>
        request.path === '/payout' &&
        (request.json as { event?: string; data?: { id?: string } }).event === 'payout.successful' &&
        paid.includes((request.json as { data: { id: string } }).data.id),
      paid.length,
      60_000,
    );
    for (const hook of [...collectionHooks, ...payoutHooks]) expect(hook.verified).toBe(true);
    const hooks = owner.receiver.requests.filter(
      (request) => request.path === '/collection' || request.path === '/payout',
    );
    expect([...byWebhookId(hooks).values()].every((count) => count === 1)).toBe(true);
  });

  it('keeps rate limits exact across the two gateways: 300 concurrent calls against 100 a minute', async () => {
    const limited = await ReceivingBusiness.create(platform, certificates, { register: false });
    try {
      await platform.patchBusiness(limited.businessId, { rate_limits: { per_minute: 100, per_hour: 10_000 } });
      const limitedToken = await limited.tokenWith(['customer:read']);
      const statuses = await Promise.all(
        Array.from({ length: 300 }, () => platform.api('/api/external/whoami', limitedToken).then((r) => r.status)),
      );
      const counted = statuses.reduce<Record<number, number>>((all, status) => {
        all[status] = (all[status] ?? 0) + 1;
        return all;
      }, {});
      // One budget in Redis for both gateways, counted atomically: exactly the limit passes.
      expect(counted).toEqual({ 200: 100, 429: 200 });
    } finally {
      await limited.stop();
    }
  });

  it('loses no event while a notification and a payments replica are SIGKILLed and started again as customers are made', async () => {
    const made: string[] = [];
    const making = inBatches(
      Array.from({ length: 30 }, (_, i) => i),
      3,
      async () => {
        const response = await platform.api('/api/external/sandbox/customer', token, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(response.status).toBe(201);
        made.push(((await response.json()) as { data: CustomerJson }).data.id);
      },
    );
    await eventually(
      () => {
        if (made.length < 8) throw new Error(`${made.length} customers made so far`);
      },
      60_000,
      100,
    );
    await Promise.all([platform.restartReplica('notification'), platform.restartReplica('payments')]);
    await making;
    // Each customer's two status changes (PENDING → PROCESSING → VERIFIED) reach kyc_url.
    for (const id of made) await owner.waitForCustomer(id, 2, 120_000);
    const hooks = owner.receiver.requests.filter((request) => made.includes(customerOf(request) ?? ''));
    const perEvent = byWebhookId(hooks);
    expect(perEvent.size).toBe(made.length * 2);
    const duplicated = [...perEvent.values()].filter((count) => count > 1).length;
    console.log('two of everything: customers', made.length, 'webhooks', hooks.length, 'duplicated', duplicated);
    // A replica killed between the receiver's 2xx and its own record delivers that one again: at
    // least once, never lost. No more than the deliveries one replica can have in flight.
    expect(duplicated).toBeLessThanOrEqual(10);
  });
});
