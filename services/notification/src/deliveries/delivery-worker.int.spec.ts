import { sql } from '@corridor/db';
import { createLogger } from '@corridor/logging';
import { BusinessClock } from '@corridor/sandbox-clock';
import {
  createTestCertificates,
  integrationDatabase,
  eventually,
  WebhookReceiver,
  type TestCertificates,
} from '@corridor/testing';
import { notificationDatabase } from '../database.js';
import { WebhookSecrets } from '../secrets/webhook-secrets.js';
import { attemptClaimed, attemptDelivery, type DeliveryRuntime } from './attempt-delivery.js';
import { deliveryClock } from './delivery-clock.js';
import { DeliveryRepository } from './delivery-repository.js';
import { DeliveryWorker } from './delivery-worker.js';
import { INTERRUPTED_MESSAGE, type Delivery } from './delivery.js';
import {
  answer,
  insertDelivery,
  registerEndpoint,
  type TestEndpoint,
} from '../../test/deliveries/delivery.fixtures.js';
import { WebhookSender } from './send-webhook.js';
import { DEFAULT_HEALTH_RULES } from '../health/url-health.js';

const secrets = new WebhookSecrets('w'.repeat(64));
const logger = createLogger('notification-test', { level: 'silent' });

describe('delivery worker (decision 0010; real PostgreSQL, HTTPS receiver)', () => {
  const database = integrationDatabase('notification', notificationDatabase);
  let certificates: TestCertificates;
  let receiver: WebhookReceiver;
  const { em } = database;

  beforeAll(async () => {
    certificates = await createTestCertificates();
    receiver = await WebhookReceiver.start({ certificates });
  });
  afterAll(async () => {
    await receiver?.stop();
  });

  const deliveries = () => new DeliveryRepository(em());
  /** A registration whose URLs are the receiver's. */
  const registration = (): Promise<TestEndpoint> => registerEndpoint(em(), secrets, (path) => receiver.url(path));
  const delivery = (endpoint: TestEndpoint, due?: Date) => insertDelivery(em(), endpoint, due);
  /** The business's delivery as the worker claims it. */
  async function stored(endpoint: TestEndpoint, id: string): Promise<Delivery> {
    const found = await deliveries().findDelivery({ businessId: endpoint.businessId, deliveryId: id });
    if (!found) throw new Error(`delivery ${id} not found`);
    return found;
  }

  const row = async (id: string) => (await sql(em(), `select * from webhook_delivery where id = ?`, [id]))[0]!;

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
      health: DEFAULT_HEALTH_RULES,
      now: () => new Date(),
      ...deliveryClock(new BusinessClock(() => new Date(), 'sandbox'), () => database.orm.em.fork()),
      logger,
    };
    const worker = new DeliveryWorker({
      orm: database.orm,
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
    const attempts = await deliveries().attemptsOf(id);
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
      return {
        sender,
        secrets,
        scheduleMs: [0, 60_000],
        leaseMs: 5_000,
        now: () => new Date(),
        ...deliveryClock(new BusinessClock(() => new Date(), 'sandbox'), () => database.orm.em.fork()),
        logger,
        health: DEFAULT_HEALTH_RULES,
      };
    }
    const pathOf = (endpoint: { endpointId: string }) => `/collection/${endpoint.endpointId}`;
    const log = async (id: string) =>
      (await deliveries().attemptsOf(id)).map(({ number, trigger, outcome, statusCode, errorClass }) => ({
        number,
        trigger,
        outcome,
        statusCode,
        errorClass,
      }));
    /** Claims as a worker would at `now`, keeping only what concerns delivery `id`. */
    async function claimAt(id: string, now: Date) {
      const claim = await deliveries().claimDue({ now, limit: 100, perEndpoint: 100, leaseMs: 5_000 });
      return {
        claimed: claim.deliveries.find((c) => c.delivery.id === id),
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
        const attempting = attemptDelivery(em(), runtime, await stored(endpoint, id), 'scheduled');
        await receiver.waitFor((request) => request.webhookId === id, 1, 5_000);
        const [open] = await deliveries().attemptsOf(id);
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

      // A worker claims the delivery (which records its attempt as started) and dies before the answer.
      const { claimed: dead } = await claimAt(id, new Date(now));
      expect(dead?.delivery.leaseUntil).toEqual(new Date(now + 5_000));

      // While its lease holds, nobody else takes the delivery or closes the attempt.
      expect(await claimAt(id, new Date(now + 4_000))).toEqual({ claimed: undefined, interrupted: [] });
      expect((await deliveries().attemptsOf(id)).map((a) => a.outcome)).toEqual(['in_flight']);

      // Once it lapses, the claim that takes the delivery over closes the open attempt first.
      const reclaim = await claimAt(id, new Date(now + 6_000));
      expect(reclaim.interrupted).toEqual([
        { deliveryId: id, number: 1, trigger: 'scheduled', eventType: 'customer.status_changed' },
      ]);
      expect(reclaim.claimed?.delivery.id).toBe(id);
      expect(reclaim.claimed?.attempt).toEqual({ number: 2, trigger: 'scheduled' });
      const [interrupted] = await deliveries().attemptsOf(id);
      expect(interrupted).toMatchObject({
        outcome: 'interrupted',
        durationMs: null,
        statusCode: null,
        errorClass: 'interrupted',
        errorMessage: INTERRUPTED_MESSAGE,
      });
      // As a lost lease always did: the schedule's attempt is made again (attempt 2), not counted as spent.
      expect(await row(id)).toMatchObject({ status: 'pending', attempt_count: 2, scheduled_attempts: 0 });

      try {
        await attemptClaimed(runtime, reclaim.claimed!, async (answer) => {
          await deliveries().finishAttempt(answer);
        });
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
      await deliveries().recordAttempt({
        deliveryId: id,
        trigger: 'scheduled',
        result: answer('succeeded'),
        now: new Date(),
      });
    }
    await sql(em(), `update webhook_delivery set completed_at = ? where id = ?`, [long, oldEnded]);
    const sender = new WebhookSender({ allowCidrs: [], timeoutMs: 1_000, connectTimeoutMs: 1_000 });
    // The first loop sweeps; the pending one is due in the future so nothing is attempted meanwhile.
    await sql(em(), `update webhook_delivery set next_attempt_at = ? where id = ?`, [
      new Date(Date.now() + 3_600_000),
      oldPending,
    ]);
    const worker = new DeliveryWorker({
      orm: database.orm,
      runtime: {
        sender,
        secrets,
        scheduleMs: [0],
        leaseMs: 10_000,
        now: () => new Date(),
        ...deliveryClock(new BusinessClock(() => new Date(), 'sandbox'), () => database.orm.em.fork()),
        logger,
        health: DEFAULT_HEALTH_RULES,
      },
      concurrency: 1,
      perEndpoint: 1,
      pollIntervalMs: 50,
      retentionDays: 30,
      logger,
    });
    worker.start();
    try {
      await eventually(
        async () => expect(await sql(em(), `select id from webhook_delivery where id = ?`, [oldEnded])).toEqual([]),
        5_000,
      );
    } finally {
      await worker.stop();
      await sender.close();
    }
    expect(await sql(em(), `select id from webhook_attempt where delivery_id = ?`, [oldEnded])).toEqual([]);
    expect((await row(oldPending)).status).toBe('pending');
    expect((await row(recentEnded)).status).toBe('succeeded');
  });
});
