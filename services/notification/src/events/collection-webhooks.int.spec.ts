import { EventConsumer } from '@corridor/bus';
import { encodeEvent, Environment, newEvent, topicName, type Event } from '@corridor/contracts/events';
import { RefundStatus } from '@corridor/contracts/corridor/payments/v1/collections_pb';
import { TransactionStatus, type Transaction } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
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
import { triggerMockWebhook } from '../deliveries/delivery-api.js';
import { EVENT_WORDS } from '../deliveries/delivery-proto.js';
import { WebhookSender } from '../deliveries/send-webhook.js';
import { generateSigningSecret, lastFour, WebhookSecrets } from '../secrets/webhook-secrets.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';
import {
  exampleCollectionTransaction,
  exampleRefundTransaction,
  renderCollection,
  renderRefund,
  type CollectionOutcome,
} from './collection-webhooks.js';
import type { RefundStatusWord } from '@corridor/payments-json';
import { deliveriesFromEvents, webhookEventTopics } from './deliveries-from-events.js';
import { DEFAULT_HEALTH_RULES } from '../health/url-health.js';

interface DeliveryRow {
  event_id: string;
  event_type: string;
  destination: string;
  endpoint_id: string;
  body: string;
  status: string;
  mock: boolean;
}

interface WebhookBody {
  event: string;
  data: Record<string, unknown>;
}

const logger = createLogger('notification-test', { level: 'silent' });
const secrets = new WebhookSecrets('c'.repeat(64));

