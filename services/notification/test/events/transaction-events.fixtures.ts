import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Environment, newEvent, type Event } from '@corridor/contracts/events';
import type { Transaction, TransactionStatus } from '@corridor/contracts/corridor/payments/v1/transaction_pb';
import { randomUUID } from 'node:crypto';
import { exampleCollectionTransaction } from '../../src/events/collection-webhooks.js';

/** What the payments webhook specs share: one business, one customer, a clock, and payments' two events. */

export const business = '0b6c3c9e-1d2f-4b8a-9c7e-5a4d3b2c1e0f';
export const customer = '4a2e8c1f-9b3d-4e6a-8f07-2c5d1b9e3a64';
export const created = new Date('2026-11-24T08:00:00.000Z');
export const later = (seconds: number) => timestampFromDate(new Date(created.getTime() + seconds * 1000));

/** transaction.created, as payments publishes a new transaction. */
export const createdEvent = (transaction: Transaction, businessId = business): Event =>
  newEvent({
    businessId,
    environment: Environment.SANDBOX,
    payload: { case: 'transactionCreated', value: { transaction } },
  });

/** transaction.updated, as payments publishes a status change. */
export const updatedEvent = (
  transaction: Transaction,
  previousStatus: TransactionStatus,
  businessId = business,
): Event =>
  newEvent({
    businessId,
    environment: Environment.SANDBOX,
    payload: { case: 'transactionUpdated', value: { transaction, previousStatus } },
  });

/** A new successful collection of the business, as payments publishes it: one collection.successful webhook. */
export function successfulCollectionEvent(businessId: string): Event {
  const transaction = exampleCollectionTransaction('SUCCESSFUL');
  transaction.id = randomUUID();
  transaction.businessId = businessId;
  return createdEvent(transaction, businessId);
}
