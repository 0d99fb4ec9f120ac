import type { Request, RequestHandler, Response } from 'express';
import { callerMetadata, type CallSettings } from '@corridor/grpc';
import { stateOf } from '../http/request-state.js';
import { sendPage } from '../layout/render.js';
import type { Session } from '../sessions/session-store.js';
import { may, rolesAllowed, rolesInWords, scopesOf, type Capability } from './roles.js';

/** A signed-in member's session; pages behind requireMember read it with memberOf. */
export type MemberSession = Session & { stage: 'signed_in' };

/**
 * Every route names what it needs and is checked here, on the server: no session sends the browser
 * to sign in, a pending TOTP enrolment to /totp, a role without the capability gets a 403 page
 * naming the roles that have it.
 */
export function requireMember(capability: Capability): RequestHandler {
  return (_req, res, next) => {
    const { session, environment } = stateOf(res);
    if (!session || session.stage === 'totp') return res.redirect(303, '/sign-in');
    if (session.stage === 'enrol_totp') return res.redirect(303, '/totp');
    if (may(session.role, capability, environment)) return next();
    const roles = rolesAllowed(capability, environment);
    sendPage(
      res,
      403,
      'You cannot do this',
      <>
        <p>
          {`This needs the ${rolesInWords(roles)} role; you are ${session.role === 'admin' ? 'an' : 'a'} ${session.role}.`}{' '}
          Ask an owner or admin of your business to change your role.
        </p>
        <p>
          <a href="/">Go to the dashboard</a>
        </p>
      </>,
    );
  };
}

export function memberOf(res: Response): MemberSession {
  const { session } = stateOf(res);
  if (!session || session.stage !== 'signed_in') throw new Error('memberOf outside requireMember');
  return session as MemberSession;
}

/** Whether the member of this request may do something: what decides which buttons are rendered. */
export function memberMay(res: Response, capability: Capability): boolean {
  const { session, environment } = stateOf(res);
  return !!session && session.stage === 'signed_in' && may(session.role, capability, environment);
}

/**
 * Caller metadata as the gateway sends it, for the member's business: the credential is
 * `member:<id>` and the scopes are what the member's role may do.
 */
export function memberCall(res: Response): CallSettings {
  const { requestId, environment } = stateOf(res);
  const member = memberOf(res);
  return {
    metadata: callerMetadata({
      businessId: member.businessId,
      credentialId: `member:${member.memberId}`,
      scopes: scopesOf(member.role, environment),
      environment,
      requestId,
    }),
  };
}

/** Calls made before anyone is signed in (sign-in, invitations, password resets). */
export function anonymousCall(res: Response): CallSettings {
  const { requestId, environment } = stateOf(res);
  return { metadata: callerMetadata({ environment, requestId }) };
}

/** Who makes a change, for identity's audit log. */
export function actorOf(req: Request, res: Response): { memberId: string; address: string } {
  return { memberId: memberOf(res).memberId, address: req.ip ?? stateOf(res).address };
}