describe('collection and refund webhooks from the payments topic (seed 6.3; real PostgreSQL and Kafka)', () => {
  const prefix = `test-${uniqueSuffix()}.`;
  const paymentsTopic = topicName(prefix, 'payments');
  const database = integrationDatabase('notification', notificationDatabase);
  let certificates: TestCertificates;
  let receiver: WebhookReceiver;
  let producer: Producer;
  let consumer: EventConsumer;
  let context: NotificationContext;

  beforeAll(async () => {
    certificates = await createTestCertificates();
    receiver = await WebhookReceiver.start({ certificates });
    await createTopics(webhookEventTopics(prefix), 1);
    producer = testKafka().producer();
    await producer.connect();
    consumer = new EventConsumer({
      kafka: testKafka(),
      groupId: `${prefix}notification`,
      topics: webhookEventTopics(prefix),
      em: database.orm.em,
      handler: deliveriesFromEvents({ environment: 'sandbox', scheduleMs: [0, 60_000], now: () => new Date(), logger }),
      logger,
    });
    await consumer.start();
    const now = () => new Date();
    const sender = new WebhookSender({
      allowCidrs: ['127.0.0.1/32'],
      extraCa: certificates.caPem,
      timeoutMs: 5_000,
      connectTimeoutMs: 2_000,
    });
    context = {
      now,
      environment: 'sandbox',
      secrets,
      webhookUrls: { allowCidrs: ['127.0.0.1/32'] },
      deliveries: {
        sender,
        secrets,
        scheduleMs: [0, 60_000],
        leaseMs: 10_000,
        now,
        ...deliveryClock(new BusinessClock(now, 'sandbox'), () => database.orm.em.fork()),
        logger,
        health: DEFAULT_HEALTH_RULES,
      },
    };
  });

  afterAll(async () => {
    await consumer?.stop();
    await producer?.disconnect();
    await receiver?.stop();
  });

  /** A business registered with the receiver's three URLs (kyc_url too, which these events must not use). */
  async function registeredBusiness(): Promise<{ businessId: string; endpointId: string }> {
    const em = database.em();
    const [businessId, endpointId] = [randomUUID(), randomUUID()];
    const secret = generateSigningSecret();
    em.create(WebhookEndpoint, {
      id: endpointId,
      businessId,
      collectionUrl: receiver.url('/collection'),
      payoutUrl: receiver.url('/payout'),
      kycUrl: receiver.url('/kyc'),
      signingSecretSealed: secrets.seal(secret, endpointId),
      signingSecretLast4: lastFour(secret),
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await em.flush();
    return { businessId, endpointId };
  }

  /** The example collection as the business's own, under a fresh id. */
  function collectionOf(businessId: string, outcome: CollectionOutcome | 'PENDING', id = randomUUID()): Transaction {
    const transaction = exampleCollectionTransaction(outcome === 'PENDING' ? 'EXPIRED' : outcome);
    if (outcome === 'PENDING') transaction.status = TransactionStatus.PENDING;
    transaction.id = id;
    transaction.businessId = businessId;
    return transaction;
  }

  function refundOf(businessId: string, status: RefundStatusWord, id: string, collectionId: string): Transaction {
    const transaction = exampleRefundTransaction(status);
    if (!transaction.refundDetails) throw new Error('fixture without refund details');
    transaction.id = id;
    transaction.businessId = businessId;
    transaction.refundDetails.id = id;
    transaction.refundDetails.transactionId = collectionId;
    return transaction;
  }

  const created = (transaction: Transaction): Event =>
    newEvent({
      businessId: transaction.businessId,
      environment: Environment.SANDBOX,
      payload: { case: 'transactionCreated', value: { transaction } },
    });

  const updated = (transaction: Transaction, previousStatus: TransactionStatus): Event =>
    newEvent({
      businessId: transaction.businessId,
      environment: Environment.SANDBOX,
      payload: { case: 'transactionUpdated', value: { transaction, previousStatus } },
    });

  /** Published as payments' outbox relay does: keyed by transaction id, so in order. */
  const publish = (...events: Event[]) =>
    producer.send({
      topic: paymentsTopic,
      messages: events.map((event) => {
        const value = event.payload.value;
        const key = value && 'transaction' in value ? value.transaction?.id : undefined;
        return { key: key ?? event.businessId, value: Buffer.from(encodeEvent(event)) };
      }),
    });

  const deliveriesOf = (businessId: string) =>
    query<DeliveryRow>(
      database.url,
      `select event_id, event_type, destination, endpoint_id, body, status, mock
       from webhook_delivery where business_id = $1 order by created_at, event_type`,
      [businessId],
    );

  const processed = async (eventId: string) =>
    (await query(database.url, 'select 1 from processed_event where event_id = $1', [eventId])).length === 1;

  /** Waits for the business's deliveries made from events (not mocks), `count` of them. */
  const eventDeliveries = (businessId: string, count: number) =>
    eventually(async () => {
      const found = (await deliveriesOf(businessId)).filter((row) => !row.mock);
      expect(found).toHaveLength(count);
      return found;
    }, 60_000);

  it('a transfer received, a transfer bounced and a money request that expires reach collection_url; the pending request does not', async () => {
    const { businessId, endpointId } = await registeredBusiness();
    const received = collectionOf(businessId, 'SUCCESSFUL');
    const bounced = collectionOf(businessId, 'FAILED');
    const requestId = randomUUID();
    const requested = created(collectionOf(businessId, 'PENDING', requestId));
    const expiredRequest = collectionOf(businessId, 'EXPIRED', requestId);
    const expected = [
      { event: created(received), transaction: received, type: 'collection.successful' },
      { event: created(bounced), transaction: bounced, type: 'collection.failed' },
      {
        event: updated(expiredRequest, TransactionStatus.PENDING),
        transaction: expiredRequest,
        type: 'collection.expired',
      },
    ];
    const [first] = expected;
    if (!first) throw new Error('no expected delivery');
    // The first event again: Kafka delivers at least once.
    await publish(requested, ...expected.map((step) => step.event), first.event);

    const rows = await eventDeliveries(businessId, 3);
    expect(await processed(requested.id)).toBe(true);
    for (const { event, transaction, type } of expected) {
      const rendered = renderCollection(transaction);
      expect(rows.find((row) => row.event_id === event.id)).toEqual({
        event_id: event.id,
        event_type: type,
        destination: 'collection_url',
        endpoint_id: endpointId,
        // The exact bytes every attempt will sign and send.
        body: JSON.stringify({ event: type, data: rendered?.data }),
        status: 'pending',
        mock: false,
      });
    }
    const expired = rows.find((row) => row.event_type === 'collection.expired');
    expect(JSON.parse(expired?.body ?? '{}')).toMatchObject({
      event: 'collection.expired',
      data: {
        transaction_id: requestId,
        business_id: businessId,
        transaction_status: 'EXPIRED',
        message: 'Transaction Expired',
        method: 'money_request',
        amount: 1_500_000,
        currency: 'NGN',
        expired_at: '2026-11-23T09:30:00.000Z',
      },
    });
  });

  it('a refund makes refund_initiated then refund to collection_url; the collection’s refund_status change makes none', async () => {
    const { businessId } = await registeredBusiness();
    const collection = collectionOf(businessId, 'SUCCESSFUL');
    const refundId = randomUUID();
    const initiated = created(refundOf(businessId, 'processing', refundId, collection.id));
    const ended = updated(refundOf(businessId, 'failed', refundId, collection.id), TransactionStatus.PROCESSING);
    collection.refundStatus = RefundStatus.FAILED;
    const collectionTouched = updated(collection, TransactionStatus.SUCCESSFUL);
    await publish(initiated, ended, collectionTouched);

    await eventually(async () => expect(await processed(collectionTouched.id)).toBe(true), 60_000);
    // Both rows come from one consumer chunk, often in the same millisecond: read by event, not by order.
    const rows = await eventDeliveries(businessId, 2);
    expect(rows.map((row) => [row.event_id, row.event_type, row.destination])).toEqual(
      expect.arrayContaining([
        [initiated.id, 'refund_initiated', 'collection_url'],
        [ended.id, 'refund', 'collection_url'],
      ]),
    );
    const bodyOf = (eventId: string) =>
      JSON.parse(rows.find((row) => row.event_id === eventId)?.body ?? '{}') as WebhookBody;
    const bodies = [bodyOf(initiated.id), bodyOf(ended.id)];
    expect(bodies[0]).toEqual({
      event: 'refund_initiated',
      data: renderRefund(refundOf(businessId, 'processing', refundId, collection.id))?.data,
    });
    expect(bodies[1]).toMatchObject({
      event: 'refund',
      data: {
        refund_id: refundId,
        transaction_id: collection.id,
        business_id: businessId,
        type: 'refund',
        status: 'failed',
        amount: 25_000,
        currency: 'GBP',
        failure_reason: 'declined by the receiving bank',
      },
    });
  });

  it('POST /webhook/mock sends collection.expired, refund_initiated and refund with the members of the real events’ bodies', async () => {
    const { businessId } = await registeredBusiness();
    const collection = collectionOf(businessId, 'SUCCESSFUL');
    const refundId = randomUUID();
    const real: Record<string, Event> = {
      'collection.successful': created(collection),
      'collection.failed': created(collectionOf(businessId, 'FAILED')),
      'collection.expired': updated(collectionOf(businessId, 'EXPIRED'), TransactionStatus.PENDING),
      refund_initiated: created(refundOf(businessId, 'processing', refundId, collection.id)),
      refund: updated(refundOf(businessId, 'successful', refundId, collection.id), TransactionStatus.PROCESSING),
    };
    await publish(...Object.values(real));
    const rows = await eventDeliveries(businessId, Object.keys(real).length);

    for (const [event, published] of Object.entries(real)) {
      const realBody = JSON.parse(rows.find((row) => row.event_id === published.id)?.body ?? '{}') as WebhookBody;
      const { delivery } = await triggerMockWebhook(database.em(), context, businessId, {
        event: EVENT_WORDS.toProto(event),
      });
      const [sent] = await receiver.waitFor((request) => request.webhookId === delivery?.id);
      const mockBody = sent?.json as WebhookBody;
      expect({ event, path: sent?.path, mock: mockBody.event }).toEqual({ event, path: '/collection', mock: event });
      expect({ event, keys: Object.keys(mockBody.data) }).toEqual({ event, keys: Object.keys(realBody.data) });
      expect(realBody.event).toBe(event);
      expect(mockBody.data.business_id).toBe(businessId);
    }
  });
});
