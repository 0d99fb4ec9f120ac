import type { KycSessionView } from '@corridor/contracts/corridor/customer/v1/kyc_session_pb';
import { escapeHtml, htmlPage, noticePage, pageTime, styleSource } from '../floor/html-page.js';
import {
  kindsCaptured,
  kindsNeeded,
  returnUrlOf,
  statusWordOf,
  type CaptureKind,
  type SessionStatusWord,
} from './verification-view.js';

/**
 * The person's verification pages (decision 0016). Every value is escaped; the stylesheet is
 * inline and allowed by its hash, the one script is a file of this origin, so the policy refuses
 * every inline script.
 */

export const SCRIPT_PATH = '/verify/assets/verify.js';

const STYLE = [
  'body{font-family:system-ui,-apple-system,sans-serif;margin:0;background:#f5f6f8;color:#1b1f24}',
  'main{max-width:30rem;margin:3rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002}',
  'h1{font-size:1.25rem;margin:0 0 1rem}h2{font-size:1rem;margin:0 0 .25rem}',
  'section{border:1px solid #d5d9df;border-radius:8px;padding:1rem;margin:0 0 1rem}',
  '.hint{color:#5b6470;margin:0 0 .75rem;font-size:.9rem}',
  '.state{font-weight:600;margin:.75rem 0 0}',
  '.sandbox{background:#fff6d6;border-radius:8px;padding:.5rem .75rem;font-size:.9rem}',
  'input[type=file]{display:block;margin:0 0 .5rem}',
  'button{font:inherit;padding:.6rem 1.2rem;border-radius:8px;border:1px solid #1b1f24;background:#fff;cursor:pointer}',
  'button:disabled{opacity:.5;cursor:default}',
  '#submit{background:#1b1f24;color:#fff;width:100%}',
  '#status{min-height:1.5rem;margin:1rem 0 0}',
  'a{color:#0b57d0}',
].join('');

/**
 * Only this origin's script and its own stylesheet run; the script talks to the gateway and to
 * the storage origin the presigned uploads point at, nothing else. No Referer carries the token.
 */
