import { environmentFromName, newEvent, recordEvent } from '@corridor/bus';
import type { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import type { ClientOf } from '@corridor/grpc';
import type { Clock } from '@corridor/runtime';
import type { EntityManager } from '@mikro-orm/core';
import type { Customer, VerificationStatus } from './customers/customer.entity.js';
import type { ObjectStorage } from './files/object-storage.js';

/** What every customer-kyb use case knows about where it runs. */
export interface CustomerContext {
  environment: 'sandbox' | 'production';
  /** Topic of customer-kyb's events (with the environment's prefix). */
  topic: string;
  now: Clock;
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
          customerId: customer.id,
          customerType: customer.type,
          kybScope: customer.type === 'business' ? (customer.kybScope ?? 'MINIMAL') : '',
          oldStatus: from,
          newStatus: to,
          trigger,
        },
      },
    }),
  });
}
