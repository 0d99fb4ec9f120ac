import { randomBytes } from 'node:crypto';
import { segment, type AdminApi } from '../admin-api.js';
import { AdminApiError, CliError } from '../errors.js';
import { isRecord, send, type Fetch } from '../http.js';
import { readSandboxFile, writeSandboxFile, type SandboxFile } from './sandbox-file.js';

export const DEFAULT_DASHBOARD_URL = 'http://127.0.0.1:8090';
export const SANDBOX_OWNER_EMAIL = 'owner@sandbox.corridor.test';
const OWNER_NAME = 'Sandbox Owner';

export interface OwnerSeedOptions {
  api: AdminApi;
  /** The dashboard's origin, where the invitation form is accepted (and what the file names). */
  dashboardUrl: string;
  file: string;
  fetchImpl: Fetch;
  /** The generated password; tests pass their own. */
  newPassword?: () => string;
}

export interface OwnerSeedOutcome {
  reused: boolean;
  reason: string;
  sandbox: SandboxFile;
}

/** Is `email` an active member of the business? (The sandbox business has a handful at most.) */
async function isActiveMember(api: AdminApi, businessId: string, email: string): Promise<boolean> {
  const page = await api.call('GET', `/admin/businesses/${segment(businessId)}/members?per_page=100`);
  const members = isRecord(page) && Array.isArray(page.data) ? page.data : [];
  return members.some((m) => isRecord(m) && m.email === email.toLowerCase() && m.status === 'active');
}

/** Invites `email` as owner; the sandbox's answer carries the single-use link's token. */
async function invite(api: AdminApi, businessId: string, email: string): Promise<string> {
  const answer = await api.call('POST', `/admin/businesses/${segment(businessId)}/members`, { email, role: 'owner' });
  const url = isRecord(answer) && typeof answer.invitation_url === 'string' ? answer.invitation_url : undefined;
  if (!url) throw new CliError('the admin API answered no invitation_url: only a sandbox gateway does');
  const token = new URL(url).pathname.split('/').pop();
  if (!token) throw new CliError(`no token in the invitation_url ${url}`);
  return token;
}

/** `name=value` of each Set-Cookie, as a browser would send them back. */
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');

/**
 * Accepts the invitation through the dashboard's own form, as the invited person's browser does:
 * GET /invitation/<token> (the form's CSRF token and its double-submitted cookie), then POST it
 * from the dashboard's origin; the dashboard calls identity's AcceptInvitation and signs in.
 */
async function acceptInDashboard(options: OwnerSeedOptions, token: string, password: string): Promise<void> {
  const origin = new URL(options.dashboardUrl).origin;
  const url = `${origin}/invitation/${encodeURIComponent(token)}`;
  const form = await send(options.fetchImpl, url, { method: 'GET', redirect: 'manual' });
  const html = await form.text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  if (form.status !== 200 || !csrf)
    throw new CliError(
      `the dashboard's invitation page ${origin}/invitation/… answered ${form.status} without its form`,
    );
  const accepted = await send(options.fetchImpl, url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookiesOf(form), origin },
    body: new URLSearchParams({ csrf_token: csrf, name: OWNER_NAME, password, confirm: password }).toString(),
  });
  await accepted.body?.cancel();
  if (accepted.status !== 303)
    throw new CliError(`the dashboard did not accept the invitation (HTTP ${accepted.status}; its log may say why)`);
}

/**
 * `npm start`'s dashboard owner of the sandbox business, made once: kept while `.local/sandbox.json`
 * names one that is still an active member of that business; otherwise invited through the admin
 * API, accepted with a generated password through the dashboard, and written to the file.
 */
export async function seedSandboxOwner(options: OwnerSeedOptions): Promise<OwnerSeedOutcome> {
  const existing = await readSandboxFile(options.file);
  if (!existing) throw new CliError(`${options.file} does not exist: run corridor admin sandbox seed first`);
  const dashboardUrl = new URL(options.dashboardUrl).origin;
  const { dashboard_email: email, dashboard_password: password } = existing;
  let reason = 'no dashboard owner in the file yet';
  if (email && password) {
    if (await isActiveMember(options.api, existing.business_id, email)) {
      const sandbox = { ...existing, dashboard_url: dashboardUrl };
      if (existing.dashboard_url !== dashboardUrl) await writeSandboxFile(options.file, sandbox);
      return { reused: true, reason: `${email} is an active owner of ${existing.business_id}`, sandbox };
    }
    reason = `${email} is not an active member of ${existing.business_id}`;
  }
  // Emails are unique among an environment's members: another business (an earlier sandbox) or a
  // half-done earlier seed may hold the plain one.
  let owner = SANDBOX_OWNER_EMAIL;
  let token: string;
  try {
    token = await invite(options.api, existing.business_id, owner);
  } catch (error) {
    if (!(error instanceof AdminApiError && error.httpStatus === 409)) throw error;
    owner = `owner-${randomBytes(4).toString('hex')}@sandbox.corridor.test`;
    token = await invite(options.api, existing.business_id, owner);
  }
  const newPassword = (options.newPassword ?? (() => randomBytes(18).toString('base64url')))();
  await acceptInDashboard(options, token, newPassword);
  const sandbox: SandboxFile = {
    ...existing,
    dashboard_url: dashboardUrl,
    dashboard_email: owner,
    dashboard_password: newPassword,
  };
  await writeSandboxFile(options.file, sandbox);
  return { reused: false, reason, sandbox };
}
