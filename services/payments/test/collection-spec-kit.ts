import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { decodeEvent, Environment, newEvent, type NewEvent } from '@corridor/contracts/events';
import type { MikroORM } from '@corridor/db';
import { createLogger } from '@corridor/logging';
import { query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { customerProjection } from '../src/customers/customer-projection.js';

/**
 * What the collection specs share, so each reads as its rules: customers fed to payments the way its
 * consumer of corridor.customer.v1 feeds them, and what a transaction left in the ledger and the outbox.
 */

export const dateOf = (timestamp: Timestamp | undefined) => (timestamp ? timestampDate(timestamp) : undefined);

export type Verification = 'PENDING' | 'PROCESSING' | 'VERIFIED' | 'REJECTED';

export interface CustomerFacts {
  type?: 'individual' | 'business';
  /** Empty for individuals; FULL for businesses unless said. */
  kybScope?: 'MINIMAL' | 'FULL' | '';
  status?: Verification;
  name?: string;
}

export function collectionSpecKit(orm: MikroORM, databaseUrl: string, now: () => Date) {
  const project = customerProjection({ logger: createLogger('test', { level: 'silent' }) });

  /** What the consumer does with an event of corridor.customer.v1. */
  const deliver = (businessId: string, payload: NewEvent['payload']) =>
    orm.em.fork().transactional((tx) =>
      project(newEvent({ businessId, environment: Environment.SANDBOX, occurredAt: now(), payload }), tx, {
        topic: 'test.corridor.customer.v1',
        partition: 0,
        offset: '0',
      }),
    );

  /** A customer.created for a new customer of `businessId`: a VERIFIED FULL-KYB business unless said. */
  async function customer(businessId: string, facts: CustomerFacts = {}): Promise<string> {
    const { type = 'business', kybScope = type === 'business' ? 'FULL' : '', status = 'VERIFIED' } = facts;
    const customerId = randomUUID();
    await deliver(businessId, {
      case: 'customerCreated',
      value: {
        customerId,
        customerType: type,
        kybScope,
        verificationStatus: status,
        displayName: facts.name ?? 'Adaeze Textiles Ltd',
      },
    });
    return customerId;
  }

  /** A new business with one customer. */
  async function business(facts: CustomerFacts = {}): Promise<{ businessId: string; customerId: string }> {
    const businessId = randomUUID();
    return { businessId, customerId: await customer(businessId, facts) };
  }

  /** The ledger transfers of a transaction, with the accounts' kinds, largest first. */
  const moves = (transactionId: string) =>
    query<{ phase: string; amount: string; debit: string; credit: string }>(
      databaseUrl,
      `select t.phase, t.amount::text as amount, d.kind as debit, c.kind as credit from ledger_transfer t
       join ledger_account d on d.id = t.debit_account_id join ledger_account c on c.id = t.credit_account_id
       where t.transaction_id = $1 order by t.amount desc`,
      [transactionId],
    );

  /** The events recorded in the outbox for a transaction, oldest first. */
  const outboxEvents = async (transactionId: string) =>
    (
      await query<{ payload: Buffer }>(databaseUrl, 'select payload from outbox where message_key = $1 order by id', [
        transactionId,
      ])
    ).map(({ payload }) => decodeEvent(payload).payload);

  /** A transaction's events as its status trail: created with its status, updated from and to. */
  const statusTrail = async (transactionId: string) =>
    (await outboxEvents(transactionId)).map((event) => {
      if (event.case === 'transactionCreated') return ['created', event.value.transaction?.status];
      if (event.case === 'transactionUpdated') {
        return ['updated', event.value.previousStatus, event.value.transaction?.status];
      }
      return [event.case];
    });

  return { deliver, customer, business, moves, outboxEvents, statusTrail };
}
