import { randomUUID } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  AuditEntrySchema,
  type AuditEntry as AuditEntryMessage,
} from '@corridor/contracts/corridor/identity/v1/member_pb';
import type { CursorPage } from '@corridor/contracts/corridor/pagination/v1/cursor_pb';
import { dateOf, sql } from '@corridor/db';
import { keysetPage, keysetRead } from '@corridor/pagination';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { AuditEntry } from './audit-entry.entity.js';

/** Who made a change, as the audit log names them: a member, or the back office (memberId null). */
export interface AuditActor {
  memberId: string | null;
  email: string;
  address: string;
}

export const BACK_OFFICE: AuditActor = { memberId: null, email: '', address: '' };

export interface AuditChange {
  businessId: string;
  actor: AuditActor;
  /** e.g. member.invited, credential.created */
  action: string;
  target: string;
  /** A short sentence, never a secret. */
  details: string;
  at: Date;
}

type AuditEntryFields = Pick<
  AuditEntry,
  'id' | 'businessId' | 'actorMemberId' | 'actorEmail' | 'actorAddress' | 'action' | 'target' | 'details' | 'createdAt'
>;

export function toAuditEntryMessage(entry: AuditEntryFields): AuditEntryMessage {
  return create(AuditEntrySchema, {
    id: entry.id,
    businessId: entry.businessId,
    actorMemberId: entry.actorMemberId ?? '',
    actorEmail: entry.actorEmail,
    actorAddress: entry.actorAddress,
    action: entry.action,
    target: entry.target,
    details: entry.details,
    createdAt: timestampFromDate(entry.createdAt),
  });
}

/** Adds the entry to the unit of work of `tx`: it commits with the change it describes, or not at all. */
export function recordAuditEntry(tx: EntityManager, change: AuditChange): AuditEntry {
  return tx.create(AuditEntry, {
    id: randomUUID(),
    businessId: change.businessId,
    actorMemberId: change.actor.memberId,
    actorEmail: change.actor.email,
    actorAddress: change.actor.address,
    action: change.action,
    target: change.target,
    details: change.details,
    createdAt: change.at,
  });
}

interface AuditRow {
  id: string;
  business_id: string;
  actor_member_id: string | null;
  actor_email: string;
  actor_address: string;
  action: string;
  target: string;
  details: string;
  created_at: Date;
}

/** The business's audit log, newest first, in keyset pages (audit_entry_business_page_idx). */
export async function listAudit(
  em: EntityManager,
  businessId: string,
  page: { cursor: string; limit: number } | undefined,
): Promise<{ entries: AuditEntryMessage[]; page: Omit<CursorPage, '$typeName'> }> {
  const read = keysetRead(page);
  if (!isUuid(businessId)) return { entries: [], page: { limit: read.limit } };
  const rows = await sql<AuditRow>(
    em,
    `select * from audit_entry where business_id = ? ${read.seek ? `and ${read.seek}` : ''}
      order by ${read.order} limit ?`,
    [businessId, ...read.seekParams, read.limit + 1],
  );
  const listed = keysetPage(rows, read, (row) => ({ createdAt: dateOf(row.created_at), id: row.id }));
  return {
    entries: listed.rows.map((row) =>
      toAuditEntryMessage({
        id: row.id,
        businessId: row.business_id,
        actorMemberId: row.actor_member_id,
        actorEmail: row.actor_email,
        actorAddress: row.actor_address,
        action: row.action,
        target: row.target,
        details: row.details,
        createdAt: dateOf(row.created_at),
      }),
    ),
    page: { nextCursor: listed.nextCursor, previousCursor: listed.previousCursor, limit: listed.limit },
  };
}
