import { deadLetterServiceRegistration } from '@corridor/bus';
import { Environment, newEvent } from '@corridor/contracts/events';
import { openMigratedDatabase } from '@corridor/db';
import { createLogger } from '@corridor/logging';
import { describeDeadLetterService, query, testKafka } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { notificationDatabase } from '../database.js';
import { generateSigningSecret, lastFour, WebhookSecrets } from '../secrets/webhook-secrets.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';
import { webhookEventConsumer } from './webhook-event-consumer.js';

// notification's consumer of webhook events: a dead letter it retries becomes one webhook delivery,
// and the worker is woken for it, as after the consumer's own commit.
const now = new Date('2026-11-26T12:00:00.000Z');
let wakes = 0;

describeDeadLetterService({
  service: 'notification',
  openDatabase: (url) => openMigratedDatabase(notificationDatabase(url)),
  registration: (orm) =>
    deadLetterServiceRegistration(
      webhookEventConsumer({
        kafka: testKafka(),
        orm,
        groupId: 'notification',
        topicPrefix: 'test.',
        environment: 'sandbox',
        scheduleMs: [0, 60_000],
        now: () => now,
        logger: createLogger('notification-test', { level: 'silent' }),
        wakeWorker: () => void wakes++,
      }),
    ),
  async readableEvent(orm) {
    // A business with a webhook registration (its URLs are never called: no worker runs here).
    const em = orm.em.fork();
    const [businessId, endpointId] = [randomUUID(), randomUUID()];
    const secret = generateSigningSecret();
    em.create(WebhookEndpoint, {
      id: endpointId,
      businessId,
      collectionUrl: 'https://hooks.example.com/collections',
      payoutUrl: 'https://hooks.example.com/payouts',
      kycUrl: 'https://hooks.example.com/kyc',
      signingSecretSealed: new WebhookSecrets('d'.repeat(64)).seal(secret, endpointId),
      signingSecretLast4: lastFour(secret),
      createdAt: now,
      updatedAt: now,
    });
    await em.flush();
    return newEvent({
      businessId,
      environment: Environment.SANDBOX,
      payload: {
        case: 'customerStatusChanged',
        value: {
          customerId: randomUUID(),
          customerType: 'individual',
          oldStatus: 'PROCESSING',
          newStatus: 'VERIFIED',
          trigger: 'review',
        },
      },
    });
  },
  async expectApplied(databaseUrl, event) {
    expect(
      await query(databaseUrl, 'select event_type, destination, status from webhook_delivery where event_id = $1', [
        event.id,
      ]),
    ).toEqual([{ event_type: 'customer.status_changed', destination: 'kyc_url', status: 'pending' }]);
    expect(wakes).toBe(1);
  },
});
