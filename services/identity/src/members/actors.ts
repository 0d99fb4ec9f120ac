import { permissionDenied } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { BACK_OFFICE, type AuditActor } from '../audit/audit-log.js';
import { Member, type MemberRoleName } from './member.entity.js';
import type { ActorInput } from './members-context.js';

/** Who is acting: the back office (any change), or an active member of the business with a role. */
export interface Acting {
  audit: AuditActor;
  /** 'back-office' may do everything a member may, and invite a business's first owner. */
  role: MemberRoleName | 'back-office';
}

export const MANAGERS: readonly MemberRoleName[] = ['owner', 'admin'];

/**
 * The actor of a change, checked to be an active member of the business with one of `roles`;
 * PERMISSION_DENIED otherwise (a member of another business too: it may not act here).
 */
export async function actingFor(
  em: EntityManager,
  businessId: string,
  actor: ActorInput | undefined,
  roles: readonly MemberRoleName[],
  what: string,
): Promise<Acting> {
  if (!actor) return { audit: BACK_OFFICE, role: 'back-office' };
  const member = isUuid(actor.memberId)
    ? await em.findOne(Member, { id: actor.memberId, businessId, status: 'active' })
    : null;
  if (!member || !roles.includes(member.role)) {
    throw permissionDenied('MEMBER_NOT_ALLOWED', `only an active ${roles.join(' or ')} of this business may ${what}`);
  }
  return { audit: { memberId: member.id, email: member.email, address: actor.address }, role: member.role };
}

/** Only an owner (or the back office) makes someone an owner or changes an owner. */
export function mayTouchOwners(acting: Acting): boolean {
  return acting.role === 'back-office' || acting.role === 'owner';
}
