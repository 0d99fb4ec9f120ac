import { recordEvent } from '@corridor/bus';
import { environmentFromName, newEvent } from '@corridor/contracts/events';
import {
  CustomerTypeSchema,
  KybScope,
  KybScopeSchema,
  VerificationStatusSchema,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import type { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import type { ClientOf } from '@corridor/grpc';
import type { Clock } from '@corridor/runtime';
import type { BusinessClock } from '@corridor/sandbox-clock';
import type { EntityManager } from '@mikro-orm/core';
import { enumOf } from './customer-input.js';
import type { Customer, VerificationStatus } from './customers/customer.entity.js';
import type { ObjectStorage } from './files/object-storage.js';

/** What every customer-kyb use case knows about where it runs. */
export interface CustomerContext {
  environment: 'sandbox' | 'production';
  /** Topic of customer-kyb's events (with the environment's prefix). */
  topic: string;
  now: Clock;
  /** Each business's time (its sandbox clock's copy, decision 0069): a KYC session's deadline is judged by it. */
  clock: BusinessClock;
  identity: ClientOf<typeof IdentityService>;
  storage: Pick<ObjectStorage, 'presignUpload' | 'head'>;
  files: { maxBytes: number; uploadUrlTtlSeconds: number };
}

/** Who is acting: a platform's credential (public API) or the back office (admin API). */
export interface Actor {
  /** The platform business; undefined for the back office, which sees every business. */
  businessId: string | undefined;
  /** For the audit trail: `credential:<client_id>` or `admin`. */
  name: string;
  requestId: string | undefined;
}

export type StatusTrigger = 'submit' | 'review' | 'upgrade';

/** What a bank account opened for the customer is named after: the business name, or first and last names. */
export function displayNameOf(customer: Customer): string {
  const text = (key: string) => {
    const value = customer.fields[key];
    return typeof value === 'string' ? value.trim() : '';
  };
  if (customer.type === 'business') return text('business_name');
  return [text('first_name'), text('last_name')].filter(Boolean).join(' ');
}

/** The customer's type and scope as the events carry them: the enums (decision 0061). */
function eventCustomer(customer: Customer) {
  return {
    customerId: customer.id,
    type: enumOf(CustomerTypeSchema, customer.type),
    scope: customer.type === 'business' ? enumOf(KybScopeSchema, customer.kybScope ?? 'MINIMAL') : KybScope.UNSPECIFIED,
    displayName: displayNameOf(customer),
  };
}

/** Records customer.created (not a webhook: for other services' projections) in the unit of work of `tx`. */
export function recordCustomerCreated(tx: EntityManager, context: CustomerContext, customer: Customer): void {
  recordEvent(tx, {
    topic: context.topic,
    key: customer.id,
    event: newEvent({
      businessId: customer.businessId,
      environment: environmentFromName(context.environment),
      occurredAt: customer.createdAt,
      payload: {
        case: 'customerCreated',
        value: {
          ...eventCustomer(customer),
          status: enumOf(VerificationStatusSchema, customer.verificationStatus),
        },
      },
    }),
  });
}

/**
 * Moves a customer's verification_status and records customer.status_changed in the same unit of
 * work (outbox). seed 6.1: the event fires on every status change and only then, so this is the
 * one place a status is written after create.
 */
export function changeStatus(
  tx: EntityManager,
  context: CustomerContext,
  customer: Customer,
  to: VerificationStatus,
  trigger: StatusTrigger,
  now: Date,
): void {
  const from = customer.verificationStatus;
  if (from === to) return;
  customer.verificationStatus = to;
  customer.updatedAt = now;
  recordEvent(tx, {
    topic: context.topic,
    key: customer.id,
    event: newEvent({
      businessId: customer.businessId,
      environment: environmentFromName(context.environment),
      occurredAt: now,
      payload: {
        case: 'customerStatusChanged',
        value: {
          ...eventCustomer(customer),
          oldVerificationStatus: enumOf(VerificationStatusSchema, from),
          newVerificationStatus: enumOf(VerificationStatusSchema, to),
          trigger,
        },
      },
    }),
  });
}