export function contentSecurityPolicy(uploadOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${styleSource(STYLE)}`,
    `connect-src 'self' ${uploadOrigin}`,
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

const page = (title: string, body: string, mainAttributes = '') => htmlPage(STYLE, title, body, mainAttributes);

const ASKED: Record<CaptureKind, { title: string; hint: string; accept: string; standIn: string }> = {
  document: {
    title: 'Identity document',
    hint: 'A photo or scan of your passport, national identity card or driving licence: PDF, JPEG or PNG.',
    accept: 'application/pdf,image/jpeg,image/png',
    standIn: 'Use a stand-in document',
  },
  selfie: {
    title: 'Selfie',
    hint: 'A clear photo of your face, looking at the camera: JPEG or PNG.',
    accept: 'image/jpeg,image/png',
    standIn: 'Take a stand-in selfie',
  },
};

const GIVEN = 'Received';
const NOT_GIVEN = 'Not given yet';

/** What #status says while the person is giving files; the script says the same as they go. */
export function stillNeededText(needed: readonly CaptureKind[], captured: readonly CaptureKind[]): string {
  const missing = needed.filter((kind) => !captured.includes(kind));
  if (missing.length === 0) return 'Everything is ready: press Submit.';
  return `Still needed: ${missing.map((kind) => `your ${kind}`).join(' and ')}.`;
}

function askedSection(kind: CaptureKind, captured: boolean, sandbox: boolean): string {
  const asked = ASKED[kind];
  // A selfie input opens the front camera on phones; elsewhere it is a file picker.
  const capture = kind === 'selfie' ? ' capture="user"' : '';
  const standIn = sandbox ? `\n<button type="button" id="${kind}-standin">${escapeHtml(asked.standIn)}</button>` : '';
  return `<section id="${kind}" data-kind="${kind}">
<h2>${escapeHtml(asked.title)}</h2>
<p class="hint">${escapeHtml(asked.hint)}</p>
<input type="file" id="${kind}-file" accept="${asked.accept}"${capture} aria-label="${escapeHtml(asked.title)}">${standIn}
<p class="state" id="${kind}-state">${captured ? GIVEN : NOT_GIVEN}</p>
</section>`;
}

function returnLink(view: KycSessionView): string {
  const url = returnUrlOf(view);
  return url
    ? `<p id="return"><a href="${escapeHtml(url)}">Return to ${escapeHtml(view.businessName)}</a></p>`
    : '<p id="return" hidden></p>';
}

/** main's attributes: the script's state (where to post, what is needed) and the test's hooks. */
function mainAttributes(view: KycSessionView, token: string): string {
  const attribute = (name: string, value: string) => ` ${name}="${escapeHtml(value)}"`;
  return (
    attribute('data-base', `/verify/${encodeURIComponent(token)}`) +
    attribute('data-status', statusWordOf(view)) +
    attribute('data-needed', kindsNeeded(view).join(' ')) +
    attribute('data-captured', kindsCaptured(view).join(' '))
  );
}

export const CHECKING = 'Thank you — we are checking your details';

const CLOSED: Record<Exclude<SessionStatusWord, 'PENDING'>, { title: string; text: (business: string) => string }> = {
  PROCESSING: {
    title: CHECKING,
    text: (business) => `${business} will let you know the outcome. You can close this page.`,
  },
  COMPLETED: {
    title: 'Your verification is complete',
    text: (business) => `${business} has the outcome and will let you know. You can close this page.`,
  },
  EXPIRED: {
    title: 'This verification link has expired',
    text: (business) => `Nothing more can be given on it. Ask ${business} for a new link.`,
  },
  CANCELLED: {
    title: 'This verification was cancelled',
    text: (business) => `${business} cancelled it. If you still need to verify, ask them for a new link.`,
  },
};

/** The session's page: what is asked and the way to give it while PENDING, else where it stands. */
export function verificationPage(view: KycSessionView, token: string, sandbox: boolean): string {
  const business = escapeHtml(view.businessName);
  const status = statusWordOf(view);
  if (status !== 'PENDING') {
    const closed = CLOSED[status];
    const body = `<h1>${escapeHtml(closed.title)}</h1>
<p>${escapeHtml(closed.text(view.businessName))}</p>
<p id="status" role="status">${escapeHtml(closed.title)}</p>
${returnLink(view)}`;
    return page(closed.title, body, mainAttributes(view, token));
  }
  const needed = kindsNeeded(view);
  const captured = kindsCaptured(view);
  const expires = view.expiresAt ? pageTime(view.expiresAt) : undefined;
  const body = [
    '<h1>Verify your identity</h1>',
    `<p><strong>${business}</strong> asks you to confirm who you are.</p>`,
    expires ? `<p class="hint">This link works until ${escapeHtml(expires)}.</p>` : '',
    sandbox ? '<p class="sandbox">Sandbox: use the stand-in buttons, no real document is needed.</p>' : '',
    ...needed.map((kind) => askedSection(kind, captured.includes(kind), sandbox)),
    `<button type="button" id="submit"${needed.every((kind) => captured.includes(kind)) ? '' : ' disabled'}>Submit</button>`,
    `<p id="status" role="status" aria-live="polite">${escapeHtml(stillNeededText(needed, captured))}</p>`,
    returnLink(view),
    `<script src="${SCRIPT_PATH}" defer></script>`,
  ].filter((part) => part !== '');
  return page(`Verify your identity for ${view.businessName}`, body.join('\n'), mainAttributes(view, token));
}

export const notFoundPage = () =>
  noticePage(
    STYLE,
    'Verification not found',
    'This verification link is not valid. Check the link you were sent, or ask whoever sent it for a new one.',
  );

export const unavailablePage = () =>
  noticePage(STYLE, 'Please try again', 'Verification could not be reached just now. Reload this page shortly.');

export const failurePage = () => noticePage(STYLE, 'Something went wrong', 'Reload this page to try again.');
