import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { Actor } from '../context.js';
import type { Customer } from '../customers/customer.entity.js';
import { AuditEntry } from './audit-entry.entity.js';

/** Adds an audit entry to the unit of work of `tx`: it commits with the change it describes. */
export function recordAudit(
  tx: EntityManager,
  actor: Actor,
  customer: Customer,
  action: string,
  changes: Record<string, unknown>,
  occurredAt: Date,
): void {
  tx.create(AuditEntry, {
    id: randomUUID(),
    customerId: customer.id,
    businessId: customer.businessId,
    action,
    actor: actor.name,
    requestId: actor.requestId ?? null,
    changes,
    occurredAt,
  });
}

/** `{field: {from, to}}` for each field whose value differs (absent and null read as null). */
export function fieldChanges(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    if (from !== to) changes[key] = { from, to };
  }
  return changes;
}
