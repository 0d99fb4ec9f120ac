import { fileURLToPath } from 'node:url';
import { runMigrationCommand } from '@corridor/db';
import { loadConfig } from '@corridor/config';
import { paymentsConfigShape } from './config.js';
import { paymentsDatabase } from './database.js';

const { DATABASE_URL } = loadConfig('payments migrate', { DATABASE_URL: paymentsConfigShape.DATABASE_URL });
const migrationsDir = fileURLToPath(new URL('../src/migrations', import.meta.url));
process.exitCode = await runMigrationCommand(process.argv.slice(2), {
  ...paymentsDatabase(DATABASE_URL),
  migrationsDir,
});
