import type { Member as MemberMessage } from '@corridor/contracts/corridor/identity/v1/member_pb';
import type { CursorPage } from '@corridor/contracts/corridor/pagination/v1/cursor_pb';
import { dateOf, sql } from '@corridor/db';
import { keysetPage, keysetRead } from '@corridor/pagination';
import { notFound } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { Business } from '../businesses/business.entity.js';
import { memberNotFound, toMemberMessage } from './member-message.js';
import { Member } from './member.entity.js';

/** One member of the business; another business's member is NOT_FOUND like a missing one. */
export async function getMember(em: EntityManager, businessId: string, memberId: string): Promise<MemberMessage> {
  const member = isUuid(businessId) && isUuid(memberId) ? await em.findOne(Member, { id: memberId, businessId }) : null;
  if (!member) throw memberNotFound(memberId);
  return toMemberMessage(member);
}

/** The business's members (removed ones too, for the record), newest first, in keyset pages. */
export async function listMembers(
  em: EntityManager,
  businessId: string,
  page: { cursor: string; limit: number } | undefined,
): Promise<{ members: MemberMessage[]; page: Omit<CursorPage, '$typeName'> }> {
  const read = keysetRead(page);
  // An unknown business is told apart from one without members (the admin API's 404).
  const business = isUuid(businessId) ? await em.findOne(Business, { id: businessId }) : null;
  if (!business) throw notFound('BUSINESS_NOT_FOUND', `business ${businessId} not found`);
  const rows = await sql<{ id: string; created_at: Date }>(
    em,
    `select id, created_at from member where business_id = ? ${read.seek ? `and ${read.seek}` : ''}
      order by ${read.order} limit ?`,
    [businessId, ...read.seekParams, read.limit + 1],
  );
  const listed = keysetPage(rows, read, (row) => ({ createdAt: dateOf(row.created_at), id: row.id }));
  const members = await em.find(Member, { id: { $in: listed.rows.map((row) => row.id) } });
  const byId = new Map(members.map((member) => [member.id, member]));
  return {
    members: listed.rows.flatMap((row) => {
      const member = byId.get(row.id);
      return member ? [toMemberMessage(member)] : [];
    }),
    page: { nextCursor: listed.nextCursor, previousCursor: listed.previousCursor, limit: listed.limit },
  };
}
