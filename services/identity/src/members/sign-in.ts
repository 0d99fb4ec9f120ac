import type { Member as MemberMessage } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { DomainError, Status, unauthenticated } from '@corridor/grpc';
import { sql } from '@corridor/db';
import type { EntityManager } from '@mikro-orm/core';
import { toMemberMessage } from './member-message.js';
import { Member } from './member.entity.js';
import type { MembersContext } from './members-context.js';
import { passwordMatches } from './passwords.js';
import { totpCodeStep } from './totp.js';

/** Consecutive failures that lock an email out, and for how long (decision 0028). */
export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_MS = 15 * 60 * 1000;

/** One message for an unknown email, a wrong password, a removed or invited member: nothing to learn. */
export const WRONG_CREDENTIALS = 'email or password is wrong';

export interface SignInInput {
  email: string;
  password: string;
  totpCode: string;
}

export type SignInResult = { member: MemberMessage; totpRequired: boolean };

const totpCodeWrong = () => unauthenticated('TOTP_CODE_WRONG', 'the two-factor code is wrong');

function lockedOut(until: Date, now: Date): DomainError {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  return new DomainError(
    Status.RESOURCE_EXHAUSTED,
    'SIGN_IN_LOCKED',
    `too many failed sign-ins for this email: try again after ${until.toISOString()} (in ${minutes} minute${minutes === 1 ? '' : 's'})`,
  );
}

/**
 * Counts one failure in one statement (concurrent wrong attempts each count); the fifth in a row
 * locks the email for 15 minutes and starts the count again. Returns the lock's end when it locked.
 */
async function countFailure(em: EntityManager, memberId: string, now: Date): Promise<Date | undefined> {
  const lockUntil = new Date(now.getTime() + LOCKOUT_MS);
  const [row] = await sql<{ locked_until: Date | null; locked: boolean }>(
    em,
    `update member set
        failed_sign_ins = case when failed_sign_ins + 1 >= ? then 0 else failed_sign_ins + 1 end,
        locked_until = case when failed_sign_ins + 1 >= ? then ?::timestamptz else locked_until end
      where id = ?
      returning locked_until, locked_until = ?::timestamptz as locked`,
    [LOCKOUT_FAILURES, LOCKOUT_FAILURES, lockUntil, memberId, lockUntil],
  );
  return row?.locked ? lockUntil : undefined;
}

/**
 * Records the sign-in and uses up the code's time step in one statement (RFC 6238 §5.2), only for a
 * step later than the last accepted one and only while the secret is the one the code matched. Of
 * two sign-ins with one code, the second waits on the row lock and then finds the step taken.
 */
async function signedInWithStep(
  em: EntityManager,
  memberId: string,
  secret: Uint8Array,
  step: number,
  now: Date,
): Promise<boolean> {
  const claimed = await sql(
    em,
    `update member set failed_sign_ins = 0, locked_until = null, last_sign_in_at = ?, totp_last_step = ?
      where id = ? and totp_secret = ? and (totp_last_step is null or totp_last_step < ?)
      returning id`,
    [now, step, memberId, Buffer.from(secret), step],
  );
  return claimed.length === 1;
}

/**
 * Email and password, then the TOTP code once enabled. A right password without a code answers
 * totp_required (no failure counted); a wrong code, or one already accepted, counts as a failed sign-in.
 */
export async function signIn(em: EntityManager, context: MembersContext, input: SignInInput): Promise<SignInResult> {
  const now = context.now();
  const email = input.email.trim().toLowerCase();
  const member = email === '' ? null : await em.findOne(Member, { email, status: { $ne: 'removed' } });
  if (member?.lockedUntil && member.lockedUntil > now) throw lockedOut(member.lockedUntil, now);
  // An unknown email or an invited member (no password yet) verifies a decoy: the same time, the same answer.
  const passwordRight = await passwordMatches(
    member?.status === 'active' ? (member.passwordHash ?? null) : null,
    input.password,
  );
  if (!member || member.status !== 'active') throw unauthenticated('SIGN_IN_FAILED', WRONG_CREDENTIALS);
  const failed = async (error: DomainError): Promise<never> => {
    const lockedUntil = await countFailure(em, member.id, now);
    throw lockedUntil ? lockedOut(lockedUntil, now) : error;
  };
  if (!passwordRight) return failed(unauthenticated('SIGN_IN_FAILED', WRONG_CREDENTIALS));
  if (member.totpEnabled && member.totpSecret) {
    const code = input.totpCode.trim();
    if (code === '') return { member: toMemberMessage(member), totpRequired: true };
    const step = totpCodeStep(context, member.email, member.totpSecret, code);
    // A code already accepted is refused as a wrong one: same answer, counted for the lockout.
    if (step === null || !(await signedInWithStep(em, member.id, member.totpSecret, step, now))) {
      return failed(totpCodeWrong());
    }
    member.totpLastStep = step;
  } else {
    await sql(em, `update member set failed_sign_ins = 0, locked_until = null, last_sign_in_at = ? where id = ?`, [
      now,
      member.id,
    ]);
  }
  member.failedSignIns = 0;
  member.lockedUntil = null;
  member.lastSignInAt = now;
  return { member: toMemberMessage(member), totpRequired: false };
}
