import type { Member as MemberMessage } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { failedPrecondition, invalidArgument } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import { LockMode, type EntityManager } from '@mikro-orm/core';
import { Secret, TOTP } from 'otpauth';
import { recordAuditEntry } from '../audit/audit-log.js';
import type { IdentitySecrets } from '../secrets/identity-secrets.js';
import { memberNotFound, toMemberMessage } from './member-message.js';
import { Member } from './member.entity.js';
import type { ActorInput, MembersContext } from './members-context.js';

/** RFC 6238 as every authenticator app reads it: SHA1, 6 digits, 30 s. */
function totpOf(context: MembersContext, email: string, secret: Secret): TOTP {
  return new TOTP({
    issuer: `Corridor ${context.environment}`,
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret,
  });
}

const sealed = (secrets: IdentitySecrets, secret: Secret) => secrets.encrypt(Buffer.from(secret.base32, 'utf8'));
const unsealed = (secrets: IdentitySecrets, stored: Uint8Array) =>
  Secret.fromBase32(secrets.decrypt(stored).toString('utf8'));

/**
 * The time step (unix seconds / 30) that `code` is the member's code for, one 30-s step either side
 * allowed (clock drift between the phone and the server); null for a wrong code. The caller accepts
 * it only for a step later than the last accepted one (RFC 6238 §5.2: no code twice).
 */
export function totpCodeStep(context: MembersContext, email: string, secret: Uint8Array, code: string): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = totpOf(context, email, unsealed(context.secrets, secret));
  const timestamp = context.now().getTime();
  const delta = totp.validate({ token: code, timestamp, window: 1 });
  return delta === null ? null : totp.counter({ timestamp }) + delta;
}

async function lockedActiveMember(tx: EntityManager, memberId: string): Promise<Member> {
  const member = isUuid(memberId)
    ? await tx.findOne(Member, { id: memberId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
    : null;
  if (!member || member.status === 'removed') throw memberNotFound(memberId);
  if (member.status !== 'active') {
    throw failedPrecondition('MEMBER_NOT_ACTIVE', 'accept the invitation before setting up two-factor sign-in');
  }
  return member;
}

/** A new secret, pending until confirmed: the member's current one (if any) works until then. */
export async function enrollTotp(
  em: EntityManager,
  context: MembersContext,
  memberId: string,
): Promise<{ secret: string; otpauthUri: string }> {
  return em.transactional(async (tx) => {
    const member = await lockedActiveMember(tx, memberId);
    const secret = new Secret({ size: 20 });
    member.totpPendingSecret = sealed(context.secrets, secret);
    return { secret: secret.base32, otpauthUri: totpOf(context, member.email, secret).toString() };
  });
}

/** Confirms the pending secret with a current code; from then on sign-in asks for one. */
export async function confirmTotp(
  em: EntityManager,
  context: MembersContext,
  input: { memberId: string; code: string; actor?: ActorInput },
): Promise<MemberMessage> {
  return em.transactional(async (tx) => {
    const member = await lockedActiveMember(tx, input.memberId);
    const pending = member.totpPendingSecret;
    if (!pending) {
      throw failedPrecondition('TOTP_NOT_ENROLLED', 'start two-factor set-up (EnrollTotp) before confirming a code');
    }
    const step = totpCodeStep(context, member.email, pending, input.code.trim());
    if (step === null) {
      throw invalidArgument('the two-factor code is wrong', { code: ['is wrong'] }, 'TOTP_CODE_WRONG');
    }
    const now = context.now();
    member.totpSecret = pending;
    // The step belongs to the secret: the new one's codes were never accepted, and its confirming
    // code is used up (the row is locked, so a sign-in with it waits and then sees this step).
    member.totpLastStep = step;
    member.totpPendingSecret = null;
    member.totpEnabled = true;
    recordAuditEntry(tx, {
      businessId: member.businessId,
      actor: { memberId: member.id, email: member.email, address: input.actor?.address ?? '' },
      action: 'member.totp_enabled',
      target: member.id,
      details: `${member.email} set up two-factor sign-in`,
      at: now,
    });
    return toMemberMessage(member);
  });
}
