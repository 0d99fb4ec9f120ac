import { create, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import {
  AuditChanges_VerificationStatusChangeSchema,
  AuditChangesSchema,
  type BusinessDataSchema,
  type IndividualDataSchema,
  VerificationStatusSchema,
  type AuditChanges_VerificationStatusChange,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { auditChangesJson, dataOfJson } from '@corridor/customer-json';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../context.js';
import { enumOf } from '../customer-input.js';
import type { Customer, FieldValues } from '../customers/customer.entity.js';
import { AuditEntry } from './audit-entry.entity.js';

/** What an action changed, typed (decision 0062): its case names the action's shape. */
export type AuditChangesInit = MessageInitShape<typeof AuditChangesSchema>;

/**
 * Adds an audit entry to the unit of work of `tx`: it commits with the change it describes. The
 * changes are stored as the admin API answers them (auditChangesJson), the JSON rows of every
 * release hold, so old and new rows read back the same way.
 */
export function recordAudit(
  tx: EntityManager,
  actor: Actor,
  customer: Customer,
  action: string,
  changes: AuditChangesInit,
  occurredAt: Date,
): void {
  tx.create(AuditEntry, {
    id: randomUUID(),
    customerId: customer.id,
    businessId: customer.businessId,
    action,
    actor: actor.name,
    requestId: actor.requestId ?? null,
    changes: auditChangesJson(create(AuditChangesSchema, changes)),
    occurredAt,
  });
}

/** The fields whose stored values differ (absent and null read as null). */
export function changedFields(before: Readonly<FieldValues>, after: Readonly<FieldValues>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (key) => (before[key] ?? null) !== (after[key] ?? null),
  );
}

function only(values: Readonly<FieldValues>, names: readonly string[]): FieldValues {
  return Object.fromEntries(
    names.flatMap((name) => {
      const value = values[name];
      return value === undefined ? [] : [[name, value]];
    }),
  );
}

/** The changed data fields of an individual or a business: each one's value before in `from`, after in `to`. */
export function dataChange<Desc extends typeof IndividualDataSchema | typeof BusinessDataSchema>(
  schema: Desc,
  before: Readonly<FieldValues>,
  after: Readonly<FieldValues>,
): { from: MessageShape<Desc>; to: MessageShape<Desc> } {
  const names = changedFields(before, after);
  return { from: dataOfJson(schema, only(before, names)), to: dataOfJson(schema, only(after, names)) };
}

/** A customer's verification status move, from the stored words. */
export function statusChange(from: string, to: string): AuditChanges_VerificationStatusChange {
  return create(AuditChanges_VerificationStatusChangeSchema, {
    from: enumOf(VerificationStatusSchema, from),
    to: enumOf(VerificationStatusSchema, to),
  });
}
