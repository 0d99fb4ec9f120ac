import type { Member as MemberMessage, MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { sql } from '@corridor/db';
import { failedPrecondition, permissionDenied } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { recordAuditEntry } from '../audit/audit-log.js';
import { actingFor, MANAGERS, mayTouchOwners, type Acting } from './actors.js';
import { memberNotFound, roleName, toMemberMessage } from './member-message.js';
import { Member, type MemberRoleName, type MemberStatusName } from './member.entity.js';
import type { ActorInput, MembersContext } from './members-context.js';

interface MemberChange {
  businessId: string;
  memberId: string;
  actor?: ActorInput;
}

/**
 * The business's live members locked FOR UPDATE in one order (by id): two changes that could each
 * take away an owner run one after the other, and the second sees the first's result.
 */
async function lockBusinessMembers(tx: EntityManager, businessId: string) {
  return sql<{ id: string; role: MemberRoleName; status: MemberStatusName }>(
    tx,
    `select id, role, status from member where business_id = ? and status <> 'removed' order by id for update`,
    [businessId],
  );
}

type LiveMember = Awaited<ReturnType<typeof lockBusinessMembers>>[number];

/** FAILED_PRECONDITION when the change would leave the business with no active owner. */
function keepAnOwner(live: readonly LiveMember[], memberId: string, stillOwner: boolean): void {
  const target = live.find((member) => member.id === memberId);
  if (!target || target.status !== 'active' || target.role !== 'owner' || stillOwner) return;
  const otherOwners = live.filter((m) => m.id !== target.id && m.status === 'active' && m.role === 'owner');
  if (otherOwners.length === 0) {
    throw failedPrecondition(
      'LAST_OWNER',
      'this is the business’s last active owner: make another member an owner first',
    );
  }
}

/** The member to change and who changes it, read once the business's members are locked. */
async function lockedChange(
  tx: EntityManager,
  change: MemberChange,
  what: string,
): Promise<{ member: Member; acting: Acting; live: LiveMember[] }> {
  if (!isUuid(change.businessId) || !isUuid(change.memberId)) throw memberNotFound(change.memberId);
  const live = await lockBusinessMembers(tx, change.businessId);
  const acting = await actingFor(tx, change.businessId, change.actor, MANAGERS, what);
  const member = await tx.findOne(Member, { id: change.memberId, businessId: change.businessId });
  if (!member) throw memberNotFound(change.memberId);
  if (member.status === 'removed') {
    throw failedPrecondition('MEMBER_REMOVED', `member ${member.id} was removed and cannot be changed`);
  }
  return { member, acting, live };
}

/** Gives a member another role; only an owner makes or unmakes an owner. */
export async function changeMemberRole(
  em: EntityManager,
  context: MembersContext,
  input: MemberChange & { role: MemberRole },
): Promise<MemberMessage> {
  const role = roleName(input.role);
  return em.transactional(async (tx) => {
    const { member, acting, live } = await lockedChange(tx, input, 'change roles');
    if ((member.role === 'owner' || role === 'owner') && !mayTouchOwners(acting)) {
      throw permissionDenied('OWNER_ONLY', 'only an owner may make someone an owner or change an owner’s role');
    }
    keepAnOwner(live, member.id, role === 'owner');
    if (member.role === role) return toMemberMessage(member);
    const previous = member.role;
    member.role = role;
    recordAuditEntry(tx, {
      businessId: member.businessId,
      actor: acting.audit,
      action: 'member.role_changed',
      target: member.id,
      details: `${member.email}: ${previous} → ${role}`,
      at: context.now(),
    });
    return toMemberMessage(member);
  });
}

/** Removes a member for good (kept for the audit log); they can never sign in again. */
export async function removeMember(
  em: EntityManager,
  context: MembersContext,
  input: MemberChange,
): Promise<MemberMessage> {
  return em.transactional(async (tx) => {
    const { member, acting, live } = await lockedChange(tx, input, 'remove members');
    if (member.role === 'owner' && !mayTouchOwners(acting)) {
      throw permissionDenied('OWNER_ONLY', 'only an owner may remove an owner');
    }
    keepAnOwner(live, member.id, false);
    member.status = 'removed';
    // Open invitation or reset links die with the membership.
    await sql(tx, `update member_token set used_at = ? where member_id = ? and used_at is null`, [
      context.now(),
      member.id,
    ]);
    recordAuditEntry(tx, {
      businessId: member.businessId,
      actor: acting.audit,
      action: 'member.removed',
      target: member.id,
      details: `${member.email} (${member.role}) removed`,
      at: context.now(),
    });
    return toMemberMessage(member);
  });
}
