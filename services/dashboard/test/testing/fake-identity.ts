import { IdentityService } from '@corridor/contracts/corridor/identity/v1/identity_service_pb';
import { MemberService } from '@corridor/contracts/corridor/identity/v1/member_service_pb';
import { MemberRole, MemberStatus } from '@corridor/contracts/corridor/identity/v1/member_pb';
import {
  createClient,
  notFound,
  registration,
  startGrpcServer,
  unauthenticated,
  type CallerContext,
} from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import type { PageClients } from '../../src/clients.js';

/**
 * identity's IdentityService and MemberService as one real gRPC server on loopback, answering from a
 * small in-memory directory, so the dashboard's specs cross the same wire as production. A spec
 * replaces a method's answer through `answers` and reads what was asked in `calls`.
 */

export const BUSINESS_ID = '4b8f3c2e-0000-4000-8000-00000000b001';
export const OTHER_BUSINESS_ID = '4b8f3c2e-0000-4000-8000-00000000b002';
export const PASSWORD = 'correct horse battery staple';
/** The one TOTP code the fake accepts. */
export const TOTP_CODE = '123456';
export const INVITATION_TOKEN = 'invitation-token-0123456789';
export const CLIENT_ID = `ci_test_${'0'.repeat(31)}1`;
export const OTHER_CLIENT_ID = `ci_test_${'0'.repeat(31)}2`;

const at = (date: Date) => ({ seconds: BigInt(Math.floor(date.getTime() / 1000)), nanos: 0 });
const CREATED = new Date('2026-11-21T09:00:00.000Z');

export interface ReceivedCall {
  method: string;
  request: Record<string, unknown>;
  caller: CallerContext;
}
export type Answer = (request: Record<string, unknown>) => unknown;

const memberIdOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export interface FakeMember {
  id: string;
  businessId: string;
  email: string;
  name: string;
  role: MemberRole;
  status: MemberStatus;
  totpEnabled: boolean;
  createdAt: ReturnType<typeof at>;
}

export const fakeMember = (n: number, role: MemberRole, changes: Partial<FakeMember> = {}): FakeMember => ({
  id: memberIdOf(n),
  businessId: BUSINESS_ID,
  email: `${MemberRole[role].toLowerCase()}${n}@example.com`,
  name: `Member ${n}`,
  role,
  status: MemberStatus.ACTIVE,
  totpEnabled: false,
  createdAt: at(CREATED),
  ...changes,
});

export const credential = (changes: Record<string, unknown> = {}) => ({
  clientId: CLIENT_ID,
  businessId: BUSINESS_ID,
  scopes: ['wallet:read'],
  generation: 1,
  revoked: false,
  createdAt: at(CREATED),
  ...changes,
});

