import { createMigratedDatabase, startService, type TestDatabase } from '@corridor/testing';

/**
 * A database of the service's with its migrations applied (`dist/migrate.js up`, once per test run
 * and server: @corridor/testing copies the rest from a template); throws with the output on failure.
 */
export function migratedDatabase(service: string, adminUrl: string | undefined): Promise<TestDatabase> {
  const migrate = async (url: string) => {
    const run = await startService({ service, script: 'dist/migrate.js', args: ['up'], env: { DATABASE_URL: url } });
    const code = await run.exited;
    if (code !== 0) throw new Error(`${service} migrations failed (${code}):\n${run.output()}`);
  };
  return createMigratedDatabase(`e2e_${service}`, { service, migrate }, adminUrl);
}
