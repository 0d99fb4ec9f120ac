import { DomainError, notFound, Status } from '@corridor/grpc';
import { Router, type Request, type Response } from 'express';
import type { DashboardDependencies } from '../dependencies.js';
import { queryText, textField } from '../http/form.js';
import { sendPage } from '../layout/render.js';
import { actorOf, memberCall, memberMay, memberOf, requireMember } from '../members/member-access.js';
import { isRoleName, memberRoleOf } from '../members/roles.js';
import { TeamPage, type TeamView } from './team-pages.js';

const MEMBER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const NOTICES: Record<string, string> = {
  invited: 'The invitation is sent; the link works for 72 hours.',
  'role-changed': 'The role is changed; it applies from the member’s next page.',
  removed: 'The member is removed and signed out everywhere.',
};

/**
 * /team: the business's members; owners and admins invite, change roles and remove. Identity
 * enforces the rules (an active owner always remains) and records each change in the audit log.
 */
export function teamRouter(deps: DashboardDependencies): Router {
  const router = Router();
  const { members } = deps.clients;

  async function renderTeam(req: Request, res: Response, status: number, extra: Partial<TeamView> = {}) {
    const member = memberOf(res);
    const answer = await members.listMembers(
      { businessId: member.businessId, page: { cursor: queryText(req, 'cursor'), limit: 100 } },
      memberCall(res),
    );
    sendPage(
      res,
      status,
      'Team',
      <TeamPage
        members={answer.members}
        selfId={member.memberId}
        mayManage={memberMay(res, 'manage_members')}
        nextCursor={answer.page?.nextCursor}
        notice={NOTICES[queryText(req, 'notice')]}
        {...extra}
      />,
    );
  }

  /** A refusal identity explains (bad email, last owner, role not allowed) as the team page with its message. */
  async function refused(req: Request, res: Response, error: unknown, extra: Partial<TeamView> = {}) {
    if (!(error instanceof DomainError)) throw error;
    const statuses: Record<number, number> = {
      [Status.INVALID_ARGUMENT]: 422,
      [Status.FAILED_PRECONDITION]: 400,
      [Status.ALREADY_EXISTS]: 409,
      [Status.PERMISSION_DENIED]: 403,
    };
    const status = statuses[error.status];
    if (status === undefined) throw error;
    await renderTeam(req, res, status, { error: error.message, ...extra });
  }

  function memberIdOf(req: Request): string {
    const memberId = String(req.params.memberId);
    if (!MEMBER_ID.test(memberId)) throw notFound('MEMBER_NOT_FOUND', 'no such member');
    return memberId;
  }

  router.get('/team', requireMember('read'), (req, res) => renderTeam(req, res, 200));

  router.post('/team/invitations', requireMember('manage_members'), async (req, res) => {
    const email = textField(req, 'email').trim();
    const role = textField(req, 'role');
    if (email === '' || !isRoleName(role)) {
      return renderTeam(req, res, 422, { error: 'Enter an email and choose a role.', email });
    }
    let answer;
    try {
      answer = await members.inviteMember(
        { businessId: memberOf(res).businessId, email, role: memberRoleOf(role), actor: actorOf(req, res) },
        memberCall(res),
      );
    } catch (error) {
      return refused(req, res, error, { email });
    }
    if (deps.environment === 'sandbox' && answer.invitationToken) {
      return renderTeam(req, res, 201, {
        notice: NOTICES.invited,
        invitationLink: `${deps.origin}/invitation/${answer.invitationToken}`,
      });
    }
    res.redirect(303, '/team?notice=invited');
  });

  router.post('/team/:memberId/role', requireMember('manage_members'), async (req, res) => {
    const memberId = memberIdOf(req);
    const role = textField(req, 'role');
    if (!isRoleName(role)) return renderTeam(req, res, 422, { error: 'Choose a role.' });
    try {
      await members.changeMemberRole(
        { businessId: memberOf(res).businessId, memberId, role: memberRoleOf(role), actor: actorOf(req, res) },
        memberCall(res),
      );
    } catch (error) {
      return refused(req, res, error);
    }
    await deps.sessions.changeRole(memberId, role);
    res.redirect(303, '/team?notice=role-changed');
  });

  router.post('/team/:memberId/remove', requireMember('manage_members'), async (req, res) => {
    const memberId = memberIdOf(req);
    try {
      await members.removeMember(
        { businessId: memberOf(res).businessId, memberId, actor: actorOf(req, res) },
        memberCall(res),
      );
    } catch (error) {
      return refused(req, res, error);
    }
    // A removed member can never sign in again; their open sessions end now too.
    await deps.sessions.endEverywhere(memberId);
    res.redirect(303, '/team?notice=removed');
  });

  return router;
}
