import { create } from '@bufbuild/protobuf';
import { EventConsumer } from '@corridor/bus';
import { encodeEvent, Environment, newEvent, topicName, type Event } from '@corridor/contracts/events';
import { PayoutStatus } from '@corridor/contracts/corridor/payments/v1/payouts_pb';
import {
  TransactionSchema,
  TransactionStatus,
  TransactionType,
  type Transaction,
} from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { createLogger } from '@corridor/logging';
import { payoutJson, type PayoutStatusWord } from '@corridor/payments-json';
import { integrationDatabase, createTopics, eventually, query, testKafka, uniqueSuffix } from '@corridor/testing';
import type { Producer } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { notificationDatabase } from '../database.js';
import { lastFour, WebhookSecrets } from '../secrets/webhook-secrets.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';
import { deliveriesFromEvents, webhookEventTopics } from './deliveries-from-events.js';
import { examplePayoutTransaction } from './payout-webhooks.js';

interface DeliveryRow {
  event_id: string;
  event_type: string;
  destination: string;
  endpoint_id: string;
  body: string;
  status: string;
  attempt_count: number;
}

/** What the handler logs, line by line (it reports the events it skips there). */
const logLines: string[] = [];
const logger = createLogger('notification-test', {
  level: 'error',
  destination: { write: (line) => logLines.push(line) },
});

describe('payout webhooks from the payments topic (decision 0013; real PostgreSQL and Kafka)', () => {
  const prefix = `test-${uniqueSuffix()}.`;
  const paymentsTopic = topicName(prefix, 'payments');
  const database = integrationDatabase('notification', notificationDatabase);
  let producer: Producer;
  let consumer: EventConsumer;

  beforeAll(async () => {
    // The topics notification subscribes to, as bootstrap builds them: payments among them.
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
  });

  afterAll(async () => {
    await consumer?.stop();
    await producer?.disconnect();
  });

  /** A business registered with distinct collection and payout URLs; returns its ids. */
  async function registeredBusiness(): Promise<{ businessId: string; endpointId: string }> {
    const em = database.em();
    const [businessId, endpointId] = [randomUUID(), randomUUID()];
    em.create(WebhookEndpoint, {
      id: endpointId,
      businessId,
      collectionUrl: 'https://hooks.example.com/collections',
      payoutUrl: 'https://hooks.example.com/payouts',
      kycUrl: 'https://hooks.example.com/kyc',
      signingSecretSealed: new WebhookSecrets('p'.repeat(64)).seal('whsec_test', endpointId),
      signingSecretLast4: lastFour('whsec_test'),
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await em.flush();
    return { businessId, endpointId };
  }

  /** One payout of the business at a status, as payments puts it in its event. */
  function payoutOf(businessId: string, id: string, status: PayoutStatusWord): Transaction {
    const transaction = examplePayoutTransaction(status);
    transaction.id = id;
    transaction.businessId = businessId;
    return transaction;
  }

  const eventOf = (transaction: Transaction): Event =>
    newEvent({
      businessId: transaction.businessId,
      environment: Environment.SANDBOX,
      payload:
        transaction.status === TransactionStatus.PENDING
          ? { case: 'transactionCreated', value: { transaction } }
          : { case: 'transactionUpdated', value: { transaction, previousStatus: TransactionStatus.PENDING } },
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
      `select event_id, event_type, destination, endpoint_id, body, status, attempt_count
       from webhook_delivery where business_id = $1 order by created_at, event_type`,
      [businessId],
    );

  const processed = async (eventId: string) =>
    (await query(database.url, 'select 1 from processed_event where event_id = $1', [eventId])).length === 1;

  it('each state change of a payout becomes one payout.<status> delivery to payout_url with the payout as its body', async () => {
    const { businessId, endpointId } = await registeredBusiness();
    const id = randomUUID();
    const steps = (['pending', 'processing', 'successful'] as const).map((status) => {
      const transaction = payoutOf(businessId, id, status);
      return { status, transaction, event: eventOf(transaction) };
    });
    const events = steps.map((step) => step.event);
    // The first event again: Kafka delivers at least once.
    await publish(...events, ...events.slice(0, 1));

    const rows = await eventually(async () => {
      const found = await deliveriesOf(businessId);
      expect(found).toHaveLength(3);
      return found;
    }, 60_000);
    expect(rows.map((row) => row.event_id).sort()).toEqual(events.map((event) => event.id).sort());
    for (const { status, transaction, event } of steps) {
      expect(rows.find((row) => row.event_id === event.id)).toEqual({
        event_id: event.id,
        event_type: `payout.${status}`,
        destination: 'payout_url',
        endpoint_id: endpointId,
        // The exact bytes every attempt will sign and send.
        body: JSON.stringify({ event: `payout.${status}`, data: payoutJson(transaction) }),
        status: 'pending',
        attempt_count: 0,
      });
    }
    const successful = rows.find((row) => row.event_type === 'payout.successful');
    expect(JSON.parse(successful?.body ?? '{}')).toMatchObject({
      event: 'payout.successful',
      data: { id, status: 'successful', amount: 250_000, fee: 2_250, currency: 'NGN', failure_reason: null },
    });
  });

  it('swaps and adjustments on the payments topic make no delivery', async () => {
    const { businessId } = await registeredBusiness();
    const swap = eventOf(
      create(TransactionSchema, {
        id: randomUUID(),
        businessId,
        type: TransactionType.SWAP,
        status: TransactionStatus.SUCCESSFUL,
        currency: 'NGN',
        amount: -100_000n,
        swapDetails: { fromCurrency: 'NGN', toCurrency: 'USD', rate: '0.00065' },
      }),
    );
    const adjustment = eventOf(
      create(TransactionSchema, {
        id: randomUUID(),
        businessId,
        type: TransactionType.ADJUSTMENT,
        status: TransactionStatus.SUCCESSFUL,
        currency: 'NGN',
        amount: 5_000n,
        adjustmentDetails: { reason: 'goodwill credit' },
      }),
    );
    const payout = eventOf(payoutOf(businessId, randomUUID(), 'failed'));
    await publish(swap, adjustment, payout);

    await eventually(async () => expect(await processed(payout.id)).toBe(true), 60_000);
    expect(await processed(swap.id)).toBe(true);
    expect(await processed(adjustment.id)).toBe(true);
    expect((await deliveriesOf(businessId)).map((row) => [row.event_id, row.event_type])).toEqual([
      [payout.id, 'payout.failed'],
    ]);
  });

  it('a payout the contract cannot show is skipped and logged, and the events after it are still delivered', async () => {
    const { businessId } = await registeredBusiness();
    const id = randomUUID();
    const unreadable = payoutOf(businessId, id, 'processing');
    if (!unreadable.payoutDetails) throw new Error('fixture without payout details');
    unreadable.payoutDetails.status = PayoutStatus.UNSPECIFIED;
    const broken = eventOf(unreadable);
    const next = eventOf(payoutOf(businessId, id, 'successful'));
    await publish(broken, next);

    await eventually(async () => expect(await processed(next.id)).toBe(true), 60_000);
    expect((await deliveriesOf(businessId)).map((row) => [row.event_id, row.event_type])).toEqual([
      [next.id, 'payout.successful'],
    ]);
    expect(logLines.some((line) => line.includes(broken.id) && line.includes('cannot be rendered'))).toBe(true);
  });
});
