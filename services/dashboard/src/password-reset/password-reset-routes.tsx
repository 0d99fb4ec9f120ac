import { DomainError, Status } from '@corridor/grpc';
import { Router, type Request, type Response } from 'express';
import type { DashboardDependencies } from '../dependencies.js';
import { textField } from '../http/form.js';
import { stateOf } from '../http/request-state.js';
import { ErrorSummary, Field, PostForm } from '../layout/components.js';
import { sendPage } from '../layout/render.js';
import { anonymousCall } from '../members/member-access.js';
import { invalidLinkPage, LINK_TOKEN } from '../invitation/invitation-routes.js';

function RequestForm({ error }: { error?: string }) {
  return (
    <>
      <ErrorSummary message={error} />
      <p>Enter the email you sign in with; if it is a member’s, we mail a link to set a new password.</p>
      <PostForm action="/password-reset">
        <Field label="Email" name="email" type="email" autoComplete="username" required />
        <button type="submit">Send the link</button>
      </PostForm>
    </>
  );
}

function NewPasswordForm({ token, error }: { token: string; error?: string }) {
  return (
    <>
      <ErrorSummary message={error} />
      <PostForm action={`/password-reset/${token}`}>
        <Field
          label="New password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint="At least 12 characters; a passphrase is easiest to remember."
          required
        />
        <Field label="Confirm new password" name="confirm" type="password" autoComplete="new-password" required />
        <button type="submit">Set the password</button>
      </PostForm>
    </>
  );
}

/**
 * /password-reset: asks identity to mail a link (the same answer whether or not the email is a
 * member's), and /password-reset/:token sets the new password, ending every session of the member.
 */
export function passwordResetRouter(deps: DashboardDependencies): Router {
  const router = Router();
  const { members } = deps.clients;

  router.get('/password-reset', (_req, res) => sendPage(res, 200, 'Reset your password', <RequestForm />));

  router.post('/password-reset', async (req: Request, res: Response) => {
    const email = textField(req, 'email').trim();
    if (email === '') return sendPage(res, 422, 'Reset your password', <RequestForm error="Enter your email." />);
    try {
      // The sandbox answers the link's token too (for the back office); a page never shows it to whoever typed an email.
      await members.requestPasswordReset({ email, address: stateOf(res).address }, anonymousCall(res));
    } catch (error) {
      if (!(error instanceof DomainError) || error.status !== Status.INVALID_ARGUMENT) throw error;
      return sendPage(res, 422, 'Reset your password', <RequestForm error={error.message} />);
    }
    sendPage(
      res,
      200,
      'Check your email',
      <p>{`If ${email} belongs to a member, a link to set a new password is on its way. It works for one hour.`}</p>,
    );
  });

  router.get('/password-reset/:token', (req: Request, res: Response) => {
    const token = String(req.params.token);
    if (!LINK_TOKEN.test(token)) return invalidLinkPage(res, 'password reset');
    sendPage(res, 200, 'Set a new password', <NewPasswordForm token={token} />);
  });

  router.post('/password-reset/:token', async (req: Request, res: Response) => {
    const token = String(req.params.token);
    if (!LINK_TOKEN.test(token)) return invalidLinkPage(res, 'password reset');
    const password = textField(req, 'password');
    const again = (error: string) =>
      sendPage(res, 422, 'Set a new password', <NewPasswordForm token={token} error={error} />);
    if (password === '') return again('Enter a new password.');
    if (password !== textField(req, 'confirm')) return again('The two passwords are not the same.');
    let member;
    try {
      ({ member } = await members.resetPassword(
        { token, password, address: stateOf(res).address },
        anonymousCall(res),
      ));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.status === Status.NOT_FOUND) return invalidLinkPage(res, 'password reset');
      if (error.status === Status.INVALID_ARGUMENT) return again(error.message);
      throw error;
    }
    // Whoever knew the old password is signed out with it.
    if (member) await deps.sessions.endEverywhere(member.id);
    res.redirect(303, '/sign-in?notice=password-set');
  });

  return router;
}
