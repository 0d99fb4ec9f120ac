import { randomUUID } from 'node:crypto';
import type { Member as MemberMessage, MemberRole } from '@corridor/contracts/corridor/identity/v1/member_pb';
import { alreadyExists, invalidArgument, notFound, permissionDenied } from '@corridor/grpc';
import { isUuid } from '@corridor/validation';
import { LockMode, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { recordAuditEntry } from '../audit/audit-log.js';
import { Business } from '../businesses/business.entity.js';
import { queueMail } from '../mail/mail-outbox.js';
import { actingFor, MANAGERS, mayTouchOwners } from './actors.js';
import { invitationMail } from './member-mails.js';
import { roleName, toMemberMessage } from './member-message.js';
import { issueLinkToken, openLinkMember, useLinkToken } from './member-tokens.js';
import { Member } from './member.entity.js';
import { INVITATION_LIFETIME_MS, type ActorInput, type MembersContext } from './members-context.js';
import { checkPasswordRule, hashPassword } from './passwords.js';

export const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 200;

/** Lower-cased and trimmed; INVALID_ARGUMENT naming `email` when it cannot be an address. */
export function normalisedEmail(email: string): string {
  const normalised = email.trim().toLowerCase();
  if (
    normalised.length > EMAIL_MAX_LENGTH ||
    !/^[^\s@<>()",;:\\]+@[^\s@<>()",;:\\]+\.[^\s@<>()",;:\\.]+$/.test(normalised)
  ) {
    throw invalidArgument('email must be an email address, e.g. ada@example.com', {
      email: ['must be an email address, e.g. ada@example.com'],
    });
  }
  return normalised;
}

export interface InviteMemberInput {
  businessId: string;
  email: string;
  role: MemberRole;
  actor?: ActorInput;
}

export interface Invitation {
  member: MemberMessage;
  /** Only in the sandbox: the back office's and tests' way in without mail. */
  invitationToken: string;
  expiresAt: Date;
}

const invitationLink = (context: MembersContext, token: string) => `${context.dashboardUrl}/invitation/${token}`;

/**
 * Invites a person to the business: a single-use link valid 72 h, mailed in the same transaction.
 * Inviting an invited member again sends a new link and voids the older ones.
 */
export async function inviteMember(
  em: EntityManager,
  context: MembersContext,
  input: InviteMemberInput,
): Promise<Invitation> {
  const email = normalisedEmail(input.email);
  const role = roleName(input.role);
  const businessNotFound = notFound('BUSINESS_NOT_FOUND', `business ${input.businessId} not found`);
  if (!isUuid(input.businessId)) throw businessNotFound;
  try {
    return await em.transactional(async (tx) => {
      // The business row lock orders two invitations of one business (and the owner count, below).
      const business = await tx.findOne(Business, { id: input.businessId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!business) throw businessNotFound;
      const acting = await actingFor(tx, business.id, input.actor, MANAGERS, 'invite members');
      if (role === 'owner' && !mayTouchOwners(acting)) {
        throw permissionDenied('OWNER_ONLY', 'only an owner may invite an owner');
      }
      const now = context.now();
      const existing = await tx.findOne(Member, { email, status: { $ne: 'removed' } });
      if (existing && (existing.businessId !== business.id || existing.status !== 'invited')) {
        throw alreadyExists(
          'MEMBER_EXISTS',
          existing.businessId === business.id
            ? `${email} is already a member of this business`
            : `${email} is already a member of another business in this environment: one email, one business per environment`,
        );
      }
      const member =
        existing ??
        tx.create(Member, {
          id: randomUUID(),
          businessId: business.id,
          email,
          name: '',
          role,
          status: 'invited',
          passwordHash: null,
          totpSecret: null,
          totpPendingSecret: null,
          totpEnabled: false,
          totpLastStep: null,
          failedSignIns: 0,
          lockedUntil: null,
          createdAt: now,
          lastSignInAt: null,
        });
      if (existing && existing.role === 'owner' && !mayTouchOwners(acting)) {
        throw permissionDenied('OWNER_ONLY', 'only an owner may invite an owner');
      }
      member.role = role;
      await tx.flush();
      const { token, expiresAt } = await issueLinkToken(tx, member.id, 'invitation', now, INVITATION_LIFETIME_MS);
      queueMail(
        tx,
        invitationMail({
          to: email,
          businessName: business.name,
          role,
          environment: context.environment,
          link: invitationLink(context, token),
          expiresAt,
        }),
        now,
      );
      recordAuditEntry(tx, {
        businessId: business.id,
        actor: acting.audit,
        action: existing ? 'member.reinvited' : 'member.invited',
        target: member.id,
        details: `${email} invited as ${role}`,
        at: now,
      });
      return {
        member: toMemberMessage(member),
        invitationToken: context.environment === 'sandbox' ? token : '',
        expiresAt,
      };
    });
  } catch (error) {
    // Two invitations of one new email in two businesses at once: the unique index decides.
    if (error instanceof UniqueConstraintViolationException) {
      throw alreadyExists('MEMBER_EXISTS', `${email} is already a member of a business in this environment`);
    }
    throw error;
  }
}

const invitationNotFound = () =>
  notFound('INVITATION_NOT_FOUND', 'this invitation link is unknown, used up or expired: ask for a new invitation');

/** The invitation behind a link, for the page that accepts it; NOT_FOUND once used, expired or unknown. */
export async function getInvitation(
  em: EntityManager,
  context: MembersContext,
  token: string,
): Promise<{ member: MemberMessage; businessName: string }> {
  const memberId = await openLinkMember(em, token, 'invitation', context.now());
  const member = memberId ? await em.findOne(Member, { id: memberId, status: 'invited' }) : null;
  if (!member) throw invitationNotFound();
  const business = await em.findOneOrFail(Business, { id: member.businessId });
  return { member: toMemberMessage(member), businessName: business.name };
}

export function checkedName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > NAME_MAX_LENGTH) {
    const problem = `must be 1 to ${NAME_MAX_LENGTH} characters`;
    throw invalidArgument(`name ${problem}`, { name: [problem] });
  }
  return trimmed;
}

/** Sets the invited member's name and password and uses the link up: invited → active. */
export async function acceptInvitation(
  em: EntityManager,
  context: MembersContext,
  input: { token: string; name: string; password: string },
): Promise<MemberMessage> {
  const name = checkedName(input.name);
  checkPasswordRule(input.password);
  // Hashed before the transaction: argon2 takes tens of milliseconds no row lock should wait on.
  const passwordHash = await hashPassword(input.password);
  return em.transactional(async (tx) => {
    const now = context.now();
    const memberId = await useLinkToken(tx, input.token, 'invitation', now);
    if (!memberId) throw invitationNotFound();
    const member = await tx.findOne(Member, { id: memberId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!member || member.status !== 'invited') throw invitationNotFound();
    member.name = name;
    member.passwordHash = passwordHash;
    member.status = 'active';
    recordAuditEntry(tx, {
      businessId: member.businessId,
      actor: { memberId: member.id, email: member.email, address: '' },
      action: 'member.joined',
      target: member.id,
      details: `${member.email} accepted the invitation as ${member.role}`,
      at: now,
    });
    return toMemberMessage(member);
  });
}
