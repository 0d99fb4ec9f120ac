import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError } from './errors.js';
import { readSandboxFile, sandboxFilePath, type SandboxFile } from './sandbox/sandbox-file.js';

export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:8081';

/** Where and as whom the CLI calls the admin API. */
export interface Connection {
  adminUrl: string;
  adminToken: string;
}

export interface ConnectionFlags {
  adminUrl?: string;
  adminToken?: string;
}

/**
 * The repository's `.local/`, where `npm start` keeps its state. deploy/local exports
 * CORRIDOR_LOCAL; otherwise it is found from this file's place (packages/admin-cli/{src,dist}),
 * so `pnpm corridor` works from any directory.
 */
export function localDirectory(env: Record<string, string | undefined>): string {
  return env.CORRIDOR_LOCAL || fileURLToPath(new URL('../../../.local/', import.meta.url));
}

async function readTokenFile(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, 'utf8')).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Each setting from the first place that has it: the flag, the environment, `.local/sandbox.json`
 * (what the last `npm start` used), then the local defaults. sandbox.json is only read when
 * something is still missing, so a broken file does not stand in the way of explicit settings.
 */
export async function resolveConnection(
  flags: ConnectionFlags,
  env: Record<string, string | undefined>,
  localDir: string,
): Promise<Connection> {
  let adminUrl = flags.adminUrl || env.CORRIDOR_ADMIN_URL;
  let adminToken = flags.adminToken || env.ADMIN_TOKEN;
  if (!adminUrl || !adminToken) {
    const sandbox: SandboxFile | undefined = await readSandboxFile(sandboxFilePath(localDir));
    adminUrl ||= sandbox?.admin_url;
    adminToken ||= sandbox?.admin_token;
  }
  adminUrl ||= DEFAULT_ADMIN_URL;
  adminToken ||= await readTokenFile(join(localDir, 'admin-token'));
  if (!adminToken) {
    throw new CliError(
      `no admin token: pass --admin-token, set ADMIN_TOKEN, or run npm start (it writes ${join(localDir, 'admin-token')})`,
    );
  }
  return { adminUrl, adminToken };
}
