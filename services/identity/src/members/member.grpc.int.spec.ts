import { timestampDate } from '@bufbuild/protobuf/wkt';
import { MemberRole, MemberStatus } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { MemberService } from '@corridor/contracts/corridor/identity/v1/member_service_pb';
import {
  createClient,
  fromServiceError,
  startGrpcServer,
  Status,
  type ClientOf,
  type RunningGrpcServer,
} from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import { integrationDatabase } from '@corridor/testing';
import { createBusiness } from '../businesses/create-business.js';
import { identityDatabase } from '../database.js';
import { IdentitySecrets } from '../secrets/identity-secrets.js';
import { memberServiceRegistration } from './member.grpc.js';
import type { MembersContext } from './members-context.js';

/** The gRPC edge as identity serves it: the wire types and the statuses with their reasons. */
describe('identity: MemberService over gRPC (real PostgreSQL)', () => {
  const database = integrationDatabase('identity', identityDatabase);
  let server: RunningGrpcServer;
  let members: ClientOf<typeof MemberService>;
  const now = new Date('2026-11-28T15:00:00.000Z');
  const context: MembersContext = {
    environment: 'sandbox',
    topic: 'test.corridor.identity.v1',
    now: () => new Date(now.getTime()),
    secrets: new IdentitySecrets('g'.repeat(64)),
    dashboardUrl: 'http://127.0.0.1:8090',
  };

  beforeAll(async () => {
    server = await startGrpcServer({
      address: '127.0.0.1:0',
      services: [memberServiceRegistration({ orm: database.orm, context })],
      logger: createLogger('identity-member-grpc-spec', { level: 'silent' }),
    });
    members = createClient(MemberService, { address: `127.0.0.1:${server.port}` });
  });

  afterAll(async () => {
    members.close();
    await server.shutdown(1_000);
  });

  it('invites, accepts and signs in across the wire; refusals carry their status and reason', async () => {
    const business = await createBusiness(database.em(), context, { name: 'Wire Co' });
    const invited = await members.inviteMember({
      businessId: business.id,
      email: 'wire@example.com',
      role: MemberRole.OWNER,
    });
    expect(invited.member).toMatchObject({ email: 'wire@example.com', status: MemberStatus.INVITED });
    expect(invited.expiresAt && timestampDate(invited.expiresAt)).toEqual(new Date(now.getTime() + 72 * 3600_000));

    const shown = await members.getInvitation({ token: invited.invitationToken });
    expect(shown.businessName).toBe('Wire Co');
    await members.acceptInvitation({ token: invited.invitationToken, name: 'Wire', password: 'a long enough pass 1' });

    const signedIn = await members.signIn({
      email: 'WIRE@example.com',
      password: 'a long enough pass 1',
      totpCode: '',
      address: '127.0.0.1',
    });
    expect(signedIn).toMatchObject({ totpRequired: false, member: { status: MemberStatus.ACTIVE } });

    const wrong = await members
      .signIn({ email: 'wire@example.com', password: 'not the password 1', totpCode: '', address: '' })
      .catch((error: unknown) => fromServiceError(error));
    expect(wrong).toMatchObject({
      status: Status.UNAUTHENTICATED,
      reason: 'SIGN_IN_FAILED',
      message: 'email or password is wrong',
    });

    const listed = await members.listMembers({ businessId: business.id, page: { cursor: '', limit: 10 } });
    expect(listed.members.map((m) => m.email)).toEqual(['wire@example.com']);
    const audit = await members.listAudit({ businessId: business.id });
    expect(audit.entries.map((e) => e.action).sort()).toEqual(['member.invited', 'member.joined']);
  });
});
