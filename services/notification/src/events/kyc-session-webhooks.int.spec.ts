import { EventConsumer } from '@corridor/bus';
import { encodeEvent, Environment, newEvent, topicName, type Event } from '@corridor/contracts/events';
import type { KycSession } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { createLogger } from '@corridor/logging';
import { BusinessClock } from '@corridor/sandbox-clock';
import {
  createTestCertificates,
  integrationDatabase,
  createTopics,
  eventually,
  query,
  testKafka,
  uniqueSuffix,
  WebhookReceiver,
  type TestCertificates,
} from '@corridor/testing';
import type { Producer } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import type { NotificationContext } from '../context.js';
import { notificationDatabase } from '../database.js';
import { deliveryClock } from '../deliveries/delivery-clock.js';
import { DeliveryWorker } from '../deliveries/delivery-worker.js';
import { WebhookSender } from '../deliveries/send-webhook.js';
import { generateSigningSecret, lastFour, WebhookSecrets } from '../secrets/webhook-secrets.js';
import { updateWebhook } from '../webhooks/update-webhook.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';
import { deliveriesFromEvents, webhookEventTopics } from './deliveries-from-events.js';
import {
  exampleKycSession,
  renderKycSessionCompleted,
  renderKycSessionExpired,
  type KycSessionExample,
} from './kyc-session-webhooks.js';
import { DEFAULT_HEALTH_RULES } from '../health/url-health.js';

interface DeliveryRow {
  event_id: string;
  event_type: string;
  destination: string;
  endpoint_id: string;
  body: string;
  status: string;
}

const logger = createLogger('notification-test', { level: 'silent' });
const secrets = new WebhookSecrets('k'.repeat(64));

