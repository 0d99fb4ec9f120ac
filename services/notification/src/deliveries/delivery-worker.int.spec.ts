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
import { attemptDelivery, type DeliveryRuntime } from './attempt-delivery.js';
import {
  attemptsOf,
  claimDue,
  deliveryFromRow,
  finishAttempt,
  insertDelivery,
  INTERRUPTED_MESSAGE,
  query,
  recordAttempt,
  startAttempt,
  type Delivery,
} from './delivery-store.js';
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

    const { deliveries: first } = await claimDue(em(), options);
    const byEndpoint = (claimed: Delivery[], endpointId: string) => claimed.filter((d) => d.endpointId === endpointId);
    expect(byEndpoint(first, busy.endpointId)).toHaveLength(2);
    expect(byEndpoint(first, quiet.endpointId).map((d) => d.id)).toEqual([quietOne]);

    // While those leases hold, the busy registration is at its cap: nothing more of it is claimed.
    const { deliveries: second } = await claimDue(em(), options);
    expect(byEndpoint(second, busy.endpointId)).toHaveLength(0);

    // A lease that lapsed (its worker died) makes the delivery claimable again.
    const { deliveries: third } = await claimDue(em(), { ...options, now: new Date(Date.now() + 120_000) });
    expect(byEndpoint(third, busy.endpointId)).toHaveLength(2);
  });

  it('two workers claiming at once never get the same delivery (SKIP LOCKED)', async () => {
    const endpoint = await registration();
    const ids = new Set<string>();
    for (let i = 0; i < 8; i++) ids.add(await delivery(endpoint, new Date(Date.now() - 5_000)));
    const options = { now: new Date(), limit: 8, perEndpoint: 100, leaseMs: 60_000 };
    const [a, b] = await Promise.all([claimDue(em(), options), claimDue(em(), options)]);
    const mine = [...a.deliveries, ...b.deliveries].map((d) => d.id).filter((id) => ids.has(id));
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
      leaseMs: 10_000,
      now: () => new Date(),
      logger,
    };
    const worker = new DeliveryWorker({
      orm,
      runtime,
      concurrency: 4,
      perEndpoint: 2,
      pollIntervalMs: 50,
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

  describe('issue 18: an attempt is logged when it starts, and one cut off by a crash is closed interrupted', () => {
    /** A runtime whose attempts give up after a second (a hanging receiver ends them). */
    function shortRuntime(): DeliveryRuntime {
      const sender = new WebhookSender({
        allowCidrs: ['127.0.0.1/32'],
        extraCa: certificates.caPem,
        timeoutMs: 1_000,
        connectTimeoutMs: 1_000,
      });
      return { sender, secrets, scheduleMs: [0, 60_000], leaseMs: 5_000, now: () => new Date(), logger };
    }
    const pathOf = (endpoint: { endpointId: string }) => `/collection/${endpoint.endpointId}`;
    const log = async (id: string) =>
      (await attemptsOf(em(), id)).map(({ number, trigger, outcome, statusCode, errorClass }) => ({
        number,
        trigger,
        outcome,
        statusCode,
        errorClass,
      }));
    /** Claims as a worker would at `now`, keeping only what concerns delivery `id`. */
    async function claimAt(id: string, now: Date) {
      const claim = await claimDue(em(), { now, limit: 100, perEndpoint: 100, leaseMs: 5_000 });
      return {
        claimed: claim.deliveries.find((d) => d.id === id),
        interrupted: claim.interrupted.filter((a) => a.deliveryId === id),
      };
    }

    it('the attempt is in the log, in_flight with no duration, while the receiver holds the request; its answer completes that same row', async () => {
      const endpoint = await registration();
      receiver.setSecret(endpoint.secret);
      receiver.respondWith((request) => (request.path === pathOf(endpoint) ? 'hang' : { status: 200 }));
      const runtime = shortRuntime();
      const id = await delivery(endpoint);
      try {
        const attempting = attemptDelivery(em(), runtime, deliveryFromRow(await row(id)), 'scheduled');
        await receiver.waitFor((request) => request.webhookId === id, 1, 5_000);
        const [open] = await attemptsOf(em(), id);
        expect(open).toMatchObject({ number: 1, trigger: 'scheduled', outcome: 'in_flight', durationMs: null });
        expect(open?.startedAt).toBeInstanceOf(Date);
        expect((await row(id)).attempt_count).toBe(1);

        const { attempt } = await attempting;
        expect(attempt).toMatchObject({ number: 1, outcome: 'failed', errorClass: 'timeout' });
        expect(attempt.durationMs).toBeGreaterThanOrEqual(900);
        expect(attempt.startedAt).toEqual(open?.startedAt);
      } finally {
        await runtime.sender.close();
      }
      expect(await log(id)).toEqual([
        { number: 1, trigger: 'scheduled', outcome: 'failed', statusCode: null, errorClass: 'timeout' },
      ]);
      expect(await row(id)).toMatchObject({ attempt_count: 1, scheduled_attempts: 1, status: 'pending' });
    });

    it('reclaiming a lapsed lease closes the attempt its dead worker left open as interrupted, then the same scheduled attempt is made again under the same webhook id', async () => {
      const endpoint = await registration();
      receiver.setSecret(endpoint.secret);
      receiver.respondWith(() => ({ status: 200 }));
      const runtime = shortRuntime();
      const id = await delivery(endpoint, new Date(Date.now() - 1_000));
      const now = Date.now();

      // A worker claims the delivery, records its attempt as started, and dies before the answer.
      const { claimed: dead } = await claimAt(id, new Date(now));
      expect(dead?.leaseUntil).toEqual(new Date(now + 5_000));
      await startAttempt(em(), id, { trigger: 'scheduled', startedAt: new Date(now), leaseUntil: dead!.leaseUntil! });

      // While its lease holds, nobody else takes the delivery or closes the attempt.
      expect(await claimAt(id, new Date(now + 4_000))).toEqual({ claimed: undefined, interrupted: [] });
      expect((await attemptsOf(em(), id)).map((a) => a.outcome)).toEqual(['in_flight']);

      // Once it lapses, the claim that takes the delivery over closes the open attempt first.
      const reclaim = await claimAt(id, new Date(now + 6_000));
      expect(reclaim.interrupted).toEqual([
        { deliveryId: id, number: 1, trigger: 'scheduled', eventType: 'customer.status_changed' },
      ]);
      expect(reclaim.claimed?.id).toBe(id);
      const [interrupted] = await attemptsOf(em(), id);
      expect(interrupted).toMatchObject({
        outcome: 'interrupted',
        durationMs: null,
        statusCode: null,
        errorClass: 'interrupted',
        errorMessage: INTERRUPTED_MESSAGE,
      });
      // As a lost lease always did: the schedule's attempt is made again, not counted as spent.
      expect(await row(id)).toMatchObject({ status: 'pending', attempt_count: 1, scheduled_attempts: 0 });

      try {
        await attemptDelivery(em(), runtime, reclaim.claimed!, 'scheduled', reclaim.claimed!.leaseUntil!);
      } finally {
        await runtime.sender.close();
      }
      expect(await log(id)).toEqual([
        { number: 1, trigger: 'scheduled', outcome: 'interrupted', statusCode: null, errorClass: 'interrupted' },
        { number: 2, trigger: 'scheduled', outcome: 'succeeded', statusCode: 200, errorClass: null },
      ]);
      expect(await row(id)).toMatchObject({ status: 'succeeded', attempt_count: 2, scheduled_attempts: 1 });
      expect(receiver.requests.filter((r) => r.path === pathOf(endpoint)).map((r) => r.webhookId)).toEqual([id]);
    });

    it('a replay asked for through the API holds a lease of its own: left open, any later claim closes it, the failed delivery stays failed; a late answer still replaces interrupted', async () => {
      const endpoint = await registration();
      const id = await delivery(endpoint);
      await recordAttempt(em(), id, {
        trigger: 'scheduled',
        result: result('failed'),
        nextAttemptAt: null,
        now: new Date(),
      });
      const now = Date.now();
      const replay = await startAttempt(em(), id, {
        trigger: 'replay',
        startedAt: new Date(now),
        leaseUntil: new Date(now + 5_000),
      });
      expect(replay.number).toBe(2);

      expect((await claimAt(id, new Date(now + 6_000))).interrupted).toEqual([
        { deliveryId: id, number: 2, trigger: 'replay', eventType: 'customer.status_changed' },
      ]);
      expect(await row(id)).toMatchObject({ status: 'failed', attempt_count: 2 });
      expect((await log(id)).map((a) => a.outcome)).toEqual(['failed', 'interrupted']);

      // The process was only slow: its answer is the truth, recorded over the interruption.
      const late = await finishAttempt(em(), id, 2, {
        trigger: 'replay',
        result: result('succeeded'),
        now: new Date(),
      });
      expect(late.attempt).toMatchObject({ number: 2, outcome: 'succeeded', statusCode: 200, errorMessage: null });
      expect(late.delivery.status).toBe('succeeded');
    });

    it('the database refuses an attempt in flight without a lease (nothing could ever close it)', async () => {
      const endpoint = await registration();
      const id = await delivery(endpoint);
      await expect(
        query(
          em(),
          `insert into webhook_attempt (id, delivery_id, number, trigger, started_at, outcome)
           values (gen_random_uuid(), ?, 1, 'scheduled', now(), 'in_flight')`,
          [id],
        ),
      ).rejects.toThrow(/webhook_attempt_in_flight_leased/);
    });
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
      runtime: { sender, secrets, scheduleMs: [0], leaseMs: 10_000, now: () => new Date(), logger },
      concurrency: 1,
      perEndpoint: 1,
      pollIntervalMs: 50,
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
