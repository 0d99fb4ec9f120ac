import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { createMigratedDatabase, REPO_ROOT, startService, type TestDatabase } from '@corridor/testing';

/**
 * A database of the service's with its migrations applied (`dist/migrate.js up`, once per test run,
 * server and build: @corridor/testing copies the rest from a template); throws with the output on
 * failure. `root` is the build whose migrations run (this tree's unless given, e.g. a previous
 * release's): its template is its own, named after a digest of the root's path.
 */
export function migratedDatabase(
  service: string,
  adminUrl: string | undefined,
  root: string = REPO_ROOT,
): Promise<TestDatabase> {
  const migrate = async (url: string) => {
    const run = await startService({
      service,
      root,
      script: 'dist/migrate.js',
      args: ['up'],
      env: { DATABASE_URL: url },
    });
    const code = await run.exited;
    if (code !== 0) throw new Error(`${service} migrations failed (${code}):\n${run.output()}`);
  };
  const release = sameRoot(root, REPO_ROOT)
    ? undefined
    : createHash('sha256').update(resolve(root)).digest('hex').slice(0, 12);
  return createMigratedDatabase(`e2e_${service}`, { service, release, migrate }, adminUrl);
}

/** Whether two roots name one folder (REPO_ROOT ends with a slash, a caller's may not). */
export const sameRoot = (a: string, b: string) => resolve(a) === resolve(b);
