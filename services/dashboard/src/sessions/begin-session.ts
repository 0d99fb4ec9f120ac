import { MemberRole, type Member } from '@corridor/contracts/corridor/identity/v1/member_pb';
import type { Response } from 'express';
import type { DashboardDependencies } from '../dependencies.js';
import { stateOf } from '../http/request-state.js';
import { roleNameOf } from '../members/roles.js';
import type { SessionMember, SessionStage } from './session-store.js';

export function sessionMemberOf(member: Member): SessionMember {
  const role = roleNameOf(member.role);
  if (!role) throw new Error(`identity answered a member without a known role (${member.role})`);
  return { memberId: member.id, businessId: member.businessId, role, email: member.email, name: member.name };
}

/**
 * A member's password (and code) were right: a new session with a new id replaces whatever the
 * browser presented. In production, owners and admins without TOTP must enrol it before anything
 * else. Answers the address to go to next.
 */
export async function beginSession(
  { sessions, cookies, environment }: DashboardDependencies,
  res: Response,
  member: Member,
): Promise<string> {
  const mustEnrol =
    environment === 'production' &&
    !member.totpEnabled &&
    (member.role === MemberRole.OWNER || member.role === MemberRole.ADMIN);
  const stage: SessionStage = mustEnrol ? 'enrol_totp' : 'signed_in';
  const state = stateOf(res);
  const session = await sessions.start(sessionMemberOf(member), stage, { replacing: state.session?.id });
  cookies.set(res, cookies.session, session.id);
  state.session = session;
  return mustEnrol ? '/totp' : '/';
}

/** Ends the browser's session and forgets its cookie. */
export async function endSession({ sessions, cookies }: DashboardDependencies, res: Response): Promise<void> {
  const state = stateOf(res);
  if (state.session) await sessions.end(state.session.id);
  cookies.clear(res, cookies.session);
  state.session = undefined;
}
