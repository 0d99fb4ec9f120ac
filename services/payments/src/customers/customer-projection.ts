import type { EventHandler } from '@corridor/bus';
import type { Event } from '@corridor/contracts/events';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { eventWordOf } from '@corridor/customer-json';
import { invalidArgument } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { Logger } from '@corridor/logging';
import type { EntityManager } from '@mikro-orm/core';
import { sql, type Row } from '../ledger/index.js';
import { CUSTOMER_TYPES, KYB_SCOPES, VERIFICATION_STATUSES, type CustomerFacts } from './customer-facts.js';
import type { CustomerSource } from './customer-source.js';

/** A customer as payments knows it (decision 0014). */
export interface KnownCustomer {
  id: string;
  businessId: string;
  type: 'individual' | 'business';
  kybScope: 'MINIMAL' | 'FULL' | null;
  verificationStatus: 'PENDING' | 'PROCESSING' | 'VERIFIED' | 'REJECTED';
  displayName: string;
}

/**
 * Writes `facts` to customer_projection unless the row already holds something newer, and closes
 * the accounts of a customer now REJECTED (decision 0014). The ordering rule (decision 0033): a row
 * is replaced only by facts as new or newer by customer-kyb's clock. Events of one customer come in
 * order (one partition, keyed by customer id) with non-decreasing times, so each applies; customer-kyb's
 * answer to a read carries its updated_at, at or after the time of every change it reflects, so an
 * event it already reflects, arriving late (or retried from the dead letters), changes nothing and
 * never undoes it. Answers the row written, or undefined when the row was newer.
 */
export async function projectCustomer(
  em: EntityManager,
  facts: CustomerFacts,
  logger: Logger | undefined,
): Promise<Row | undefined> {
  const [written] = await sql(
    em,
    `insert into customer_projection (customer_id, business_id, customer_type, kyb_scope, verification_status,
       display_name, updated_at)
     values (?, ?, ?, ?, ?, ?, ?)
     on conflict (customer_id) do update set customer_type = excluded.customer_type, kyb_scope = excluded.kyb_scope,
       verification_status = excluded.verification_status,
       display_name = case when excluded.display_name = '' then customer_projection.display_name
                           else excluded.display_name end,
       updated_at = excluded.updated_at
     where customer_projection.updated_at <= excluded.updated_at
     returning *`,
    [
      facts.customerId,
      facts.businessId,
      facts.customerType,
      facts.kybScope === '' ? null : facts.kybScope,
      facts.verificationStatus,
      facts.displayName,
      facts.at,
    ],
  );
  if (written && facts.verificationStatus === 'REJECTED') {
    const closed = await sql(
      em,
      `update virtual_account set status = 'closed', closed_at = ?, close_reason = 'customer_rejected'
       where customer_id = ? and status = 'active' returning id`,
      [facts.at, facts.customerId],
    );
    if (closed.length > 0) {
      logger?.info(
        { customer: facts.customerId, accounts: closed.map((row) => String(row.id)) },
        'customer rejected: its virtual accounts are closed',
      );
    }
  }
  return written;
}

/**
 * What customer.created and customer.status_changed say of a customer; undefined for the events
 * payments does not project. Pure: the event corpus spec reads every recorded release's events with it.
 */
export function customerFactsOf(event: Event, now: Date = new Date()): CustomerFacts | undefined {
  const { payload } = event;
  let status: string;
  if (payload.case === 'customerCreated') {
    status = eventWordOf(VERIFICATION_STATUSES, payload.value.status, payload.value.verificationStatus, 'status');
  } else if (payload.case === 'customerStatusChanged') {
    const { newVerificationStatus, newStatus } = payload.value;
    status = eventWordOf(VERIFICATION_STATUSES, newVerificationStatus, newStatus, 'new_verification_status');
  } else {
    return undefined;
  }
  const { customerId, type, customerType, scope, kybScope, displayName } = payload.value;
  return {
    customerId,
    businessId: event.businessId,
    customerType: eventWordOf(CUSTOMER_TYPES, type, customerType, 'type'),
    kybScope: eventWordOf(KYB_SCOPES, scope, kybScope, 'scope'),
    verificationStatus: status,
    displayName,
    at: event.occurredAt ? timestampDate(event.occurredAt) : now,
  };
}

/**
 * The consumer's handler: customer.created and customer.status_changed keep customer_projection, in
 * the transaction that marks the event processed (projectCustomer's ordering rule).
 */
export function customerProjection(options: { logger: Logger }): EventHandler {
  return async (event, em) => {
    const facts = customerFactsOf(event);
    if (facts) await projectCustomer(em, facts, options.logger);
  };
}

const knownCustomerOf = (row: Row): KnownCustomer => ({
  id: String(row.customer_id),
  businessId: String(row.business_id),
  type: String(row.customer_type) as KnownCustomer['type'],
  kybScope: row.kyb_scope === null ? null : (String(row.kyb_scope) as KnownCustomer['kybScope']),
  verificationStatus: String(row.verification_status) as KnownCustomer['verificationStatus'],
  displayName: String(row.display_name),
});

const notACustomer = (customerId: string) =>
  invalidArgument(
    `customer_id ${customerId} is not a customer of this business`,
    { customer_id: ['is not a customer of this business'] },
    'CUSTOMER_NOT_FOUND',
  );

/** Where requireCustomer reads a customer the projection cannot vouch for; absent in some specs. */
export interface CustomerLookup {
  customers?: CustomerSource;
}

/**
 * The business's customer, or 422 naming `customer_id` (a field of the request): another business's
 * customer is indistinguishable from a missing one. `serves` says whether the request can go ahead
 * with the customer as it is (e.g. VERIFIED for an account); the caller still refuses on it.
 *
 * Read-your-writes (decision 0033): the projection lags customer-kyb by an event's trip through
 * Kafka, so when it has not seen the customer, or holds a state that `serves` refuses, customer-kyb
 * is asked (as the same business) and the newer of its answer and the projection decides; the
 * answer is kept in the projection (the row an account references). customer-kyb away is 503,
 * never a false "not a customer".
 */
export async function requireCustomer(
  em: EntityManager,
  lookup: CustomerLookup,
  businessId: string,
  customerId: string,
  serves: (customer: KnownCustomer) => boolean = () => true,
): Promise<KnownCustomer> {
  if (!isUuid(customerId)) throw notACustomer(customerId);
  const [row] = await sql(em, 'select * from customer_projection where customer_id = ? and business_id = ?', [
    customerId,
    businessId,
  ]);
  const projected = row ? knownCustomerOf(row) : undefined;
  if (projected && serves(projected)) return projected;
  if (!lookup.customers) {
    if (projected) return projected;
    throw notACustomer(customerId);
  }
  const facts = await lookup.customers.customerOf(businessId, customerId);
  if (!facts) {
    // customer-kyb knows no such customer of the business: the projection's word is all there is.
    if (projected) return projected;
    throw notACustomer(customerId);
  }
  const written = await projectCustomer(em, facts, lookup.customers.logger);
  if (written) return knownCustomerOf(written);
  // An event newer than the answer landed in between: it decides.
  const [newer] = await sql(em, 'select * from customer_projection where customer_id = ? and business_id = ?', [
    customerId,
    businessId,
  ]);
  if (!newer) throw notACustomer(customerId);
  return knownCustomerOf(newer);
}
