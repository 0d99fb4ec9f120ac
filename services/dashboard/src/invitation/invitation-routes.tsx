import { DomainError, Status } from '@corridor/grpc';
import { Router, type Request, type Response } from 'express';
import type { DashboardDependencies } from '../dependencies.js';
import { textField } from '../http/form.js';
import { stateOf } from '../http/request-state.js';
import { ErrorSummary, Field, PostForm } from '../layout/components.js';
import { sendPage } from '../layout/render.js';
import { anonymousCall } from '../members/member-access.js';
import { beginSession } from '../sessions/begin-session.js';

/** What identity issues: url-safe random text. Anything else names no invitation, so identity is not asked. */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{16,200}$/;

export function invalidLinkPage(res: Response, what: 'invitation' | 'password reset'): void {
  sendPage(
    res,
    404,
    'This link does not work',
    <p>
      {`This ${what} link is not valid: it was already used, it expired, or it never existed. `}
      {what === 'invitation'
        ? 'Ask whoever invited you to send a new invitation.'
        : 'Ask for a new link on the password reset page.'}
    </p>,
  );
}

function AcceptForm(props: { token: string; email: string; businessName: string; name?: string; error?: string }) {
  return (
    <>
      <p>{`You are invited to the Corridor dashboard of ${props.businessName} as ${props.email}.`}</p>
      <ErrorSummary message={props.error} />
      <PostForm action={`/invitation/${props.token}`}>
        <Field label="Your name" name="name" autoComplete="name" required defaultValue={props.name} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint="At least 12 characters; a passphrase is easiest to remember."
          required
        />
        <Field label="Confirm password" name="confirm" type="password" autoComplete="new-password" required />
        <button type="submit">Join</button>
      </PostForm>
    </>
  );
}

/**
 * /invitation/:token: the invited person sets their name and password, is signed in, and goes to
 * TOTP enrolment (required before anything else for production owners and admins).
 */
export function invitationRouter(deps: DashboardDependencies): Router {
  const router = Router();
  const { members } = deps.clients;

  async function invitationOf(token: string, res: Response) {
    try {
      return await members.getInvitation({ token }, anonymousCall(res));
    } catch (error) {
      if (error instanceof DomainError && error.status === Status.NOT_FOUND) return undefined;
      throw error;
    }
  }

  router.get('/invitation/:token', async (req: Request, res: Response) => {
    const token = String(req.params.token);
    const invitation = LINK_TOKEN.test(token) ? await invitationOf(token, res) : undefined;
    if (!invitation?.member) return invalidLinkPage(res, 'invitation');
    sendPage(
      res,
      200,
      'Accept your invitation',
      <AcceptForm token={token} email={invitation.member.email} businessName={invitation.businessName} />,
    );
  });

  router.post('/invitation/:token', async (req: Request, res: Response) => {
    const token = String(req.params.token);
    const invitation = LINK_TOKEN.test(token) ? await invitationOf(token, res) : undefined;
    if (!invitation?.member) return invalidLinkPage(res, 'invitation');
    const name = textField(req, 'name').trim();
    const password = textField(req, 'password');
    const again = (error: string) =>
      sendPage(
        res,
        422,
        'Accept your invitation',
        <AcceptForm
          token={token}
          email={invitation.member?.email ?? ''}
          businessName={invitation.businessName}
          name={name}
          error={error}
        />,
      );
    if (name === '') return again('Enter your name.');
    if (password !== textField(req, 'confirm')) return again('The two passwords are not the same.');
    try {
      await members.acceptInvitation({ token, name, password }, anonymousCall(res));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.status === Status.NOT_FOUND) return invalidLinkPage(res, 'invitation');
      if (error.status === Status.INVALID_ARGUMENT) return again(error.message);
      throw error;
    }
    // Signed in with the password just set, through identity's one sign-in path.
    const { member } = await members.signIn(
      { email: invitation.member.email, password, totpCode: '', address: stateOf(res).address },
      anonymousCall(res),
    );
    if (!member) throw new Error('identity signed a member in without the member');
    await beginSession(deps, res, member);
    res.redirect(303, '/totp');
  });

  return router;
}
