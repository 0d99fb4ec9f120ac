import { MemberService } from '@corridor/contracts/corridor/identity/v1/member_service_pb';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { MikroORM } from '@corridor/db';
import { registration } from '@corridor/grpc';
import { listAudit } from '../audit/audit-log.js';
import { acceptInvitation, getInvitation, inviteMember } from './invite-member.js';
import { changeMemberRole, removeMember } from './manage-members.js';
import type { MembersContext } from './members-context.js';
import { requestPasswordReset, resetPassword } from './password-reset.js';
import { getMember, listMembers } from './read-members.js';
import { recordAudit } from './record-audit.js';
import { signIn } from './sign-in.js';
import { confirmTotp, enrollTotp } from './totp.js';

/** The gRPC edge of the members capability: thin, one fork of the entity manager per call. */
export function memberServiceRegistration({ orm, context }: { orm: MikroORM; context: MembersContext }) {
  const em = () => orm.em.fork();
  return registration(MemberService, {
    async inviteMember(request) {
      const invitation = await inviteMember(em(), context, {
        businessId: request.businessId,
        email: request.email,
        role: request.role,
        actor: request.actor,
      });
      return { ...invitation, expiresAt: timestampFromDate(invitation.expiresAt) };
    },
    async getInvitation(request) {
      return getInvitation(em(), context, request.token);
    },
    async acceptInvitation(request) {
      return { member: await acceptInvitation(em(), context, request) };
    },
    async enrollTotp(request) {
      return enrollTotp(em(), context, request.memberId);
    },
    async confirmTotp(request) {
      return { member: await confirmTotp(em(), context, request) };
    },
    async signIn(request) {
      return signIn(em(), context, request);
    },
    async requestPasswordReset(request) {
      return requestPasswordReset(em(), context, request);
    },
    async resetPassword(request) {
      return { member: await resetPassword(em(), context, request) };
    },
    async getMember(request) {
      return { member: await getMember(em(), request.businessId, request.memberId) };
    },
    async listMembers(request) {
      return listMembers(em(), request.businessId, request.page);
    },
    async changeMemberRole(request) {
      return { member: await changeMemberRole(em(), context, request) };
    },
    async removeMember(request) {
      return { member: await removeMember(em(), context, request) };
    },
    async recordAudit(request) {
      return { entry: await recordAudit(em(), context, request) };
    },
    async listAudit(request) {
      return listAudit(em(), request.businessId, request.page);
    },
  });
}
