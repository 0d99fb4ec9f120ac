import type { Member as MemberMessage } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { notFound } from '@corridor/grpc';
import { LockMode, type EntityManager } from '@mikro-orm/core';
import { recordAuditEntry } from '../audit/audit-log.js';
import { queueMail } from '../mail/mail-outbox.js';
import { passwordResetMail } from './member-mails.js';
import { toMemberMessage } from './member-message.js';
import { issueLinkToken, useLinkToken } from './member-tokens.js';
import { Member } from './member.entity.js';
import { PASSWORD_RESET_LIFETIME_MS, type MembersContext } from './members-context.js';
import { checkPasswordRule, hashPassword } from './passwords.js';

/**
 * Mails a reset link (valid 1 h, voiding older ones) when the email is an active member's. The
 * answer is the same either way; only the sandbox returns the token, and only when one was made.
 */
export async function requestPasswordReset(
  em: EntityManager,
  context: MembersContext,
  input: { email: string; address: string },
): Promise<{ resetToken: string }> {
  const email = input.email.trim().toLowerCase();
  if (email === '') return { resetToken: '' };
  return em.transactional(async (tx) => {
    const member = await tx.findOne(Member, { email, status: 'active' });
    if (!member) return { resetToken: '' };
    const now = context.now();
    const { token, expiresAt } = await issueLinkToken(tx, member.id, 'password_reset', now, PASSWORD_RESET_LIFETIME_MS);
    queueMail(
      tx,
      passwordResetMail({
        to: member.email,
        environment: context.environment,
        link: `${context.dashboardUrl}/password-reset/${token}`,
        expiresAt,
      }),
      now,
    );
    return { resetToken: context.environment === 'sandbox' ? token : '' };
  });
}

/** Sets a new password with a reset link, uses the link up, and lifts a lockout. */
export async function resetPassword(
  em: EntityManager,
  context: MembersContext,
  input: { token: string; password: string; address: string },
): Promise<MemberMessage> {
  checkPasswordRule(input.password);
  const passwordHash = await hashPassword(input.password);
  return em.transactional(async (tx) => {
    const now = context.now();
    const memberId = await useLinkToken(tx, input.token, 'password_reset', now);
    const member = memberId
      ? await tx.findOne(Member, { id: memberId }, { lockMode: LockMode.PESSIMISTIC_WRITE })
      : null;
    if (!member || member.status !== 'active') {
      throw notFound(
        'RESET_LINK_NOT_FOUND',
        'this password-reset link is unknown, used up or expired: ask for a new one',
      );
    }
    member.passwordHash = passwordHash;
    member.failedSignIns = 0;
    member.lockedUntil = null;
    recordAuditEntry(tx, {
      businessId: member.businessId,
      actor: { memberId: member.id, email: member.email, address: input.address },
      action: 'member.password_reset',
      target: member.id,
      details: `${member.email} set a new password with a reset link`,
      at: now,
    });
    return toMemberMessage(member);
  });
}