describe('merchant KYC session webhooks from the customer topic (seed 6.2; real PostgreSQL, Kafka, HTTPS receiver)', () => {
  const prefix = `test-${uniqueSuffix()}.`;
  const customerTopic = topicName(prefix, 'customer');
  const database = integrationDatabase('notification', notificationDatabase);
  let certificates: TestCertificates;
  let receiver: WebhookReceiver;
  let producer: Producer;
  let consumer: EventConsumer;
  let sender: WebhookSender;
  let worker: DeliveryWorker;
  let context: NotificationContext;

  beforeAll(async () => {
    certificates = await createTestCertificates();
    receiver = await WebhookReceiver.start({ certificates });
    await createTopics(webhookEventTopics(prefix), 1);
    producer = testKafka().producer();
    await producer.connect();
    const now = () => new Date();
    consumer = new EventConsumer({
      kafka: testKafka(),
      groupId: `${prefix}notification`,
      topics: webhookEventTopics(prefix),
      em: database.orm.em,
      handler: deliveriesFromEvents({ environment: 'sandbox', scheduleMs: [0, 60_000], now, logger }),
      logger,
    });
    await consumer.start();
    sender = new WebhookSender({
      allowCidrs: ['127.0.0.1/32'],
      extraCa: certificates.caPem,
      timeoutMs: 5_000,
      connectTimeoutMs: 2_000,
    });
    const runtime = {
      sender,
      secrets,
      scheduleMs: [0, 60_000],
      leaseMs: 10_000,
      now,
      ...deliveryClock(new BusinessClock(now, 'sandbox'), () => database.orm.em.fork()),
      logger,
      health: DEFAULT_HEALTH_RULES,
    };
    // Deliveries are sent as in production: the worker claims what the consumer made due.
    worker = new DeliveryWorker({
      orm: database.orm,
      runtime,
      concurrency: 4,
      perEndpoint: 4,
      pollIntervalMs: 50,
      retentionDays: 30,
      logger,
    });
    worker.start();
    context = { now, environment: 'sandbox', secrets, webhookUrls: { allowCidrs: ['127.0.0.1/32'] } };
  });

  afterAll(async () => {
    await consumer?.stop();
    await worker?.stop();
    await sender?.close();
    await producer?.disconnect();
    await receiver?.stop();
  });

  /** A business registered with the receiver's URLs, kyc_url among them or not; the receiver checks its secret. */
  async function registeredBusiness(withKycUrl: boolean) {
    const em = database.em();
    const [businessId, endpointId] = [randomUUID(), randomUUID()];
    const secret = generateSigningSecret();
    em.create(WebhookEndpoint, {
      id: endpointId,
      businessId,
      collectionUrl: receiver.url(`/collection/${endpointId}`),
      payoutUrl: receiver.url(`/payout/${endpointId}`),
      kycUrl: withKycUrl ? receiver.url(`/kyc/${endpointId}`) : null,
      signingSecretSealed: secrets.seal(secret, endpointId),
      signingSecretLast4: lastFour(secret),
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await em.flush();
    receiver.setSecret(secret);
    return { businessId, endpointId };
  }

  /** The fixture session as one of the business's own, under a fresh id. */
  function sessionOf(businessId: string, outcome: KycSessionExample, customerReference: string): KycSession {
    const session = exampleKycSession(outcome);
    session.id = randomUUID();
    session.businessId = businessId;
    session.customerReference = customerReference;
    return session;
  }

  const ended = (session: KycSession): Event =>
    newEvent({
      businessId: session.businessId,
      environment: Environment.SANDBOX,
      payload: session.expiredAt
        ? { case: 'kycSessionExpired', value: { session } }
        : { case: 'kycSessionCompleted', value: { session } },
    });

  /** The exact body the webhook of a session must carry. */
  const bodyOf = (session: KycSession) => {
    const rendered = session.expiredAt ? renderKycSessionExpired(session) : renderKycSessionCompleted(session);
    return JSON.stringify({ event: rendered.eventType, data: rendered.data });
  };

  /** Published as customer-kyb's outbox relay does: keyed by session id. */
  const publish = (...events: Event[]) =>
    producer.send({
      topic: customerTopic,
      messages: events.map((event) => {
        const value = event.payload.value;
        const key = value && 'session' in value ? value.session?.id : undefined;
        return { key: key ?? event.businessId, value: Buffer.from(encodeEvent(event)) };
      }),
    });

  const deliveriesOf = (businessId: string) =>
    query<DeliveryRow>(
      database.url,
      `select event_id, event_type, destination, endpoint_id, body, status
       from webhook_delivery where business_id = $1 order by created_at, event_type`,
      [businessId],
    );

  const processed = async (eventId: string) =>
    (await query(database.url, 'select 1 from processed_event where event_id = $1', [eventId])).length === 1;

  const receivedAt = (path: string) => receiver.requests.filter((request) => request.path === path);

  it('an approval, a final rejection and an expiry reach kyc_url, signed, with seed 6.2’s bodies', async () => {
    const { businessId, endpointId } = await registeredBusiness(true);
    const sessions = [
      sessionOf(businessId, 'approved', 'user-1_approve'),
      sessionOf(businessId, 'rejected', 'user-2_reject_final'),
      sessionOf(businessId, 'expired', 'user-3'),
    ];
    const events = sessions.map(ended);
    // The first event again: Kafka delivers at least once.
    await publish(...events, ...events.slice(0, 1));

    const rows = await eventually(async () => {
      const found = await deliveriesOf(businessId);
      expect(found.filter((row) => row.status === 'succeeded')).toHaveLength(3);
      return found;
    }, 60_000);
    expect(rows).toHaveLength(3);
    sessions.forEach((session, index) => {
      expect(rows.find((row) => row.event_id === events[index]?.id)).toEqual({
        event_id: events[index]?.id,
        event_type: session.expiredAt ? 'merchant.kyc.session.expired' : 'merchant.kyc.session.completed',
        destination: 'kyc_url',
        endpoint_id: endpointId,
        body: bodyOf(session),
        status: 'succeeded',
      });
    });

    const received = receivedAt(`/kyc/${endpointId}`);
    expect(received.map((request) => request.rawBody).sort()).toEqual(sessions.map(bodyOf).sort());
    expect(received.every((request) => request.verified)).toBe(true);
    const rejected = received.find((request) => request.rawBody.includes('user-2_reject_final'));
    expect(rejected?.json).toEqual({
      event: 'merchant.kyc.session.completed',
      data: {
        session_id: sessions[1]?.id,
        business_id: businessId,
        customer_reference: 'user-2_reject_final',
        requirements: ['DOCUMENTS', 'SELFIE', 'FACE_MATCH'],
        result: 'REJECTED',
        rejection_reason: 'We could not verify your identity with the documents provided.',
        rejection_type: 'FINAL',
        completed_at: '2026-11-21T09:30:00.000Z',
      },
    });
    // Nothing of a session goes to the registration's other URLs.
    expect(receivedAt(`/collection/${endpointId}`)).toHaveLength(0);
  });

  it('without kyc_url the session events are recorded as processed and not delivered, not even to collection_url', async () => {
    const { businessId, endpointId } = await registeredBusiness(false);
    const completed = ended(sessionOf(businessId, 'approved', 'user-4_approve'));
    const expired = ended(sessionOf(businessId, 'expired', 'user-5'));
    // A customer status change after them shows the registration is live: it falls back to collection_url.
    const statusChanged = newEvent({
      businessId,
      environment: Environment.SANDBOX,
      payload: {
        case: 'customerStatusChanged',
        value: { customerId: randomUUID(), customerType: 'individual', oldStatus: 'PENDING', newStatus: 'PROCESSING' },
      },
    });
    await publish(completed, expired, statusChanged);

    await eventually(async () => expect(await processed(statusChanged.id)).toBe(true), 60_000);
    expect(await processed(completed.id)).toBe(true);
    expect(await processed(expired.id)).toBe(true);
    expect((await deliveriesOf(businessId)).map((row) => [row.event_id, row.event_type, row.destination])).toEqual([
      [statusChanged.id, 'customer.status_changed', 'collection_url'],
    ]);
    await receiver.waitFor((request) => request.path === `/collection/${endpointId}`);
    expect(receivedAt(`/collection/${endpointId}`).map((request) => request.rawBody)).toEqual([
      expect.stringContaining('"event":"customer.status_changed"'),
    ]);
  });

  it('a kyc_url added later (PUT /webhook/{id}) receives the sessions that end after it, not the ones before', async () => {
    const { businessId, endpointId } = await registeredBusiness(false);
    const before = ended(sessionOf(businessId, 'rejected', 'user-6_reject_final'));
    await publish(before);
    await eventually(async () => expect(await processed(before.id)).toBe(true), 60_000);

    const kycUrl = receiver.url(`/kyc-added/${endpointId}`);
    const updated = await updateWebhook(database.em(), context, businessId, {
      webhookId: endpointId,
      kycUrlChange: { case: 'kycUrl', value: kycUrl },
    });
    expect(updated.kycUrl).toBe(kycUrl);
    const laterSession = sessionOf(businessId, 'expired', 'user-6');
    const after = ended(laterSession);
    await publish(after);

    const [sent] = await receiver.waitFor((request) => request.path === `/kyc-added/${endpointId}`, 1, 60_000);
    expect(sent?.rawBody).toBe(bodyOf(laterSession));
    expect(sent?.verified).toBe(true);
    expect((await deliveriesOf(businessId)).map((row) => [row.event_id, row.event_type, row.destination])).toEqual([
      [after.id, 'merchant.kyc.session.expired', 'kyc_url'],
    ]);
  });
});
