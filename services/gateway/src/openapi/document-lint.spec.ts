import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { openApiDocument } from './document.js';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const REDOCLY = join(ROOT, 'node_modules', '.bin', 'redocly');

// issue 18: Redocly lint found 1 error (no servers) and 4 warnings in the served document.
describe('the OpenAPI document passes Redocly lint with its recommended rules (root redocly.yaml)', () => {
  let directory: string;
  beforeAll(async () => (directory = await mkdtemp(join(tmpdir(), 'corridor-openapi-'))));
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('has no error and no warning', async () => {
    const file = join(directory, 'openapi.json');
    await writeFile(file, JSON.stringify(openApiDocument({ tokenRequestsPerMinute: 30 }), null, 2));
    const lint = await promisify(execFile)(REDOCLY, ['lint', file, '--format=summary'], {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    }).catch((failed: { stdout: string; stderr: string }) => failed);
    // The summary lists each rule that fired; a clean run names none.
    expect(`${lint.stdout}${lint.stderr}`).toMatch(/Your API description is valid/);
    expect(`${lint.stdout}${lint.stderr}`).not.toMatch(/warning|error/i);
  }, 60_000);
});
