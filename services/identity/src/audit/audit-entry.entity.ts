import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** One change to a business's members, credentials or webhooks, for its owners' audit log. */
export const AuditEntry = defineEntity({
  name: 'AuditEntry',
  tableName: 'audit_entry',
  properties: {
    id: p.uuid().primary(),
    businessId: p.uuid(),
    actorMemberId: p.uuid().nullable(),
    actorEmail: p.text(),
    actorAddress: p.text(),
    action: p.text(),
    target: p.text(),
    details: p.text(),
    createdAt: p.datetime(),
  },
});
export type AuditEntry = InferEntity<typeof AuditEntry>;
