import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { OpenAPIObject } from 'openapi3-ts/oas31';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const REDOCLY = join(ROOT, 'node_modules', '.bin', 'redocly');

/**
 * For document specs: Redocly's summary of a document linted with the root redocly.yaml (the
 * recommended rules), the same lint for every document the gateway serves.
 */
export async function redoclyLint(document: OpenAPIObject): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'corridor-openapi-'));
  try {
    const file = join(directory, 'openapi.json');
    await writeFile(file, JSON.stringify(document, null, 2));
    const lint = await promisify(execFile)(REDOCLY, ['lint', file, '--format=summary'], {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    }).catch((failed: { stdout: string; stderr: string }) => failed);
    return `${lint.stdout}${lint.stderr}`;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
