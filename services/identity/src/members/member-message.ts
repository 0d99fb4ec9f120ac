import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  MemberRole,
  MemberSchema,
  MemberStatus,
  type Member as MemberMessage,
} from '@corridor/contracts/corridor/identity/v1/member_pb';
import { invalidArgument, notFound } from '@corridor/grpc';
import { MEMBER_ROLES, type Member, type MemberRoleName, type MemberStatusName } from './member.entity.js';

const ROLE_OF_NAME: Record<MemberRoleName, MemberRole> = {
  owner: MemberRole.OWNER,
  admin: MemberRole.ADMIN,
  developer: MemberRole.DEVELOPER,
  viewer: MemberRole.VIEWER,
};

const STATUS_OF_NAME: Record<MemberStatusName, MemberStatus> = {
  invited: MemberStatus.INVITED,
  active: MemberStatus.ACTIVE,
  removed: MemberStatus.REMOVED,
};

/** The stored name of a requested role; INVALID_ARGUMENT naming `role` when none was chosen. */
export function roleName(role: MemberRole): MemberRoleName {
  const found = MEMBER_ROLES.find((name) => ROLE_OF_NAME[name] === role);
  if (!found) {
    throw invalidArgument('role must be one of owner, admin, developer, viewer', {
      role: ['must be one of owner, admin, developer, viewer'],
    });
  }
  return found;
}

/** The member as the contract shows it: never the password hash or a TOTP secret. */
export function toMemberMessage(member: Member): MemberMessage {
  return create(MemberSchema, {
    id: member.id,
    businessId: member.businessId,
    email: member.email,
    name: member.name,
    role: ROLE_OF_NAME[member.role],
    status: STATUS_OF_NAME[member.status],
    totpEnabled: member.totpEnabled,
    createdAt: timestampFromDate(member.createdAt),
    lastSignInAt: member.lastSignInAt ? timestampFromDate(member.lastSignInAt) : undefined,
  });
}

export const memberNotFound = (memberId: string) => notFound('MEMBER_NOT_FOUND', `member ${memberId} not found`);