export async function startFakeIdentity() {
  const calls: ReceivedCall[] = [];
  const answers = new Map<string, Answer>();
  /** Members by email; every one's password is PASSWORD. */
  const directory = new Map<string, FakeMember>();
  const add = (member: FakeMember) => directory.set(member.email, member);
  const byId = (id: unknown) => [...directory.values()].find((member) => member.id === id);

  const defaults: Record<string, Answer> = {
    getBusiness: () => ({ business: { id: BUSINESS_ID, name: 'Acme', apiEnabled: true, version: 1n } }),
    updateBusiness: (request) => ({
      business: {
        id: BUSINESS_ID,
        name: 'Acme',
        apiEnabled: true,
        ipAllowlist: (request.ipAllowlist as { entries?: string[] } | undefined)?.entries ?? [],
        version: 2n,
      },
    }),
    listCredentials: () => ({ credentials: [credential()], page: { limit: 50 } }),
    getCredential: (request) => {
      if (request.clientId === CLIENT_ID) return { credential: credential() };
      if (request.clientId === OTHER_CLIENT_ID)
        return { credential: credential({ clientId: OTHER_CLIENT_ID, businessId: OTHER_BUSINESS_ID }) };
      throw notFound('CREDENTIAL_NOT_FOUND', 'no such credentials');
    },
    createCredential: (request) => ({
      credential: credential({ scopes: request.scopes }),
      clientSecret: 'cs_test_shown_once_secret',
    }),
    rotateCredential: () => ({ credential: credential({ generation: 2 }), clientSecret: 'cs_test_rotated_secret' }),
    revokeCredential: () => ({ credential: credential({ revoked: true }) }),
    signIn: (request) => {
      const member = directory.get(String(request.email));
      if (!member || request.password !== PASSWORD || member.status !== MemberStatus.ACTIVE) {
        throw unauthenticated('SIGN_IN_FAILED', 'the email or the password is wrong');
      }
      if (member.totpEnabled && request.totpCode === '') return { member, totpRequired: true };
      if (member.totpEnabled && request.totpCode !== TOTP_CODE) {
        throw unauthenticated('TOTP_FAILED', 'the code is wrong');
      }
      return { member };
    },
    getInvitation: (request) => {
      const invited = request.token === INVITATION_TOKEN ? directory.get('invited@example.com') : undefined;
      if (!invited || invited.status !== MemberStatus.INVITED)
        throw notFound('INVITATION_NOT_FOUND', 'no such invitation');
      return { member: invited, businessName: 'Acme' };
    },
    acceptInvitation: (request) => {
      const invited = directory.get('invited@example.com');
      if (!invited || request.token !== INVITATION_TOKEN) throw notFound('INVITATION_NOT_FOUND', 'no such invitation');
      Object.assign(invited, { name: request.name, status: MemberStatus.ACTIVE });
      return { member: invited };
    },
    enrollTotp: () => ({
      secret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
      otpauthUri: 'otpauth://totp/Corridor:me?secret=JBSWY3DPEHPK3PXPJBSWY3DP',
    }),
    confirmTotp: (request) => {
      const member = byId(request.memberId);
      if (!member || request.code !== TOTP_CODE) throw unauthenticated('TOTP_FAILED', 'the code is wrong');
      member.totpEnabled = true;
      return { member };
    },
    getMember: (request) => {
      const member = byId(request.memberId);
      if (!member || member.businessId !== request.businessId) throw notFound('MEMBER_NOT_FOUND', 'no such member');
      return { member };
    },
    listMembers: (request) => ({
      members: [...directory.values()].filter((member) => member.businessId === request.businessId),
      page: { limit: 100 },
    }),
    inviteMember: (request) => ({
      member: fakeMember(900, request.role as MemberRole, {
        email: String(request.email),
        status: MemberStatus.INVITED,
      }),
      invitationToken: 'sandbox-invitation-token-0001',
    }),
    changeMemberRole: (request) => {
      const member = byId(request.memberId);
      if (!member || member.businessId !== request.businessId) throw notFound('MEMBER_NOT_FOUND', 'no such member');
      member.role = request.role as MemberRole;
      return { member };
    },
    removeMember: (request) => {
      const member = byId(request.memberId);
      if (!member || member.businessId !== request.businessId) throw notFound('MEMBER_NOT_FOUND', 'no such member');
      member.status = MemberStatus.REMOVED;
      return { member };
    },
    recordAudit: (request) => ({ entry: { id: 'audit-1', businessId: request.businessId, action: request.action } }),
    listAudit: () => ({ entries: [], page: { limit: 100 } }),
    requestPasswordReset: () => ({ resetToken: '' }),
    resetPassword: () => {
      throw notFound('RESET_NOT_FOUND', 'no such link');
    },
  };

  const implementationOf = (methods: readonly { localName: string }[]) =>
    Object.fromEntries(
      methods.map(({ localName }) => [
        localName,
        async (request: Record<string, unknown>, context: { caller: CallerContext }) => {
          calls.push({ method: localName, request, caller: context.caller });
          const answer = answers.get(localName) ?? defaults[localName];
          if (!answer) throw new Error(`the fake identity does not answer ${localName}`);
          return answer(request);
        },
      ]),
    );
  const server = await startGrpcServer({
    address: '127.0.0.1:0',
    services: [
      registration(IdentityService, implementationOf(IdentityService.methods) as never),
      registration(MemberService, implementationOf(MemberService.methods) as never),
    ],
    logger: createLogger('test', { level: 'silent' }),
  });
  const address = `127.0.0.1:${server.port}`;
  const clients: Pick<PageClients, 'identity' | 'members'> = {
    identity: createClient(IdentityService, { address }),
    members: createClient(MemberService, { address }),
  };
  return {
    clients,
    calls,
    answers,
    directory,
    add,
    /** Calls of one method, in order. */
    callsOf: (method: string) => calls.filter((call) => call.method === method),
    reset() {
      calls.length = 0;
      answers.clear();
      directory.clear();
    },
    async stop() {
      clients.identity.close();
      clients.members.close();
      await server.shutdown(1_000);
    },
  };
}

export type FakeIdentity = Awaited<ReturnType<typeof startFakeIdentity>>;
