import { callerMetadata, DomainError, Status } from '@corridor/grpc';
import { Router, type Request, type Response } from 'express';
import QRCode from 'qrcode';
import type { DashboardDependencies } from '../dependencies.js';
import { textField } from '../http/form.js';
import { stateOf } from '../http/request-state.js';
import { ErrorSummary, Field, PostForm } from '../layout/components.js';
import { sendPage } from '../layout/render.js';
import { scopesOf } from '../members/roles.js';
import type { Session } from '../sessions/session-store.js';

const BASE32 = /^[A-Z2-7]{16,128}=*$/;
const OTPAUTH = /^otpauth:\/\/totp\/[^\s]{1,500}$/;

interface Enrolment {
  secret: string;
  otpauthUri: string;
}

/** The otpauth URI as an SVG QR code in a data: URL, which the CSP allows as an image and nothing more. */
async function qrDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

function EnrolPage({
  enrolment,
  qr,
  maySkip,
  error,
}: {
  enrolment: Enrolment;
  qr: string;
  maySkip: boolean;
  error?: string;
}) {
  return (
    <>
      <ErrorSummary message={error} />
      <p>
        {maySkip
          ? 'Two-step sign-in asks for a code from your phone after your password, so a stolen password is not enough.'
          : 'Owners and admins of the production dashboard must turn on two-step sign-in before they continue.'}
      </p>
      <h2>1. Add Corridor to your authenticator app</h2>
      <p>Scan this code with an authenticator app (for example 1Password, Google Authenticator or Authy).</p>
      <img className="qr" src={qr} alt="QR code holding your two-step sign-in secret" width={200} height={200} />
      <p id="totp-secret-label">Or type this secret into the app:</p>
      <p>
        <code id="totp-secret" aria-labelledby="totp-secret-label" className="secret">
          {enrolment.secret}
        </code>{' '}
        <button type="button" className="copy" data-copy="totp-secret" hidden>
          Copy secret
        </button>
      </p>
      <h2>2. Enter the code the app shows</h2>
      <PostForm action="/totp">
        <input type="hidden" name="secret" value={enrolment.secret} />
        <input type="hidden" name="otpauth_uri" value={enrolment.otpauthUri} />
        <Field
          label="Code"
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9 ]*"
          maxLength={8}
          required
        />
        <button type="submit">Turn on two-step sign-in</button>
      </PostForm>
      {maySkip ? (
        <p>
          <a href="/">Skip for now</a>
        </p>
      ) : null}
    </>
  );
}

/**
 * /totp: enrolment of two-step sign-in (RFC 6238) for the signed-in member. A member who must enrol
 * (stage enrol_totp) can reach nothing else; others may skip it.
 */
export function totpRouter(deps: DashboardDependencies): Router {
  const router = Router();
  const { members } = deps.clients;

  /** Signed in, or signed in but obliged to enrol first; else off to sign in. */
  function enrollingSession(res: Response): Session | undefined {
    const { session } = stateOf(res);
    if (!session || session.stage === 'totp') {
      res.redirect(303, '/sign-in');
      return undefined;
    }
    return session;
  }

  const callOf = (res: Response, session: Session) => {
    const { requestId, environment } = stateOf(res);
    return {
      metadata: callerMetadata({
        businessId: session.businessId,
        credentialId: `member:${session.memberId}`,
        scopes: scopesOf(session.role, environment),
        environment,
        requestId,
      }),
    };
  };

  async function render(res: Response, session: Session, status: number, enrolment: Enrolment, error?: string) {
    sendPage(
      res,
      status,
      'Turn on two-step sign-in',
      <EnrolPage
        enrolment={enrolment}
        qr={await qrDataUrl(enrolment.otpauthUri)}
        maySkip={session.stage === 'signed_in'}
        error={error}
      />,
    );
  }

  router.get('/totp', async (_req: Request, res: Response) => {
    const session = enrollingSession(res);
    if (!session) return;
    const { member } = await members.getMember(
      { businessId: session.businessId, memberId: session.memberId },
      callOf(res, session),
    );
    if (member?.totpEnabled) {
      return sendPage(
        res,
        200,
        'Two-step sign-in',
        <p>Two-step sign-in is on: Corridor asks for a code from your app every time you sign in.</p>,
      );
    }
    const enrolment = await members.enrollTotp({ memberId: session.memberId }, callOf(res, session));
    await render(res, session, 200, enrolment);
  });

  router.post('/totp', async (req: Request, res: Response) => {
    const session = enrollingSession(res);
    if (!session) return;
    const code = textField(req, 'code').replace(/\s+/g, '');
    const shown = { secret: textField(req, 'secret'), otpauthUri: textField(req, 'otpauth_uri') };
    // The page the member already scanned, again, rather than a new secret they have not added.
    const again = async (error: string) =>
      BASE32.test(shown.secret) && OTPAUTH.test(shown.otpauthUri)
        ? render(res, session, 422, shown, error)
        : render(
            res,
            session,
            422,
            await members.enrollTotp({ memberId: session.memberId }, callOf(res, session)),
            error,
          );
    if (!/^\d{6,8}$/.test(code)) return again('Enter the 6-digit code your app shows.');
    try {
      await members.confirmTotp(
        { memberId: session.memberId, code, actor: { memberId: session.memberId, address: stateOf(res).address } },
        callOf(res, session),
      );
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if ([Status.INVALID_ARGUMENT, Status.UNAUTHENTICATED, Status.FAILED_PRECONDITION].includes(error.status)) {
        return again(`That code was not accepted (${error.message}). Enter the current code from your app.`);
      }
      throw error;
    }
    if (session.stage === 'enrol_totp') {
      // More access than before: a new session id for it, as at every sign-in.
      const { cookies, sessions } = deps;
      const signedIn = await sessions.start(session, 'signed_in', { replacing: session.id });
      cookies.set(res, cookies.session, signedIn.id);
    }
    res.redirect(303, '/?notice=totp-on');
  });

  return router;
}
