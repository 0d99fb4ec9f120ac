import { chmod, readFile, rename, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CliError } from '../errors.js';
import { isRecord } from '../http.js';

/** `.local/sandbox.json`, the contract of DESIGN.md "Local operation". */
export interface SandboxFile {
  base_url: string;
  admin_url: string;
  admin_token: string;
  business_id: string;
  client_id: string;
  client_secret: string;
  /** The sandbox business's dashboard owner (`corridor admin sandbox seed-owner`), once seeded. */
  dashboard_url?: string;
  dashboard_email?: string;
  dashboard_password?: string;
}

const FIELDS = ['base_url', 'admin_url', 'admin_token', 'business_id', 'client_id', 'client_secret'] as const;
/** Written when present; a new sandbox business drops them (its owner is another business's). */
const OPTIONAL_FIELDS = ['dashboard_url', 'dashboard_email', 'dashboard_password'] as const;

export const sandboxFilePath = (localDir: string) => join(localDir, 'sandbox.json');

function isSandboxFile(value: unknown): value is SandboxFile {
  return isRecord(value) && FIELDS.every((field) => typeof value[field] === 'string' && value[field] !== '');
}

/** The file's contents; undefined when there is none; a CliError when it is not a sandbox file. */
export async function readSandboxFile(path: string): Promise<SandboxFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isRecord(error) && error.code === 'ENOENT') return undefined;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(`${path} is not JSON; delete it and run npm start again`);
  }
  if (!isSandboxFile(parsed)) throw new CliError(`${path} lacks one of ${FIELDS.join(', ')}`);
  return parsed;
}

/**
 * Written to a temporary file and renamed over the old one, so a reader never sees half a file;
 * mode 0600 because it holds the admin token and a client secret.
 */
export async function writeSandboxFile(path: string, sandbox: SandboxFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  const ordered = Object.fromEntries(
    [...FIELDS, ...OPTIONAL_FIELDS]
      .filter((field) => sandbox[field] !== undefined)
      .map((field) => [field, sandbox[field]]),
  );
  await writeFile(temporary, `${JSON.stringify(ordered, null, 2)}\n`, { mode: 0o600 });
  // writeFile's mode applies only when it creates the file; a leftover temp file keeps its own.
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}
