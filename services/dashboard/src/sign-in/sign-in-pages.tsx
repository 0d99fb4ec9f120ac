import { ErrorSummary, Field, Moment, Notice, PostForm } from '../layout/components.js';

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

/** An instant as identity writes it in a message (toISOString), e.g. 2026-11-21T09:45:00.000Z. */
const ISO_INSTANT = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/;
const MINUTE_MS = 60_000;

/**
 * identity's lockout message names the lock's end as an ISO instant ("try again after
 * 2026-11-21T09:45:12.000Z (in 15 minutes)"): shown as the layout's other times are, in words with
 * the instant in datetime. Moment shows minutes, so the end is rounded up to the next whole minute:
 * "after 09:45" must not name a time still inside the lock. The message's first letter is made a
 * capital, as it starts the page's sentence; the rest is identity's words.
 */
function RetryMessage({ message }: { message: string }) {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  const match = ISO_INSTANT.exec(text);
  const until = match ? new Date(match[0]) : undefined;
  if (!match || !until || Number.isNaN(until.getTime())) return <>{text}</>;
  const shown = new Date(Math.ceil(until.getTime() / MINUTE_MS) * MINUTE_MS);
  return (
    <>
      {text.slice(0, match.index)}
      <Moment at={shown} />
      {text.slice(match.index + match[0].length)}
    </>
  );
}

/** When sign-in is refused for a while: says until when, in the member's words. */
export function TryLaterPage({ message }: { message: string }) {
  return (
    <>
      <p role="alert">
        <RetryMessage message={message} />
      </p>
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
