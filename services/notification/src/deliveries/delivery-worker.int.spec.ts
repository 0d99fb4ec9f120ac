import { openMigratedDatabase, type MikroORM } from '@corridor/db';
import { createLogger } from '@corridor/logging';
import {
  createTestCertificates,
  createTestDatabase,
  eventually,
  WebhookReceiver,
  type TestCertificates,
  type TestDatabase,
} from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { notificationDatabase } from '../database.js';
import { generateSigningSecret, lastFour, WebhookSecrets } from '../secrets/webhook-secrets.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';
import type { DeliveryRuntime } from './attempt-delivery.js';
import { attemptsOf, claimDue, insertDelivery, query, recordAttempt, type Delivery } from './delivery-store.js';
import { DeliveryWorker } from './delivery-worker.js';
import { WebhookSender, type AttemptResult } from './send-webhook.js';

const secrets = new WebhookSecrets('w'.repeat(64));
const logger = createLogger('notification-test', { level: 'silent' });

describe('delivery store and worker (decision 0010; real PostgreSQL, HTTPS receiver)', () => {
  let db: TestDatabase;
  let orm: MikroORM;
  let certificates: TestCertificates;
  let receiver: WebhookReceiver;
  const em = () => orm.em.fork();

  beforeAll(async () => {
    [db, certificates] = await Promise.all([createTestDatabase('notification_worker'), createTestCertificates()]);
    orm = await openMigratedDatabase(notificationDatabase(db.url));
    receiver = await WebhookReceiver.start({ certificates });
  });
  afterAll(async () => {
    await receiver?.stop();
    await orm?.close();
    await db?.drop();
  });

  /** A registration whose three URLs are the receiver's; returns its id and secret. */
  async function registration(): Promise<{ endpointId: string; businessId: string; secret: string }> {
    const fork = em();
    const id = randomUUID();
    const secret = generateSigningSecret();
    const now = new Date();
    const businessId = randomUUID();
    fork.create(WebhookEndpoint, {
      id,
      businessId,
      collectionUrl: receiver.url(`/collection/${id}`),
      payoutUrl: receiver.url(`/payout/${id}`),
      kycUrl: null,
      signingSecretSealed: secrets.seal(secret, id),
      signingSecretLast4: lastFour(secret),
      createdAt: now,
      updatedAt: now,
    });
    await fork.flush();
    return { endpointId: id, businessId, secret };
  }

  async function delivery(endpoint: { endpointId: string; businessId: string }, due = new Date()): Promise<string> {
    const id = randomUUID();
    await insertDelivery(em(), {
      id,
      businessId: endpoint.businessId,
      endpointId: endpoint.endpointId,
      eventId: randomUUID(),
      eventType: 'customer.status_changed',
      destination: 'collection_url',
      body: JSON.stringify({ event: 'customer.status_changed', data: { n: id } }),
      nextAttemptAt: due,
      traceContext: {},
      eventOccurredAt: due,
      now: due,
    });
    return id;
  }

  const result = (outcome: AttemptResult['outcome']): AttemptResult => ({
    startedAt: new Date(),
    durationMs: 3,
    outcome,
    statusCode: outcome === 'succeeded' ? 200 : 500,
    errorClass: outcome === 'succeeded' ? null : 'http_status',
    errorMessage: outcome === 'succeeded' ? null : 'receiver answered 500',
    responseBody: 'ok',
  });

  const row = async (id: string) => (await query(em(), `select * from webhook_delivery where id = ?`, [id]))[0]!;

  it('one delivery per (event, registration): a second insert of the same event is a no-op', async () => {
    const endpoint = await registration();
    const eventId = randomUUID();
    const make = () =>
      insertDelivery(em(), {
        id: randomUUID(),
        ...endpoint,
        eventId,
        eventType: 'customer.status_changed',
        destination: 'collection_url',
        body: '{}',
        nextAttemptAt: new Date(),
        traceContext: {},
        eventOccurredAt: new Date(),
        now: new Date(),
      });
    expect(await make()).toBe(true);
    expect(await make()).toBe(false);
  });

  it('a claim takes at most the per-registration cap, so one busy registration leaves slots for the others', async () => {
    const busy = await registration();
    const quiet = await registration();
    const past = new Date(Date.now() - 60_000);
    for (let i = 0; i < 6; i++) await delivery(busy, past);
    const quietOne = await delivery(quiet, new Date(Date.now() - 1_000));
    const options = { now: new Date(), limit: 10, perEndpoint: 2, leaseMs: 60_000 };

    const first = await claimDue(em(), options);
    const byEndpoint = (claimed: Delivery[], endpointId: string) => claimed.filter((d) => d.endpointId === endpointId);
    expect(byEndpoint(first, busy.endpointId)).toHaveLength(2);
    expect(byEndpoint(first, quiet.endpointId).map((d) => d.id)).toEqual([quietOne]);

    // While those leases hold, the busy registration is at its cap: nothing more of it is claimed.
    const second = await claimDue(em(), options);
    expect(byEndpoint(second, busy.endpointId)).toHaveLength(0);

    // A lease that lapsed (its worker died) makes the delivery claimable again.
    const third = await claimDue(em(), { ...options, now: new Date(Date.now() + 120_000) });
    expect(byEndpoint(third, busy.endpointId)).toHaveLength(2);
  });

  it('two workers claiming at once never get the same delivery (SKIP LOCKED)', async () => {
    const endpoint = await registration();
    const ids = new Set<string>();
    for (let i = 0; i < 8; i++) ids.add(await delivery(endpoint, new Date(Date.now() - 5_000)));
    const options = { now: new Date(), limit: 8, perEndpoint: 100, leaseMs: 60_000 };
    const [a, b] = await Promise.all([claimDue(em(), options), claimDue(em(), options)]);
    const mine = [...a, ...b].map((d) => d.id).filter((id) => ids.has(id));
    expect(new Set(mine).size).toBe(mine.length);
    expect(mine).toHaveLength(8);
  });

  it('seed 6.4: a scheduled failure reschedules; the last one ends failed; a replay failure changes nothing', async () => {
    const endpoint = await registration();
    const id = await delivery(endpoint);
    const next = new Date(Date.now() + 60_000);
    let recorded = await recordAttempt(em(), id, {
      trigger: 'scheduled',
      result: result('failed'),
      nextAttemptAt: next,
      now: new Date(),
    });
    expect(recorded.delivery).toMatchObject({
      status: 'pending',
      scheduledAttempts: 1,
      attemptCount: 1,
      nextAttemptAt: next,
    });
    recorded = await recordAttempt(em(), id, {
      trigger: 'scheduled',
      result: result('failed'),
      nextAttemptAt: null,
      now: new Date(),
    });
    expect(recorded.delivery).toMatchObject({ status: 'failed', scheduledAttempts: 2, nextAttemptAt: null });
    expect(recorded.delivery.completedAt).not.toBeNull();
    recorded = await recordAttempt(em(), id, { trigger: 'replay', result: result('failed'), now: new Date() });
    expect(recorded.delivery).toMatchObject({ status: 'failed', scheduledAttempts: 2, attemptCount: 3 });
    recorded = await recordAttempt(em(), id, { trigger: 'replay', result: result('succeeded'), now: new Date() });
    expect(recorded.delivery).toMatchObject({ status: 'succeeded', attemptCount: 4 });
    expect((await attemptsOf(em(), id)).map((a) => [a.number, a.trigger, a.outcome])).toEqual([
      [1, 'scheduled', 'failed'],
      [2, 'scheduled', 'failed'],
      [3, 'replay', 'failed'],
      [4, 'replay', 'succeeded'],
    ]);
  });

  it('the worker retries on the schedule until a 2xx, signing every attempt with the same webhook id', async () => {
    const endpoint = await registration();
    receiver.setSecret(endpoint.secret);
    const path = `/collection/${endpoint.endpointId}`;
    receiver.respondWith((request, index) =>
      request.path === path && receiver.requests.filter((r) => r.path === path).length <= 2
        ? { status: 503, body: `busy ${index}` }
        : { status: 200 },
    );
    const sender = new WebhookSender({
      allowCidrs: ['127.0.0.1/32'],
      extraCa: certificates.caPem,
      timeoutMs: 2_000,
      connectTimeoutMs: 1_000,
    });
    const runtime: DeliveryRuntime = {
      sender,
      secrets,
      scheduleMs: [0, 150, 150, 150, 150],
      now: () => new Date(),
      logger,
    };
    const worker = new DeliveryWorker({
      orm,
      runtime,
      concurrency: 4,
      perEndpoint: 2,
      pollIntervalMs: 50,
      leaseMs: 10_000,
      retentionDays: 30,
      logger,
    });
    const id = await delivery(endpoint);
    worker.start();
    try {
      await eventually(async () => expect((await row(id)).status).toBe('succeeded'), 10_000);
    } finally {
      await worker.stop();
      await sender.close();
    }
    const attempts = await attemptsOf(em(), id);
    expect(attempts.map((a) => [a.outcome, a.statusCode])).toEqual([
      ['failed', 503],
      ['failed', 503],
      ['succeeded', 200],
    ]);
    const received = receiver.requests.filter((r) => r.path === path);
    expect(received.map((r) => r.webhookId)).toEqual([id, id, id]);
    expect(received.every((r) => r.verified)).toBe(true);
    // The schedule's 150 ms between attempts, counted from the previous attempt.
    for (let i = 1; i < received.length; i++) {
      expect(received[i]!.receivedAt.getTime() - received[i - 1]!.receivedAt.getTime()).toBeGreaterThanOrEqual(140);
    }
  });

  it('decision 0010 retention: ended deliveries older than the retention are deleted with their attempts; pending ones never', async () => {
    const endpoint = await registration();
    const long = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    const [oldEnded, oldPending, recentEnded] = [
      await delivery(endpoint, long),
      await delivery(endpoint, long),
      await delivery(endpoint),
    ];
    for (const id of [oldEnded, recentEnded]) {
      await recordAttempt(em(), id, { trigger: 'scheduled', result: result('succeeded'), now: new Date() });
    }
    await query(em(), `update webhook_delivery set completed_at = ? where id = ?`, [long, oldEnded]);
    const sender = new WebhookSender({ allowCidrs: [], timeoutMs: 1_000, connectTimeoutMs: 1_000 });
    // The first loop sweeps; the pending one is due in the future so nothing is attempted meanwhile.
    await query(em(), `update webhook_delivery set next_attempt_at = ? where id = ?`, [
      new Date(Date.now() + 3_600_000),
      oldPending,
    ]);
    const worker = new DeliveryWorker({
      orm,
      runtime: { sender, secrets, scheduleMs: [0], now: () => new Date(), logger },
      concurrency: 1,
      perEndpoint: 1,
      pollIntervalMs: 50,
      leaseMs: 10_000,
      retentionDays: 30,
      logger,
    });
    worker.start();
    try {
      await eventually(
        async () => expect(await query(em(), `select id from webhook_delivery where id = ?`, [oldEnded])).toEqual([]),
        5_000,
      );
    } finally {
      await worker.stop();
      await sender.close();
    }
    expect(await query(em(), `select id from webhook_attempt where delivery_id = ?`, [oldEnded])).toEqual([]);
    expect((await row(oldPending)).status).toBe('pending');
    expect((await row(recentEnded)).status).toBe('succeeded');
  });
});
