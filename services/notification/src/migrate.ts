import { fileURLToPath } from 'node:url';
import { runMigrationCommand } from '@corridor/db';
import { loadConfig } from '@corridor/config';
import { notificationConfigShape } from './config.js';
import { notificationDatabase } from './database.js';

const { DATABASE_URL } = loadConfig('notification migrate', { DATABASE_URL: notificationConfigShape.DATABASE_URL });
const migrationsDir = fileURLToPath(new URL('../src/migrations', import.meta.url));
process.exitCode = await runMigrationCommand(process.argv.slice(2), {
  ...notificationDatabase(DATABASE_URL),
  migrationsDir,
});
