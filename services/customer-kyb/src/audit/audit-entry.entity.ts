import type { JsonObject } from '@bufbuild/protobuf';
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Who changed a customer, when, and what changed; written in the change's own transaction. */
export const AuditEntry = defineEntity({
  name: 'AuditEntry',
  tableName: 'customer_audit',
  properties: {
    id: p.uuid().primary(),
    customerId: p.uuid(),
    businessId: p.uuid(),
    action: p.text(),
    actor: p.text(),
    requestId: p.text().nullable(),
    // AuditChanges as the admin API answers it (auditChangesJson); rows of every release read back typed.
    changes: p.json<JsonObject>(),
    occurredAt: p.datetime(),
  },
});
export type AuditEntry = InferEntity<typeof AuditEntry>;
