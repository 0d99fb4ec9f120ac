import { deadLetterServiceRegistration } from '@corridor/bus';
import { Environment, newEvent } from '@corridor/contracts/events';
import { openMigratedDatabase } from '@corridor/db';
import { createLogger } from '@corridor/logging';
import { describeDeadLetterService, query, testKafka } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { paymentsDatabase } from '../database.js';
import { customerEventConsumer } from './customer-event-consumer.js';

// payments' consumer of customer events: a dead letter it retries becomes the customer's projection.
describeDeadLetterService({
  service: 'payments',
  openDatabase: (url) => openMigratedDatabase(paymentsDatabase(url)),
  registration: (orm) =>
    deadLetterServiceRegistration(
      customerEventConsumer({
        kafka: testKafka(),
        orm,
        groupId: 'payments',
        topicPrefix: 'test.',
        now: () => new Date('2026-11-26T12:00:00.000Z'),
        logger: createLogger('payments-test', { level: 'silent' }),
      }),
    ),
  readableEvent: async () =>
    newEvent({
      businessId: randomUUID(),
      environment: Environment.SANDBOX,
      payload: {
        case: 'customerCreated',
        value: {
          customerId: randomUUID(),
          customerType: 'individual',
          verificationStatus: 'PENDING',
          displayName: 'Ada Obi',
        },
      },
    }),
  async expectApplied(databaseUrl, event) {
    expect(
      await query(databaseUrl, 'select business_id, verification_status, display_name from customer_projection'),
    ).toEqual([{ business_id: event.businessId, verification_status: 'PENDING', display_name: 'Ada Obi' }]);
  },
});
