import { fileURLToPath } from 'node:url';
import { runMigrationCommand } from '@corridor/db';
import { loadConfig } from '@corridor/config';
import { customerKybConfigShape } from './config.js';
import { customerKybDatabase } from './database.js';

const { DATABASE_URL } = loadConfig('customer-kyb migrate', { DATABASE_URL: customerKybConfigShape.DATABASE_URL });
const migrationsDir = fileURLToPath(new URL('../src/migrations', import.meta.url));
process.exitCode = await runMigrationCommand(process.argv.slice(2), {
  ...customerKybDatabase(DATABASE_URL),
  migrationsDir,
});
