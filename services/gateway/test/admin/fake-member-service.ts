import { MemberRole, MemberStatus } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { MemberService } from '@corridor/contracts/corridor/identity/v1/member_service_pb';
import { startFakeGrpcService, type Answer } from '@corridor/testing';
import { BUSINESS_ID, CREATED } from './fake-identity-service.js';

export const MEMBER_ID = '4b8f3c2e-0000-4000-8000-00000000a001';
export const INVITATION_TOKEN = 'i'.repeat(43);
export const EXPIRES = new Date(CREATED.getTime() + 72 * 3600_000);

const at = (date: Date) => ({ seconds: BigInt(date.getTime() / 1000), nanos: 0 });

/** A member as identity answers it; `changes` in the proto's camelCase. */
export const member = (changes: Record<string, unknown> = {}) => ({
  id: MEMBER_ID,
  businessId: BUSINESS_ID,
  email: 'owner@acme.test',
  name: '',
  role: MemberRole.OWNER,
  status: MemberStatus.INVITED,
  totpEnabled: false,
  createdAt: at(CREATED),
  ...changes,
});

/** identity's MemberService answering canned members, for the admin route specs. */
export function startFakeMemberService() {
  const defaults: Record<string, Answer> = {
    inviteMember: (request) => ({
      member: member({ email: String(request.email).toLowerCase(), role: request.role }),
      invitationToken: INVITATION_TOKEN,
      expiresAt: at(EXPIRES),
    }),
    listMembers: () => ({
      members: [member({ status: MemberStatus.ACTIVE, name: 'Ada', lastSignInAt: at(CREATED) })],
      page: { limit: 15, nextCursor: 'bmV4dA' },
    }),
  };
  return startFakeGrpcService(MemberService, (method) => {
    const answer = defaults[method];
    if (!answer) throw new Error(`the fake member service does not answer ${method}`);
    return answer;
  });
}
