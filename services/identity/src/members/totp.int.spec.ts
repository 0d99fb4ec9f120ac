import { type DomainError, Status } from '@corridor/grpc';
import { integrationDatabase, query } from '@corridor/testing';
import { MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { Secret, TOTP } from 'otpauth';
import { createBusiness } from '../businesses/create-business.js';
import { identityDatabase } from '../database.js';
import { IdentitySecrets } from '../secrets/identity-secrets.js';
import { acceptInvitation, inviteMember } from './invite-member.js';
import type { MembersContext } from './members-context.js';
import { LOCKOUT_FAILURES, signIn } from './sign-in.js';
import { confirmTotp, enrollTotp } from './totp.js';

const PASSWORD = 'correct horse battery 9';
/** On a step boundary: step S is [START, START + 30 s). */
const START = new Date('2026-11-28T10:00:00.000Z');
const STEP = Math.floor(START.getTime() / 30_000);
const seconds = (n: number) => new Date(START.getTime() + n * 1000);

describe('identity: a TOTP code is accepted once (RFC 6238 §5.2, real PostgreSQL)', () => {
  const database = integrationDatabase('identity', identityDatabase);
  let now = START;
  const context: MembersContext = {
    environment: 'sandbox',
    topic: 'test.corridor.identity.v1',
    now: () => new Date(now.getTime()),
    secrets: new IdentitySecrets('t'.repeat(64)),
    dashboardUrl: 'http://dashboard.test',
  };
  const { em } = database;
  let emails = 0;

  /** An active owner with TOTP set up (confirmed at `confirmedAt` with that step's code), and its authenticator; the clock back at START. */
  async function totpMember(confirmedAt = START) {
    const businessId = (await createBusiness(em(), context, { name: 'Replay Co' })).id;
    const email = `person${++emails}@example.com`;
    const invitation = await inviteMember(em(), context, { businessId, email, role: MemberRole.OWNER });
    const member = await acceptInvitation(em(), context, {
      token: invitation.invitationToken,
      name: 'Ada Lovelace',
      password: PASSWORD,
    });
    const authenticator = await enrolled(member.id);
    now = confirmedAt;
    await confirmTotp(em(), context, { memberId: member.id, code: authenticator.code(confirmedAt) });
    now = START;
    return { id: member.id, email, authenticator };
  }

  async function enrolled(memberId: string) {
    const { secret } = await enrollTotp(em(), context, memberId);
    const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 });
    return { code: (at: Date) => totp.generate({ timestamp: at.getTime() }) };
  }

  const signInWith = (email: string, totpCode: string) =>
    signIn(em(), context, { email, password: PASSWORD, totpCode });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a failure');
      },
      (error: unknown) => error as DomainError,
    );
  const stored = async (memberId: string) => {
    const [row] = await query<{ totp_last_step: string | null; failed_sign_ins: number }>(
      database.url,
      'select totp_last_step, failed_sign_ins from member where id = $1',
      [memberId],
    );
    return { lastStep: row?.totp_last_step == null ? null : Number(row.totp_last_step), failed: row?.failed_sign_ins };
  };
  const WRONG_CODE = {
    status: Status.UNAUTHENTICATED,
    reason: 'TOTP_CODE_WRONG',
    message: 'the two-factor code is wrong',
  };

  beforeAll(async () => {});

  beforeEach(() => {
    now = START;
  });

  it('refuses the same code twice, as a wrong code and counted for the lockout; the next step’s code works', async () => {
    const member = await totpMember(seconds(-60));
    now = seconds(5);
    const code = member.authenticator.code(now);
    await expect(signInWith(member.email, code)).resolves.toMatchObject({ totpRequired: false });
    expect(await stored(member.id)).toEqual({ lastStep: STEP, failed: 0 });

    // Replayed 20 s later, still inside its window: refused exactly as a wrong code is.
    now = seconds(25);
    const wrong = await failure(signInWith(member.email, '000000' === code ? '111111' : '000000'));
    const replayed = await failure(signInWith(member.email, code));
    expect(replayed).toMatchObject(WRONG_CODE);
    expect(replayed.message).toBe(wrong.message);
    expect(replayed.reason).toBe(wrong.reason);
    expect(replayed.status).toBe(wrong.status);
    expect(await stored(member.id)).toEqual({ lastStep: STEP, failed: 2 });

    // An older step's code (allowed for drift) is refused too once a later one was accepted.
    now = seconds(35);
    await expect(failure(signInWith(member.email, member.authenticator.code(seconds(0))))).resolves.toMatchObject(
      WRONG_CODE,
    );
    // The next step's code still works, and resets the count.
    await expect(signInWith(member.email, member.authenticator.code(seconds(30)))).resolves.toMatchObject({
      totpRequired: false,
    });
    expect(await stored(member.id)).toEqual({ lastStep: STEP + 1, failed: 0 });
  });

  it('a code replayed until the lockout locks the email like wrong codes do', async () => {
    const member = await totpMember(seconds(-60));
    const code = member.authenticator.code(now);
    await signInWith(member.email, code);
    for (let attempt = 1; attempt < LOCKOUT_FAILURES; attempt++) {
      await expect(failure(signInWith(member.email, code))).resolves.toMatchObject(WRONG_CODE);
    }
    await expect(failure(signInWith(member.email, code))).resolves.toMatchObject({
      status: Status.RESOURCE_EXHAUSTED,
      reason: 'SIGN_IN_LOCKED',
    });
  });

  it('two concurrent sign-ins with one code: exactly one succeeds', async () => {
    const member = await totpMember(seconds(-60));
    for (const at of [seconds(3), seconds(33), seconds(63)]) {
      now = at;
      const code = member.authenticator.code(at);
      const results = await Promise.allSettled([signInWith(member.email, code), signInWith(member.email, code)]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      const [refused] = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
      expect(refused).toMatchObject(WRONG_CODE);
    }
    expect((await stored(member.id)).lastStep).toBe(STEP + 2);
  });

  it('the code that confirmed the set-up cannot sign in; the next step’s code can', async () => {
    const member = await totpMember(START);
    expect(await stored(member.id)).toEqual({ lastStep: STEP, failed: 0 });
    now = seconds(10);
    await expect(failure(signInWith(member.email, member.authenticator.code(START)))).resolves.toMatchObject(
      WRONG_CODE,
    );
    now = seconds(30);
    await expect(signInWith(member.email, member.authenticator.code(now))).resolves.toMatchObject({
      totpRequired: false,
    });
  });

  it('a new secret starts afresh: its code works in the step the old secret’s code was used', async () => {
    const member = await totpMember(seconds(-60));
    await signInWith(member.email, member.authenticator.code(now));
    const replacement = await enrolled(member.id);
    // The old secret still signs in until the new one is confirmed, once per step.
    await expect(failure(signInWith(member.email, member.authenticator.code(now)))).resolves.toMatchObject(WRONG_CODE);
    await confirmTotp(em(), context, { memberId: member.id, code: replacement.code(now) });
    expect((await stored(member.id)).lastStep).toBe(STEP);
    // The confirming code is used up; the old secret's codes no longer work at all.
    now = seconds(40);
    await expect(failure(signInWith(member.email, member.authenticator.code(now)))).resolves.toMatchObject(WRONG_CODE);
    await expect(signInWith(member.email, replacement.code(now))).resolves.toMatchObject({ totpRequired: false });
  });
});
