import { DomainError, Status } from '@corridor/grpc';
import { Router, type Request, type Response } from 'express';
import type { DashboardDependencies } from '../dependencies.js';
import { queryText, textField } from '../http/form.js';
import { stateOf } from '../http/request-state.js';
import { sendPage } from '../layout/render.js';
import { anonymousCall, requireMember, memberOf } from '../members/member-access.js';
import { beginSession, endSession, sessionMemberOf } from '../sessions/begin-session.js';
import { retryMessage, SignInForm, TotpForm, TryLaterPage } from './sign-in-pages.js';

const NOTICES: Record<string, string> = {
  'signed-out': 'You are signed out.',
  'signed-out-everywhere': 'You are signed out on every browser.',
  expired: 'Your sign-in took too long; start again.',
  'password-set': 'Your password is set: sign in with it.',
};

/**
 * Sign-in in one or two steps (password, then a TOTP code when identity asks for one), sign-out and
 * sign-out everywhere. Failures are counted per address (SignInAddressLimit); identity locks out
 * each email itself and says until when.
 */
export function signInRouter(deps: DashboardDependencies): Router {
  const router = Router();
  const { clients, sessions, signInLimit } = deps;

  /** Refuses with a page when the address has failed too often; answers whether it did. */
  async function refusedForAddress(res: Response): Promise<boolean> {
    const wait = await signInLimit.waitSeconds(stateOf(res).address);
    if (wait === 0) return false;
    res.setHeader('Retry-After', String(wait));
    sendPage(res, 429, 'Try again later', <TryLaterPage message={retryMessage(wait, new Date())} />);
    return true;
  }

  /** Identity's lockout of the email: its message names when to retry. */
  function lockedOut(res: Response, error: DomainError): void {
    sendPage(res, 429, 'Try again later', <TryLaterPage message={error.message} />);
  }

  router.get('/sign-in', (req, res) => {
    const { session } = stateOf(res);
    if (session && session.stage !== 'totp') return res.redirect(303, '/');
    sendPage(res, 200, 'Sign in', <SignInForm notice={NOTICES[queryText(req, 'notice')]} />);
  });

  router.post('/sign-in', async (req: Request, res: Response) => {
    if (await refusedForAddress(res)) return;
    const email = textField(req, 'email').trim();
    const password = textField(req, 'password');
    if (email === '' || password === '') {
      return sendPage(res, 422, 'Sign in', <SignInForm email={email} error="Enter your email and your password." />);
    }
    const { address } = stateOf(res);
    let answer;
    try {
      answer = await clients.members.signIn({ email, password, totpCode: '', address }, anonymousCall(res));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.status === Status.UNAUTHENTICATED) {
        await signInLimit.recordFailure(address);
        return sendPage(res, 401, 'Sign in', <SignInForm email={email} error="The email or the password is wrong." />);
      }
      if (error.status === Status.RESOURCE_EXHAUSTED) return lockedOut(res, error);
      if (error.status === Status.INVALID_ARGUMENT) {
        return sendPage(res, 422, 'Sign in', <SignInForm email={email} error={error.message} />);
      }
      throw error;
    }
    if (!answer.member) throw new Error('identity signed a member in without the member');
    if (answer.totpRequired) {
      const { session } = stateOf(res);
      const pending = await sessions.start(sessionMemberOf(answer.member), 'totp', {
        replacing: session?.id,
        password,
      });
      deps.cookies.set(res, deps.cookies.session, pending.id);
      return res.redirect(303, '/sign-in/totp');
    }
    res.redirect(303, await beginSession(deps, res, answer.member));
  });

  router.get('/sign-in/totp', (_req, res) => {
    if (stateOf(res).session?.stage !== 'totp') return res.redirect(303, '/sign-in');
    sendPage(res, 200, 'Two-step sign-in', <TotpForm />);
  });

  router.post('/sign-in/totp', async (req, res) => {
    const { session, address } = stateOf(res);
    if (session?.stage !== 'totp') return res.redirect(303, '/sign-in');
    if (await refusedForAddress(res)) return;
    const password = await sessions.pendingPassword(session);
    if (password === undefined) {
      await endSession(deps, res);
      return res.redirect(303, '/sign-in?notice=expired');
    }
    const totpCode = textField(req, 'code').replace(/\s+/g, '');
    if (!/^\d{6,8}$/.test(totpCode)) {
      return sendPage(res, 422, 'Two-step sign-in', <TotpForm error="Enter the 6-digit code from your app." />);
    }
    let answer;
    try {
      answer = await clients.members.signIn({ email: session.email, password, totpCode, address }, anonymousCall(res));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.status === Status.UNAUTHENTICATED) {
        await signInLimit.recordFailure(address);
        return sendPage(
          res,
          401,
          'Two-step sign-in',
          <TotpForm error="That code is not right. Codes change every 30 seconds: enter the current one." />,
        );
      }
      if (error.status === Status.RESOURCE_EXHAUSTED) return lockedOut(res, error);
      throw error;
    }
    if (!answer.member || answer.totpRequired) throw new Error('identity did not complete a sign-in with its code');
    res.redirect(303, await beginSession(deps, res, answer.member));
  });

  router.post('/sign-out', async (_req, res) => {
    await endSession(deps, res);
    res.redirect(303, '/sign-in?notice=signed-out');
  });

  router.post('/sign-out-everywhere', requireMember('read'), async (_req, res) => {
    await sessions.endEverywhere(memberOf(res).memberId);
    await endSession(deps, res);
    res.redirect(303, '/sign-in?notice=signed-out-everywhere');
  });

  return router;
}
