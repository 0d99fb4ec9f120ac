import type { EventHandler } from '@corridor/bus';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { invalidArgument } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { Logger } from '@corridor/logging';
import type { EntityManager } from '@mikro-orm/core';
import { sql } from '../ledger/index.js';

/** A customer as payments knows it (decision 0014). */
export interface KnownCustomer {
  id: string;
  businessId: string;
  type: 'individual' | 'business';
  kybScope: 'MINIMAL' | 'FULL' | null;
  verificationStatus: 'PENDING' | 'PROCESSING' | 'VERIFIED' | 'REJECTED';
  displayName: string;
}

interface CustomerFacts {
  customerId: string;
  customerType: string;
  kybScope: string;
  verificationStatus: string;
  displayName: string;
}

/**
 * The consumer's handler: customer.created and customer.status_changed keep customer_projection, in
 * the transaction that marks the event processed. Events of one customer share a partition (keyed by
 * customer id), so the last one applied is the newest. A customer REJECTED after its accounts were
 * opened has them closed: decision 0014.
 */
export function customerProjection(options: { logger: Logger }): EventHandler {
  return async (event, em) => {
    const { payload } = event;
    let facts: CustomerFacts;
    if (payload.case === 'customerCreated') {
      facts = payload.value;
    } else if (payload.case === 'customerStatusChanged') {
      facts = { ...payload.value, verificationStatus: payload.value.newStatus };
    } else {
      return;
    }
    const at = event.occurredAt ? timestampDate(event.occurredAt) : new Date();
    await sql(
      em,
      `insert into customer_projection (customer_id, business_id, customer_type, kyb_scope, verification_status,
         display_name, updated_at)
       values (?, ?, ?, ?, ?, ?, ?)
       on conflict (customer_id) do update set customer_type = excluded.customer_type, kyb_scope = excluded.kyb_scope,
         verification_status = excluded.verification_status,
         display_name = case when excluded.display_name = '' then customer_projection.display_name
                             else excluded.display_name end,
         updated_at = excluded.updated_at`,
      [
        facts.customerId,
        event.businessId,
        facts.customerType,
        facts.kybScope === '' ? null : facts.kybScope,
        facts.verificationStatus,
        facts.displayName,
        at,
      ],
    );
    if (facts.verificationStatus === 'REJECTED') {
      const closed = await sql(
        em,
        `update virtual_account set status = 'closed', closed_at = ?, close_reason = 'customer_rejected'
         where customer_id = ? and status = 'active' returning id`,
        [at, facts.customerId],
      );
      if (closed.length > 0) {
        options.logger.info(
          { customer: facts.customerId, accounts: closed.map((row) => String(row.id)) },
          'customer rejected: its virtual accounts are closed',
        );
      }
    }
  };
}

/**
 * The business's customer, or 422 naming `customer_id` (a field of the request): another business's
 * customer is indistinguishable from a missing one.
 */
export async function requireCustomer(
  em: EntityManager,
  businessId: string,
  customerId: string,
): Promise<KnownCustomer> {
  const [row] = isUuid(customerId)
    ? await sql(em, 'select * from customer_projection where customer_id = ? and business_id = ?', [
        customerId,
        businessId,
      ])
    : [];
  if (!row) {
    throw invalidArgument(
      `customer_id ${customerId} is not a customer of this business`,
      { customer_id: ['is not a customer of this business'] },
      'CUSTOMER_NOT_FOUND',
    );
  }
  return {
    id: String(row.customer_id),
    businessId: String(row.business_id),
    type: String(row.customer_type) as KnownCustomer['type'],
    kybScope: row.kyb_scope === null ? null : (String(row.kyb_scope) as KnownCustomer['kybScope']),
    verificationStatus: String(row.verification_status) as KnownCustomer['verificationStatus'],
    displayName: String(row.display_name),
  };
}
