import { create } from '@bufbuild/protobuf';
import type { EventMeta } from '@corridor/bus';
import {
  GetEventRequestSchema,
  ListEventsRequestSchema,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { createLogger } from '@corridor/logging';
import { BusinessClock } from '@corridor/sandbox-clock';
import {
  createTestCertificates,
  eventually,
  integrationDatabase,
  query,
  WebhookReceiver,
  type TestCertificates,
} from '@corridor/testing';
import type { NotificationContext } from '../context.js';
import { notificationDatabase } from '../database.js';
import type { DeliveryRuntime } from '../deliveries/attempt-delivery.js';
import { deliveryClock } from '../deliveries/delivery-clock.js';
import { DeliveryWorker } from '../deliveries/delivery-worker.js';
import { WebhookSender } from '../deliveries/send-webhook.js';
import { successfulCollectionEvent } from '../../test/events/transaction-events.fixtures.js';
import { deliveriesFromEvents } from '../events/deliveries-from-events.js';
import { WebhookSecrets } from '../secrets/webhook-secrets.js';
import { getEvent, listEvents } from '../history/history-api.js';
import { enableWebhookUrl } from '../webhooks/enable-webhook-url.js';
import { getWebhook } from '../webhooks/get-webhook.js';
import { updateWebhook } from '../webhooks/update-webhook.js';
import { registerEndpoint, type TestEndpoint } from '../../test/deliveries/delivery.fixtures.js';
import { UrlHealthRepository } from './url-health-repository.js';

const logger = createLogger('notification-test', { level: 'silent' });
const secrets = new WebhookSecrets('h'.repeat(64));
const meta: EventMeta = { topic: 'test', partition: 0, offset: '0' };
/** Three deliveries in a row failed disable a URL here; the span is out of reach (its rule: url-health.spec.ts). */
const rules = { disableAfterMs: 30 * 24 * 3_600_000, disableAfterEvents: 3 };

interface DeliveryRow {
  id: string;
  event_id: string;
  sequence: string;
  status: string;
  attempt_count: number;
  skipped_reason: string | null;
  next_attempt_at: Date | null;
}

describe('endpoint health (decision 0068; real PostgreSQL, HTTPS receiver on 127.0.0.1, the worker)', () => {
  const database = integrationDatabase('notification', notificationDatabase);
  let certificates: TestCertificates;
  let receiver: WebhookReceiver;
  let sender: WebhookSender;
  let worker: DeliveryWorker;
  let context: NotificationContext;
  const handler = deliveriesFromEvents({ environment: 'sandbox', scheduleMs: [0], now: () => new Date(), logger });

  beforeAll(async () => {
    certificates = await createTestCertificates();
    receiver = await WebhookReceiver.start({ certificates });
    sender = new WebhookSender({
      allowCidrs: ['127.0.0.1/32'],
      extraCa: certificates.caPem,
      timeoutMs: 2_000,
      connectTimeoutMs: 1_000,
    });
  });
  afterAll(async () => {
    await sender.close();
    await receiver.stop();
  });

  /** A worker whose schedule is `scheduleMs`: [0] makes each failure final at once. */
  function startWorker(scheduleMs: number[] = [0]) {
    const runtime: DeliveryRuntime = {
      sender,
      secrets,
      scheduleMs,
      leaseMs: 10_000,
      now: () => new Date(),
      ...deliveryClock(new BusinessClock(() => new Date(), 'sandbox'), () => database.orm.em.fork()),
      logger,
      health: rules,
    };
    worker = new DeliveryWorker({
      orm: database.orm,
      runtime,
      concurrency: 4,
      perEndpoint: 1,
      pollIntervalMs: 50,
      retentionDays: 30,
      logger,
    });
    context = {
      now: () => new Date(),
      environment: 'sandbox',
      secrets,
      webhookUrls: { allowCidrs: ['127.0.0.1/32'] },
      deliveries: runtime,
      wakeWorker: () => worker.wake(),
    };
    worker.start();
  }
  afterEach(async () => {
    await worker.stop();
  });

  const registration = (): Promise<TestEndpoint> =>
    registerEndpoint(database.em(), secrets, (path) => receiver.url(path));
  const pathOf = (endpoint: TestEndpoint) => `/collection/${endpoint.endpointId}`;
  const receivedBy = (endpoint: TestEndpoint) => receiver.requests.filter((r) => r.path === pathOf(endpoint));
  /** An event of the business lands as the consumer applies it: in the history, with its delivery. */
  const land = (businessId: string) =>
    database.em().transactional((tx) => handler(successfulCollectionEvent(businessId), tx, meta));
  const deliveriesOf = (businessId: string) =>
    query<DeliveryRow>(
      database.url,
      `select id, event_id, sequence, status, attempt_count, skipped_reason, next_attempt_at from webhook_delivery
       where business_id = $1 order by sequence`,
      [businessId],
    );
  const historyOf = (businessId: string) =>
    query<{ id: string; sequence: string; event_type: string; body: string }>(
      database.url,
      'select id, sequence, event_type, body from webhook_event where business_id = $1 order by sequence',
      [businessId],
    );
  const healthOf = async (endpoint: TestEndpoint) =>
    (await new UrlHealthRepository(database.em()).of(endpoint.endpointId)).get('collection_url');

  it('a receiver answering 410 Gone is disabled at once: no retry, the notice in the history with its number', async () => {
    startWorker([0, 100, 100, 100]);
    const endpoint = await registration();
    receiver.respondWith((request) => (request.path === pathOf(endpoint) ? { status: 410 } : { status: 200 }));
    await land(endpoint.businessId);
    await eventually(async () => expect((await healthOf(endpoint))?.disabledReason).toBe('gone'), 10_000);

    const [delivery] = await deliveriesOf(endpoint.businessId);
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 1 });
    // Time for a retry the schedule would have made, had 410 not ended the delivery.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(receivedBy(endpoint)).toHaveLength(1);

    const history = await historyOf(endpoint.businessId);
    expect(history.map((row) => [Number(row.sequence), row.event_type])).toEqual([
      [1, 'collection.successful'],
      [2, 'webhook.endpoint_disabled'],
    ]);
    expect(JSON.parse(history[1]?.body ?? '{}')).toEqual({
      event: 'webhook.endpoint_disabled',
      data: {
        webhook_id: endpoint.endpointId,
        business_id: endpoint.businessId,
        url_kind: 'collection_url',
        url: receiver.url(pathOf(endpoint)),
        reason: 'gone',
        disabled_at: expect.any(String),
        failing_since: expect.any(String),
        consecutive_failures: 1,
        enable: `POST /api/external/webhook/${endpoint.endpointId}/endpoint/collection_url/enable`,
      },
    });
    // Served to a caller that names notices; an older one (a gateway before 0068) never sees one.
    const notice = history[1]?.id as string;
    const listed = async (includeNotices: boolean) =>
      (
        await listEvents(database.em(), endpoint.businessId, create(ListEventsRequestSchema, { includeNotices }))
      ).events.map((event) => Number(event.sequence));
    expect(await listed(true)).toEqual([2, 1]);
    expect(await listed(false)).toEqual([1]);
    const read = (includeNotices: boolean) =>
      getEvent(database.em(), endpoint.businessId, create(GetEventRequestSchema, { eventId: notice, includeNotices }));
    expect((await read(true)).sequence).toBe(2n);
    await expect(read(false)).rejects.toMatchObject({ reason: 'EVENT_NOT_FOUND' });
    // The notice is the history's, never delivered: the URL it is about is the one gone.
    expect(await deliveriesOf(endpoint.businessId)).toHaveLength(1);
    const webhook = await getWebhook(database.em(), endpoint.businessId);
    expect(webhook.urlHealth.map((url) => [url.urlKind, url.disabled, url.reason])).toEqual([
      [2, true, 1], // collection_url, disabled, gone
      [3, false, 0], // payout_url, healthy
    ]);
  });

  it('N deliveries in a row failed disable the URL; later events land in the history, held, never attempted; enabling with replay delivers exactly the backlog once, in order', async () => {
    startWorker();
    const endpoint = await registration();
    let answer = 500;
    receiver.respondWith((request) => (request.path === pathOf(endpoint) ? { status: answer } : { status: 200 }));
    for (let i = 0; i < 3; i++) {
      await land(endpoint.businessId);
      await eventually(async () => expect(receivedBy(endpoint)).toHaveLength(i + 1), 10_000);
    }
    await eventually(async () => expect((await healthOf(endpoint))?.disabledReason).toBe('consecutive'), 10_000);
    expect(await healthOf(endpoint)).toMatchObject({ consecutiveFailures: 3 });

    for (let i = 0; i < 4; i++) await land(endpoint.businessId);
    worker.wake();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receivedBy(endpoint)).toHaveLength(3);
    const history = await historyOf(endpoint.businessId);
    expect(history.map((row) => row.event_type)).toEqual([
      ...Array<string>(3).fill('collection.successful'),
      'webhook.endpoint_disabled',
      ...Array<string>(4).fill('collection.successful'),
    ]);
    const held = (await deliveriesOf(endpoint.businessId)).slice(3);
    expect(held.map((row) => [row.status, row.attempt_count, row.skipped_reason, row.next_attempt_at])).toEqual(
      Array(4).fill(['pending', 0, 'endpoint_disabled', null]),
    );

    answer = 200;
    const enabled = await enableWebhookUrl(database.em(), context, endpoint.businessId, {
      webhookId: endpoint.endpointId,
      urlKind: 'collection_url',
    });
    expect(enabled.queued).toBe(4);
    expect(enabled.webhook.urlHealth[0]).toMatchObject({ disabled: false, consecutiveFailures: 0 });
    await eventually(async () => expect(receivedBy(endpoint)).toHaveLength(7), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const backlog = receivedBy(endpoint).slice(3);
    // Exactly the held ones, once each, in sequence order, with their own delivery ids and bodies.
    expect(backlog.map((r) => r.webhookId)).toEqual(held.map((row) => row.id));
    expect(backlog.map((r) => Number(r.headers['x-corridor-sequence']))).toEqual(
      held.map((row) => Number(row.sequence)),
    );
    expect(backlog.map((r) => r.rawBody)).toEqual(
      history.filter((row) => held.some((h) => h.event_id === row.id)).map((row) => row.body),
    );
    expect((await deliveriesOf(endpoint.businessId)).slice(3).map((row) => row.status)).toEqual(
      Array(4).fill('succeeded'),
    );
    // Enabling again finds nothing held.
    const again = await enableWebhookUrl(database.em(), context, endpoint.businessId, {
      webhookId: endpoint.endpointId,
      urlKind: 'collection_url',
    });
    expect(again.queued).toBe(0);
  });

  it('a 2xx resets the run: failures separated by a success never disable', async () => {
    startWorker();
    const endpoint = await registration();
    const answers = [500, 500, 200, 500, 500];
    receiver.respondWith((request) =>
      request.path === pathOf(endpoint) ? { status: answers[receivedBy(endpoint).length - 1] ?? 200 } : { status: 200 },
    );
    for (let i = 0; i < answers.length; i++) {
      await land(endpoint.businessId);
      await eventually(async () => expect(receivedBy(endpoint)).toHaveLength(i + 1), 10_000);
    }
    await eventually(async () => expect(await healthOf(endpoint)).toMatchObject({ consecutiveFailures: 2 }), 10_000);
    expect((await healthOf(endpoint))?.disabledAt).toBeNull();
  });

  it('disabling holds the deliveries still retrying; enabling without replay ends them failed, their reason kept', async () => {
    startWorker([0, 60_000]);
    const endpoint = await registration();
    receiver.respondWith((request) =>
      request.path === pathOf(endpoint) ? { status: receivedBy(endpoint).length === 1 ? 500 : 410 } : { status: 200 },
    );
    await land(endpoint.businessId);
    await eventually(async () => expect((await deliveriesOf(endpoint.businessId))[0]?.attempt_count).toBe(1), 10_000);
    await land(endpoint.businessId);
    await eventually(async () => expect((await healthOf(endpoint))?.disabledReason).toBe('gone'), 10_000);
    await land(endpoint.businessId);
    const [retrying, gone, later] = await deliveriesOf(endpoint.businessId);
    // The first was due again in a minute: held now, as the one that landed after.
    expect(retrying).toMatchObject({ status: 'pending', skipped_reason: 'endpoint_disabled', next_attempt_at: null });
    expect(gone).toMatchObject({ status: 'failed', skipped_reason: null });
    expect(later).toMatchObject({ status: 'pending', attempt_count: 0, skipped_reason: 'endpoint_disabled' });

    const enabled = await enableWebhookUrl(database.em(), context, endpoint.businessId, {
      webhookId: endpoint.endpointId,
      urlKind: 'collection_url',
      replay: false,
    });
    expect(enabled.queued).toBe(0);
    const after = await deliveriesOf(endpoint.businessId);
    expect([after[0], after[2]]).toMatchObject([
      { status: 'failed', attempt_count: 1, skipped_reason: 'endpoint_disabled' },
      { status: 'failed', attempt_count: 0, skipped_reason: 'endpoint_disabled' },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receivedBy(endpoint)).toHaveLength(2);
  });

  it('a PUT that changes the URL enables it (a new receiver), with what it held sent there', async () => {
    startWorker();
    const endpoint = await registration();
    receiver.respondWith((request) => (request.path === pathOf(endpoint) ? { status: 410 } : { status: 200 }));
    await land(endpoint.businessId);
    await eventually(async () => expect((await healthOf(endpoint))?.disabledReason).toBe('gone'), 10_000);
    await land(endpoint.businessId);
    const [, held] = await deliveriesOf(endpoint.businessId);
    expect(held).toMatchObject({ skipped_reason: 'endpoint_disabled' });

    const moved = `/moved/${endpoint.endpointId}`;
    await updateWebhook(database.em(), context, endpoint.businessId, {
      webhookId: endpoint.endpointId,
      collectionUrl: receiver.url(moved),
      kycUrlChange: { case: undefined },
    });
    expect(await healthOf(endpoint)).toMatchObject({ disabledAt: null, consecutiveFailures: 0 });
    const [received] = await receiver.waitFor((request) => request.path === moved, 1, 10_000);
    expect(received?.webhookId).toBe(held?.id);
    // The payout URL, not changed, is left as it was.
    expect((await new UrlHealthRepository(database.em()).of(endpoint.endpointId)).get('payout_url')).toBeUndefined();
  });

  it('judges the span in the business’s time: a sandbox clock 31 days ahead disables by failing_for in seconds (decision 0069)', async () => {
    startWorker();
    const endpoint = await registration();
    receiver.respondWith((request) => (request.path === pathOf(endpoint) ? { status: 500 } : { status: 200 }));
    await land(endpoint.businessId);
    await eventually(async () => expect((await healthOf(endpoint))?.consecutiveFailures).toBe(1), 10_000);
    // The business's clock copy, as the gateway sets it after an advance.
    const DAY = 24 * 3_600_000;
    await query(
      database.url,
      `insert into sandbox_clock (business_id, offset_ms, created_at, updated_at) values ($1, $2, now(), now())`,
      [endpoint.businessId, 31 * DAY],
    );
    await land(endpoint.businessId);
    await eventually(async () => expect((await healthOf(endpoint))?.disabledReason).toBe('failing_for'), 10_000);
    const health = await healthOf(endpoint);
    expect(health?.consecutiveFailures).toBe(2);
    expect((health?.disabledAt?.getTime() ?? 0) - (health?.failingSince?.getTime() ?? 0)).toBeGreaterThanOrEqual(
      31 * DAY - 60_000,
    );
  });
});
