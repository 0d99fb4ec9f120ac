import type { Platform } from '../../test/dist/support/platform.js';

/** Long enough for identity's password rule (at least 12 characters). */
const PASSWORD = 'bench horse battery staple 42';

/** What renderToStaticMarkup escapes in an attribute, undone: an href or a token as the browser reads it. */
export const unescapeAttribute = (value: string) =>
  value
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/** The href of the page's "Next page" link (a cursor page's), if it has one. */
export function nextPageHref(html: string): string | undefined {
  for (const anchor of html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/g)) {
    const [, attributes = '', text = ''] = anchor;
    const isNext =
      /\brel="next"/.test(attributes) ||
      text
        .replace(/<[^>]*>/g, '')
        .trim()
        .startsWith('Next page');
    const href = /\bhref="([^"]*)"/.exec(attributes)?.[1];
    if (isNext && href) return unescapeAttribute(href);
  }
  return undefined;
}

/** `name=value` of the first Set-Cookie whose name ends with `name` (the `__Host-` prefix off loopback). */
function cookieFrom(response: Response, name: string): string {
  for (const header of response.headers.getSetCookie()) {
    const [pair = ''] = header.split(';');
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim().endsWith(name)) return pair.trim();
  }
  throw new Error(`${response.url} (${response.status}) set no ${name} cookie`);
}

/**
 * A signed-in member's session cookie (`corridor_session=…`), made as a person makes one: the back
 * office invites the member (the admin API's sandbox answer carries the invitation_url), the member
 * opens the link and posts name and password with the form's CSRF token; the dashboard signs them in
 * and answers 303 to TOTP enrolment, which a sandbox member may skip.
 */
export async function memberSession(
  platform: Platform,
  dashboardUrl: string,
  businessId: string,
  role = 'owner',
): Promise<string> {
  const email = `bench-${role}-${businessId.slice(0, 8)}@example.com`;
  const invited = await platform.admin(`/admin/businesses/${businessId}/members`, {
    method: 'POST',
    body: JSON.stringify({ email, role }),
  });
  if (invited.status !== 201) throw new Error(`invite ${email}: ${invited.status} ${await invited.text()}`);
  const { invitation_url: link } = (await invited.json()) as { invitation_url?: string };
  if (!link) throw new Error(`the admin API's invitation of ${email} has no invitation_url`);
  // The link names the platform's dashboard origin; called on the one this bench was given.
  const url = `${dashboardUrl}${new URL(link).pathname}`;

  const form = await fetch(url);
  if (form.status !== 200) throw new Error(`GET ${url}: ${form.status}`);
  const formCookie = cookieFrom(form, 'corridor_form');
  const token = /name="csrf_token" value="([^"]*)"/.exec(await form.text())?.[1];
  if (!token) throw new Error(`GET ${url}: no csrf_token in the invitation form`);

  const joined = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: formCookie, origin: dashboardUrl },
    body: new URLSearchParams({
      csrf_token: unescapeAttribute(token),
      name: 'Bench Owner',
      password: PASSWORD,
      confirm: PASSWORD,
    }).toString(),
  });
  if (joined.status !== 303) throw new Error(`POST ${url}: ${joined.status} ${await joined.text()}`);
  const session = cookieFrom(joined, 'corridor_session');

  // Signed in, not waiting on a TOTP step (a production owner would be): home answers 200.
  const home = await fetch(`${dashboardUrl}/`, { redirect: 'manual', headers: { cookie: session } });
  if (home.status !== 200)
    throw new Error(`GET / as the new member: ${home.status} ${home.headers.get('location') ?? ''}`);
  return session;
}
