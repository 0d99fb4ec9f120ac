import { ErrorSummary, Field, Notice, PostForm } from '../layout/components.js';

export function SignInForm({ email = '', error, notice }: { email?: string; error?: string; notice?: string }) {
  return (
    <>
      <Notice message={notice} />
      <ErrorSummary message={error} />
      <PostForm action="/sign-in">
        <Field label="Email" name="email" type="email" autoComplete="username" required defaultValue={email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <button type="submit">Sign in</button>
      </PostForm>
      <p>
        <a href="/password-reset">Forgot your password?</a>
      </p>
    </>
  );
}

export function TotpForm({ error }: { error?: string }) {
  return (
    <>
      <ErrorSummary message={error} />
      <p>Enter the 6-digit code your authenticator app shows for Corridor.</p>
      <PostForm action="/sign-in/totp">
        <Field
          label="Code"
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9 ]*"
          maxLength={8}
          required
        />
        <button type="submit">Continue</button>
      </PostForm>
      <p>
        <a href="/sign-in">Start again</a>
      </p>
    </>
  );
}

/** When sign-in is refused for a while: says until when, in the member's words. */
export function TryLaterPage({ message }: { message: string }) {
  return (
    <>
      <p role="alert">{message}</p>
      <p>
        <a href="/password-reset">Reset your password</a> if you have forgotten it.
      </p>
    </>
  );
}

const TIME = new Intl.DateTimeFormat('en-GB', { timeStyle: 'short', timeZone: 'UTC' });

export function retryMessage(waitSeconds: number, now: Date): string {
  const at = new Date(now.getTime() + waitSeconds * 1000);
  const minutes = Math.max(1, Math.ceil(waitSeconds / 60));
  return `Too many failed sign-ins came from your address. Try again after ${TIME.format(at)} UTC (in about ${minutes} minute${minutes === 1 ? '' : 's'}).`;
}
