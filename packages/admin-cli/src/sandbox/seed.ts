import { segment, type AdminApi } from '../admin-api.js';
import { AdminApiError, CliError } from '../errors.js';
import { isRecord, jsonOrError, send, type Fetch } from '../http.js';
import { seedSandboxMoney, type MoneySeedOutcome } from './money.js';
import { readSandboxFile, writeSandboxFile, type SandboxFile } from './sandbox-file.js';

export const SANDBOX_BUSINESS_NAME = 'Sandbox Platform';
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

export interface SeedOptions {
  api: AdminApi;
  adminToken: string;
  /** The public API the credentials are checked against and that the file names. */
  baseUrl: string;
  file: string;
  fetchImpl: Fetch;
}

export interface SeedOutcome {
  reused: boolean;
  /** Why a new business was made, or why the file was kept. */
  reason: string;
  sandbox: SandboxFile;
  money: MoneySeedOutcome;
}

function stringField(body: unknown, field: string, what: string): string {
  const value = isRecord(body) ? body[field] : undefined;
  if (typeof value !== 'string' || !value) throw new CliError(`the admin API's ${what} has no ${field}`);
  return value;
}

/** The client-credentials grant against the public API, as a platform would call it. */
async function requestToken(options: SeedOptions, sandbox: SandboxFile): Promise<Response> {
  return send(options.fetchImpl, `${options.baseUrl.replace(/\/+$/, '')}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: sandbox.client_id,
      client_secret: sandbox.client_secret,
    }).toString(),
  });
}

/**
 * Why the file's credentials cannot be kept, or undefined when they still work. Only answers that
 * say "these credentials are bad" lead to new ones; an unreachable or failing server is an error,
 * so a passing outage never leaves an operator with a second sandbox business.
 */
async function whyNotUsable(options: SeedOptions, sandbox: SandboxFile): Promise<string | undefined> {
  let credential: unknown;
  try {
    credential = await options.api.call('GET', `/admin/credentials/${segment(sandbox.client_id)}`);
  } catch (error) {
    if (error instanceof AdminApiError && error.httpStatus === 404)
      return `identity does not know ${sandbox.client_id} (a new database?)`;
    throw error;
  }
  if (isRecord(credential) && credential.revoked === true) return `${sandbox.client_id} is revoked`;
  if (isRecord(credential) && credential.business_id !== sandbox.business_id)
    return `${sandbox.client_id} belongs to business ${String(credential.business_id)}, not ${sandbox.business_id}`;
  const token = await requestToken(options, sandbox);
  if ([400, 401, 403].includes(token.status)) {
    const body: unknown = await token.json().catch(() => undefined);
    const message = isRecord(body) && typeof body.message === 'string' ? body.message : `HTTP ${token.status}`;
    return `no token for ${sandbox.client_id}: ${message}`;
  }
  await jsonOrError(token); // anything else that is not 2xx is the server's problem: report it
  return undefined;
}

/** A new "Sandbox Platform" business with credentials of the default full-access bundle. */
async function createSandbox(options: SeedOptions): Promise<SandboxFile> {
  const business = await options.api.call('POST', '/admin/businesses', { name: SANDBOX_BUSINESS_NAME });
  const businessId = stringField(business, 'id', 'new business');
  const credentials = await options.api.call('POST', `/admin/businesses/${segment(businessId)}/credentials`, {
    bundles: ['full-access'],
  });
  return {
    base_url: options.baseUrl,
    admin_url: options.api.adminUrl,
    admin_token: options.adminToken,
    business_id: businessId,
    client_id: stringField(credentials, 'client_id', 'new credentials'),
    client_secret: stringField(credentials, 'client_secret', 'new credentials'),
  };
}

/**
 * `npm start`'s sandbox, made idempotent: keeps `.local/sandbox.json` while its credentials
 * still get a token, and otherwise makes a new business and credentials and rewrites the file.
 * Then the business's money (rates and funded wallets), set only where missing.
 */
export async function seedSandbox(options: SeedOptions): Promise<SeedOutcome> {
  const { reused, reason, sandbox } = await seedBusiness(options);
  // After the file is written: if payments fails here, the next run keeps these credentials.
  const money = await seedSandboxMoney(options.api, sandbox.business_id);
  return { reused, reason, sandbox, money };
}

async function seedBusiness(options: SeedOptions): Promise<Omit<SeedOutcome, 'money'>> {
  let existing: SandboxFile | undefined;
  let reason = `${options.file} does not exist yet`;
  try {
    existing = await readSandboxFile(options.file);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    reason = error.message;
  }
  if (existing) {
    const problem = await whyNotUsable(options, existing);
    if (!problem) {
      // The credentials stay; the addresses and admin token follow the running deployment.
      const sandbox: SandboxFile = {
        ...existing,
        base_url: options.baseUrl,
        admin_url: options.api.adminUrl,
        admin_token: options.adminToken,
      };
      const moved =
        sandbox.base_url !== existing.base_url ||
        sandbox.admin_url !== existing.admin_url ||
        sandbox.admin_token !== existing.admin_token;
      if (moved) await writeSandboxFile(options.file, sandbox);
      return { reused: true, reason: `${existing.client_id} still gets a token`, sandbox };
    }
    reason = problem;
  }
  const sandbox = await createSandbox(options);
  await writeSandboxFile(options.file, sandbox);
  return { reused: false, reason, sandbox };
}
