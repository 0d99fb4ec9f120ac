import { fileURLToPath } from 'node:url';
import { runMigrationCommand } from '@corridor/db';
import { loadConfig } from '@corridor/config';
import { identityConfigShape } from './config.js';
import { identityDatabase } from './database.js';

const { DATABASE_URL } = loadConfig('identity migrate', { DATABASE_URL: identityConfigShape.DATABASE_URL });
const migrationsDir = fileURLToPath(new URL('../src/migrations', import.meta.url));
process.exitCode = await runMigrationCommand(process.argv.slice(2), {
  ...identityDatabase(DATABASE_URL),
  migrationsDir,
});
