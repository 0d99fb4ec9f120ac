import { MemberRole, MemberStatus } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { type DomainError, Status } from '@corridor/grpc';
import { integrationDatabase, query } from '@corridor/testing';
import { Secret, TOTP } from 'otpauth';
import { listAudit } from '../audit/audit-log.js';
import { createBusiness } from '../businesses/create-business.js';
import { identityDatabase } from '../database.js';
import { IdentitySecrets } from '../secrets/identity-secrets.js';
import { acceptInvitation, getInvitation, inviteMember } from './invite-member.js';
import { changeMemberRole, removeMember } from './manage-members.js';
import type { MembersContext } from './members-context.js';
import { requestPasswordReset, resetPassword } from './password-reset.js';
import { getMember, listMembers } from './read-members.js';
import { recordAudit } from './record-audit.js';
import { signIn } from './sign-in.js';
import { confirmTotp, enrollTotp } from './totp.js';

const PASSWORD = 'correct horse battery 9';
const START = new Date('2026-11-28T10:00:00.000Z');
const dateOf = (timestamp: Timestamp | undefined) => (timestamp ? timestampDate(timestamp) : undefined);

describe('identity: dashboard members (real PostgreSQL)', () => {
  const database = integrationDatabase('identity', identityDatabase);
  let now = START;
  const context: MembersContext = {
    environment: 'sandbox',
    topic: 'test.corridor.identity.v1',
    now: () => new Date(now.getTime()),
    secrets: new IdentitySecrets('m'.repeat(64)),
    dashboardUrl: 'http://dashboard.test',
  };
  const { em } = database;
  let emails = 0;
  const newEmail = () => `Person${++emails}@Example.com`;
  const newBusiness = async (name = 'Acme') => (await createBusiness(em(), context, { name })).id;

  /** An active member (invited by the back office, invitation accepted). */
  async function activeMember(businessId: string, role = MemberRole.OWNER) {
    const email = newEmail();
    const invitation = await inviteMember(em(), context, { businessId, email, role });
    const member = await acceptInvitation(em(), context, {
      token: invitation.invitationToken,
      name: 'Ada Lovelace',
      password: PASSWORD,
    });
    return { ...member, email: email.toLowerCase() };
  }

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a failure');
      },
      (error: unknown) => error as DomainError,
    );

  beforeAll(async () => {});

  beforeEach(() => {
    now = START;
  });

  describe('invitations', () => {
    it('invites, shows and accepts once; the password is stored as argon2id and the link as a SHA-256', async () => {
      const businessId = await newBusiness('Invitations Co');
      const invitation = await inviteMember(em(), context, {
        businessId,
        email: '  Grace.Hopper@Example.COM ',
        role: MemberRole.ADMIN,
      });
      expect(invitation.member).toMatchObject({
        businessId,
        email: 'grace.hopper@example.com',
        role: MemberRole.ADMIN,
        status: MemberStatus.INVITED,
        totpEnabled: false,
      });
      expect(invitation.invitationToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(invitation.expiresAt).toEqual(new Date(START.getTime() + 72 * 3600_000));

      const [token] = await query<{ token_hash: Buffer; kind: string }>(
        database.url,
        'select token_hash, kind from member_token where member_id = $1',
        [invitation.member.id],
      );
      expect(token?.kind).toBe('invitation');
      expect(token?.token_hash.length).toBe(32);
      expect(token?.token_hash.toString('latin1')).not.toContain(invitation.invitationToken);

      now = new Date(START.getTime() + 60_000);
      const shown = await getInvitation(em(), context, invitation.invitationToken);
      expect(shown).toMatchObject({ businessName: 'Invitations Co', member: { id: invitation.member.id } });

      const accepted = await acceptInvitation(em(), context, {
        token: invitation.invitationToken,
        name: ' Grace Hopper ',
        password: PASSWORD,
      });
      expect(accepted).toMatchObject({ name: 'Grace Hopper', status: MemberStatus.ACTIVE });
      const [row] = await query<{ password_hash: string }>(
        database.url,
        'select password_hash from member where id = $1',
        [accepted.id],
      );
      expect(row?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

      const again = await failure(
        acceptInvitation(em(), context, { token: invitation.invitationToken, name: 'Mallory', password: PASSWORD }),
      );
      expect(again).toMatchObject({ status: Status.NOT_FOUND, reason: 'INVITATION_NOT_FOUND' });
      await expect(getInvitation(em(), context, invitation.invitationToken)).rejects.toMatchObject({
        status: Status.NOT_FOUND,
      });

      const audit = await listAudit(em(), businessId, undefined);
      expect(audit.entries.map((entry) => entry.action)).toEqual(['member.joined', 'member.invited']);
      expect(audit.entries[1]).toMatchObject({ actorMemberId: '', target: invitation.member.id });
    });

    it('two acceptances of one link at once: exactly one wins', async () => {
      const businessId = await newBusiness();
      const invitation = await inviteMember(em(), context, { businessId, email: newEmail(), role: MemberRole.OWNER });
      const results = await Promise.allSettled(
        [1, 2].map((n) =>
          acceptInvitation(em(), context, { token: invitation.invitationToken, name: `N${n}`, password: PASSWORD }),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    });

    it('expires after 72 hours; inviting again sends a new link and voids the older one', async () => {
      const businessId = await newBusiness();
      const email = newEmail();
      const first = await inviteMember(em(), context, { businessId, email, role: MemberRole.VIEWER });
      now = new Date(START.getTime() + 72 * 3600_000 + 1_000);
      await expect(getInvitation(em(), context, first.invitationToken)).rejects.toMatchObject({
        reason: 'INVITATION_NOT_FOUND',
      });
      await expect(
        acceptInvitation(em(), context, { token: first.invitationToken, name: 'Late', password: PASSWORD }),
      ).rejects.toMatchObject({ status: Status.NOT_FOUND });

      now = START;
      const second = await inviteMember(em(), context, { businessId, email, role: MemberRole.VIEWER });
      const third = await inviteMember(em(), context, { businessId, email, role: MemberRole.DEVELOPER });
      expect(third.member.id).toBe(second.member.id);
      expect(third.member.role).toBe(MemberRole.DEVELOPER);
      await expect(getInvitation(em(), context, second.invitationToken)).rejects.toMatchObject({
        status: Status.NOT_FOUND,
      });
      await expect(getInvitation(em(), context, third.invitationToken)).resolves.toMatchObject({
        member: { id: second.member.id },
      });
      const mails = await query<{ recipient: string; text: string }>(
        database.url,
        'select recipient, text from mail where recipient = $1 order by created_at',
        [email.toLowerCase()],
      );
      expect(mails).toHaveLength(3);
      expect(mails[2]?.text).toContain(`http://dashboard.test/invitation/${third.invitationToken}`);
    });

    it('refuses an email that is already a member, here or in another business, and an unknown business', async () => {
      const businessId = await newBusiness();
      const member = await activeMember(businessId);
      await expect(
        inviteMember(em(), context, { businessId, email: member.email.toUpperCase(), role: MemberRole.VIEWER }),
      ).rejects.toMatchObject({ status: Status.ALREADY_EXISTS, reason: 'MEMBER_EXISTS' });
      const other = await newBusiness('Other');
      await expect(
        inviteMember(em(), context, { businessId: other, email: member.email, role: MemberRole.VIEWER }),
      ).rejects.toMatchObject({ status: Status.ALREADY_EXISTS });
      await expect(
        inviteMember(em(), context, {
          businessId: '00000000-0000-4000-8000-000000000000',
          email: newEmail(),
          role: MemberRole.OWNER,
        }),
      ).rejects.toMatchObject({ status: Status.NOT_FOUND, reason: 'BUSINESS_NOT_FOUND' });
      await expect(
        inviteMember(em(), context, { businessId, email: 'not an email', role: MemberRole.OWNER }),
      ).rejects.toMatchObject({ status: Status.INVALID_ARGUMENT, fieldErrors: { email: expect.any(Array) } });
    });

    it('a member inviting must be an active owner or admin; only an owner invites an owner', async () => {
      const businessId = await newBusiness();
      const owner = await activeMember(businessId, MemberRole.OWNER);
      const admin = await activeMember(businessId, MemberRole.ADMIN);
      const developer = await activeMember(businessId, MemberRole.DEVELOPER);
      const actor = (memberId: string) => ({ memberId, address: '203.0.113.7' });

      await expect(
        inviteMember(em(), context, {
          businessId,
          email: newEmail(),
          role: MemberRole.VIEWER,
          actor: actor(developer.id),
        }),
      ).rejects.toMatchObject({ status: Status.PERMISSION_DENIED, reason: 'MEMBER_NOT_ALLOWED' });
      await expect(
        inviteMember(em(), context, { businessId, email: newEmail(), role: MemberRole.OWNER, actor: actor(admin.id) }),
      ).rejects.toMatchObject({ status: Status.PERMISSION_DENIED, reason: 'OWNER_ONLY' });
      const byAdmin = await inviteMember(em(), context, {
        businessId,
        email: newEmail(),
        role: MemberRole.DEVELOPER,
        actor: actor(admin.id),
      });
      expect(byAdmin.member.status).toBe(MemberStatus.INVITED);
      now = new Date(START.getTime() + 1_000);
      await inviteMember(em(), context, {
        businessId,
        email: newEmail(),
        role: MemberRole.OWNER,
        actor: actor(owner.id),
      });

      // A member of another business may not act here.
      const elsewhere = await activeMember(await newBusiness('Elsewhere'), MemberRole.OWNER);
      await expect(
        inviteMember(em(), context, {
          businessId,
          email: newEmail(),
          role: MemberRole.VIEWER,
          actor: actor(elsewhere.id),
        }),
      ).rejects.toMatchObject({ status: Status.PERMISSION_DENIED });

      const audit = await listAudit(em(), businessId, undefined);
      expect(audit.entries[0]).toMatchObject({
        action: 'member.invited',
        actorMemberId: owner.id,
        actorEmail: owner.email,
        actorAddress: '203.0.113.7',
      });
    });

    it('states the password rule when a password breaks it', async () => {
      const businessId = await newBusiness();
      const invitation = await inviteMember(em(), context, { businessId, email: newEmail(), role: MemberRole.OWNER });
      for (const password of ['short1A', 'alllowercaseletters', '1234567890123', 'x'.repeat(129) + 'A1']) {
        const error = await failure(
          acceptInvitation(em(), context, { token: invitation.invitationToken, name: 'A', password }),
        );
        expect(error).toMatchObject({ status: Status.INVALID_ARGUMENT, reason: 'WEAK_PASSWORD' });
        expect(error.message).toContain('12 to 128 characters');
      }
      // The link was not used up by the refused attempts.
      await expect(getInvitation(em(), context, invitation.invitationToken)).resolves.toBeDefined();
    });
  });

  describe('sign-in', () => {
    it('answers the same for an unknown email, a wrong password and an invited member', async () => {
      const businessId = await newBusiness();
      const member = await activeMember(businessId);
      const invited = await inviteMember(em(), context, { businessId, email: newEmail(), role: MemberRole.VIEWER });
      const attempts = await Promise.all([
        failure(signIn(em(), context, { email: 'nobody@example.com', password: PASSWORD, totpCode: '' })),
        failure(signIn(em(), context, { email: member.email, password: 'wrong password 1', totpCode: '' })),
        failure(signIn(em(), context, { email: invited.member.email, password: PASSWORD, totpCode: '' })),
      ]);
      for (const error of attempts) {
        expect(error).toMatchObject({ status: Status.UNAUTHENTICATED, message: 'email or password is wrong' });
      }
      const signedIn = await signIn(em(), context, {
        email: member.email.toUpperCase(),
        password: PASSWORD,
        totpCode: '',
      });
      expect(signedIn.totpRequired).toBe(false);
      expect(dateOf(signedIn.member?.lastSignInAt)).toEqual(START);
      expect((await getMember(em(), businessId, member.id)).lastSignInAt).toBeDefined();
    });

    it('locks an email for 15 minutes after 5 failures in a row and says until when', async () => {
      const businessId = await newBusiness();
      const member = await activeMember(businessId);
      const wrong = () =>
        failure(signIn(em(), context, { email: member.email, password: 'wrong password 1', totpCode: '' }));
      for (let n = 1; n <= 4; n++) expect((await wrong()).status).toBe(Status.UNAUTHENTICATED);
      const locked = await wrong();
      const until = new Date(START.getTime() + 15 * 60_000);
      expect(locked).toMatchObject({ status: Status.RESOURCE_EXHAUSTED, reason: 'SIGN_IN_LOCKED' });
      expect(locked.message).toContain(until.toISOString());
      expect(locked.message).toContain('in 15 minutes');

      now = new Date(START.getTime() + 10 * 60_000);
      const stillLocked = await failure(
        signIn(em(), context, { email: member.email, password: PASSWORD, totpCode: '' }),
      );
      expect(stillLocked.status).toBe(Status.RESOURCE_EXHAUSTED);
      expect(stillLocked.message).toContain('in 5 minutes');

      now = new Date(until.getTime() + 1_000);
      await expect(
        signIn(em(), context, { email: member.email, password: PASSWORD, totpCode: '' }),
      ).resolves.toMatchObject({
        totpRequired: false,
      });
      const [row] = await query<{ failed_sign_ins: number }>(
        database.url,
        'select failed_sign_ins from member where id = $1',
        [member.id],
      );
      expect(row?.failed_sign_ins).toBe(0);
    });

    it('TOTP: enrolled, confirmed with a real code, then asked for at sign-in', async () => {
      const businessId = await newBusiness();
      const member = await activeMember(businessId);
      const enrolled = await enrollTotp(em(), context, member.id);
      expect(enrolled.otpauthUri).toMatch(/^otpauth:\/\/totp\/Corridor%20sandbox:/);
      expect(enrolled.otpauthUri).toContain('algorithm=SHA1&digits=6&period=30');
      const authenticator = new TOTP({ secret: Secret.fromBase32(enrolled.secret), digits: 6, period: 30 });
      const code = (at: Date) => authenticator.generate({ timestamp: at.getTime() });

      const [sealed] = await query<{ totp_pending_secret: Buffer }>(
        database.url,
        'select totp_pending_secret from member where id = $1',
        [member.id],
      );
      expect(sealed?.totp_pending_secret.toString('latin1')).not.toContain(enrolled.secret);

      const wrongCode = code(new Date(START.getTime() + 5 * 60_000));
      await expect(confirmTotp(em(), context, { memberId: member.id, code: wrongCode })).rejects.toMatchObject({
        status: Status.INVALID_ARGUMENT,
        reason: 'TOTP_CODE_WRONG',
      });
      // One 30-s step of drift is allowed.
      const confirmed = await confirmTotp(em(), context, {
        memberId: member.id,
        code: code(new Date(START.getTime() - 30_000)),
        actor: { memberId: member.id, address: '198.51.100.1' },
      });
      expect(confirmed.totpEnabled).toBe(true);

      const first = await signIn(em(), context, { email: member.email, password: PASSWORD, totpCode: '' });
      expect(first).toMatchObject({ totpRequired: true, member: { id: member.id } });
      const badCode = await failure(
        signIn(em(), context, { email: member.email, password: PASSWORD, totpCode: wrongCode }),
      );
      expect(badCode).toMatchObject({ status: Status.UNAUTHENTICATED, message: 'the two-factor code is wrong' });
      const [row] = await query<{ failed_sign_ins: number }>(
        database.url,
        'select failed_sign_ins from member where id = $1',
        [member.id],
      );
      expect(row?.failed_sign_ins).toBe(1);
      const signedIn = await signIn(em(), context, { email: member.email, password: PASSWORD, totpCode: code(START) });
      expect(signedIn).toMatchObject({ totpRequired: false, member: { totpEnabled: true } });

      const audit = await listAudit(em(), businessId, undefined);
      expect(audit.entries.find((entry) => entry.action === 'member.totp_enabled')).toMatchObject({
        actorMemberId: member.id,
        actorAddress: '198.51.100.1',
      });
    });
  });

  describe('password reset', () => {
    it('mails a 1-hour single-use link to active members only, and lifts a lockout', async () => {
      const businessId = await newBusiness();
      const member = await activeMember(businessId);
      expect(await requestPasswordReset(em(), context, { email: 'nobody@example.com', address: '' })).toEqual({
        resetToken: '',
      });
      for (let n = 1; n <= 5; n++) {
        await failure(signIn(em(), context, { email: member.email, password: 'wrong password 1', totpCode: '' }));
      }
      const { resetToken } = await requestPasswordReset(em(), context, { email: member.email, address: '' });
      expect(resetToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const [mail] = await query<{ text: string }>(
        database.url,
        `select text from mail where recipient = $1 and subject like 'Reset%'`,
        [member.email],
      );
      expect(mail?.text).toContain(`http://dashboard.test/password-reset/${resetToken}`);

      const newPassword = 'a brand new passphrase 2';
      await resetPassword(em(), context, { token: resetToken, password: newPassword, address: '192.0.2.1' });
      await expect(
        resetPassword(em(), context, { token: resetToken, password: newPassword, address: '' }),
      ).rejects.toMatchObject({ status: Status.NOT_FOUND, reason: 'RESET_LINK_NOT_FOUND' });
      await expect(
        signIn(em(), context, { email: member.email, password: newPassword, totpCode: '' }),
      ).resolves.toMatchObject({ totpRequired: false });

      const late = await requestPasswordReset(em(), context, { email: member.email, address: '' });
      now = new Date(START.getTime() + 3600_000 + 1);
      await expect(
        resetPassword(em(), context, { token: late.resetToken, password: newPassword, address: '' }),
      ).rejects.toMatchObject({ status: Status.NOT_FOUND });
    });
  });

  describe('roles, removal and tenancy', () => {
    const backOffice = undefined;

    it('never leaves a business without an active owner', async () => {
      const businessId = await newBusiness();
      const owner = await activeMember(businessId, MemberRole.OWNER);
      await expect(
        changeMemberRole(em(), context, { businessId, memberId: owner.id, role: MemberRole.ADMIN, actor: backOffice }),
      ).rejects.toMatchObject({ status: Status.FAILED_PRECONDITION, reason: 'LAST_OWNER' });
      await expect(removeMember(em(), context, { businessId, memberId: owner.id })).rejects.toMatchObject({
        status: Status.FAILED_PRECONDITION,
        reason: 'LAST_OWNER',
      });
      const second = await activeMember(businessId, MemberRole.OWNER);
      const demoted = await changeMemberRole(em(), context, {
        businessId,
        memberId: owner.id,
        role: MemberRole.ADMIN,
        actor: { memberId: second.id, address: '' },
      });
      expect(demoted.role).toBe(MemberRole.ADMIN);
      // The admin may not unmake the remaining owner, nor remove it.
      await expect(
        removeMember(em(), context, { businessId, memberId: second.id, actor: { memberId: owner.id, address: '' } }),
      ).rejects.toMatchObject({ status: Status.PERMISSION_DENIED, reason: 'OWNER_ONLY' });
    });

    it('two owners demoting each other at once: exactly one succeeds', async () => {
      const businessId = await newBusiness();
      const a = await activeMember(businessId, MemberRole.OWNER);
      const b = await activeMember(businessId, MemberRole.OWNER);
      const results = await Promise.allSettled([
        changeMemberRole(em(), context, { businessId, memberId: a.id, role: MemberRole.VIEWER, actor: backOffice }),
        changeMemberRole(em(), context, { businessId, memberId: b.id, role: MemberRole.VIEWER, actor: backOffice }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(refused?.reason).toMatchObject({ status: Status.FAILED_PRECONDITION, reason: 'LAST_OWNER' });
      const [owners] = await query<{ n: string }>(
        database.url,
        `select count(*) as n from member where business_id = $1 and role = 'owner' and status = 'active'`,
        [businessId],
      );
      expect(owners?.n).toBe('1');
    });

    it('a removed member cannot sign in; its email may be invited again', async () => {
      const businessId = await newBusiness();
      const owner = await activeMember(businessId, MemberRole.OWNER);
      const developer = await activeMember(businessId, MemberRole.DEVELOPER);
      const removed = await removeMember(em(), context, {
        businessId,
        memberId: developer.id,
        actor: { memberId: owner.id, address: '198.51.100.9' },
      });
      expect(removed.status).toBe(MemberStatus.REMOVED);
      await expect(
        signIn(em(), context, { email: developer.email, password: PASSWORD, totpCode: '' }),
      ).rejects.toMatchObject({ status: Status.UNAUTHENTICATED, message: 'email or password is wrong' });
      await expect(
        changeMemberRole(em(), context, { businessId, memberId: developer.id, role: MemberRole.ADMIN }),
      ).rejects.toMatchObject({ status: Status.FAILED_PRECONDITION, reason: 'MEMBER_REMOVED' });
      const again = await inviteMember(em(), context, { businessId, email: developer.email, role: MemberRole.VIEWER });
      expect(again.member.id).not.toBe(developer.id);
    });

    it("another business's member is NOT_FOUND; lists are keyset pages, newest first", async () => {
      const a = await newBusiness('A');
      const b = await newBusiness('B');
      const ofA = await activeMember(a);
      await expect(getMember(em(), b, ofA.id)).rejects.toMatchObject({
        status: Status.NOT_FOUND,
        reason: 'MEMBER_NOT_FOUND',
      });
      await expect(
        changeMemberRole(em(), context, { businessId: b, memberId: ofA.id, role: MemberRole.VIEWER }),
      ).rejects.toMatchObject({ status: Status.NOT_FOUND });
      await expect(removeMember(em(), context, { businessId: b, memberId: ofA.id })).rejects.toMatchObject({
        status: Status.NOT_FOUND,
      });

      for (let n = 0; n < 4; n++) {
        now = new Date(START.getTime() + (n + 1) * 1_000);
        await inviteMember(em(), context, { businessId: a, email: newEmail(), role: MemberRole.VIEWER });
      }
      const first = await listMembers(em(), a, { cursor: '', limit: 3 });
      expect(first.members).toHaveLength(3);
      expect(first.page.nextCursor).toBeDefined();
      const second = await listMembers(em(), a, { cursor: first.page.nextCursor ?? '', limit: 3 });
      expect(second.members.map((m) => m.id)).toHaveLength(2);
      expect(second.members.at(-1)?.id).toBe(ofA.id);
      expect(second.page.nextCursor).toBeUndefined();
      const created = [...first.members, ...second.members].map((m) => dateOf(m.createdAt)?.getTime() ?? 0);
      expect([...created].sort((x, y) => y - x)).toEqual(created);
      expect((await listMembers(em(), b, undefined)).members).toEqual([]);
      await expect(listMembers(em(), '00000000-0000-4000-8000-000000000000', undefined)).rejects.toMatchObject({
        status: Status.NOT_FOUND,
        reason: 'BUSINESS_NOT_FOUND',
      });
    });

    it('records changes made through other services and lists the log newest first', async () => {
      const businessId = await newBusiness();
      const owner = await activeMember(businessId);
      for (let n = 0; n < 3; n++) {
        now = new Date(START.getTime() + 60_000 + n * 1_000);
        await recordAudit(em(), context, {
          businessId,
          actor: { memberId: owner.id, address: '203.0.113.1' },
          action: 'webhook.updated',
          target: `wh_${n}`,
          details: `url changed (${n})`,
        });
      }
      await expect(
        recordAudit(em(), context, { businessId, action: 'Not An Action', target: '', details: '' }),
      ).rejects.toMatchObject({ status: Status.INVALID_ARGUMENT, fieldErrors: { action: expect.any(Array) } });
      const page = await listAudit(em(), businessId, { cursor: '', limit: 2 });
      expect(page.entries.map((e) => e.target)).toEqual(['wh_2', 'wh_1']);
      const next = await listAudit(em(), businessId, { cursor: page.page.nextCursor ?? '', limit: 2 });
      expect(next.entries.map((e) => e.target)).toEqual(['wh_0', owner.id]);
    });
  });
});
