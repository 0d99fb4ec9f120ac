// jest's global set-up (jest.config.mjs): names this run, so the suites' migrated databases are
// copied from templates of the run's own (@corridor/testing createMigratedDatabase), and drops the
// templates a killed run left behind. The suites inherit the variable (workers too).
import { randomBytes } from 'node:crypto';
import { dropTemplates, TEMPLATE_PREFIX, TEST_RUN_ENV } from '@corridor/testing';

/** A run's templates are named tpl_<yyyymmddhhmm>_<random>_<service>; older than this, nobody uses them. */
const STALE_AFTER_MS = 6 * 60 * 60 * 1000;

export default async function globalSetup() {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 12);
  process.env[TEST_RUN_ENV] ??= `${stamp}_${randomBytes(3).toString('hex')}`;
  await dropTemplates((name) => {
    const made = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})_/.exec(name.slice(TEMPLATE_PREFIX.length));
    if (!made) return false;
    const [, year, month, day, hour, minute] = made;
    return Date.now() - Date.UTC(+year, +month - 1, +day, +hour, +minute) > STALE_AFTER_MS;
  }).catch((error) => process.stderr.write(`[global-setup] stale templates not dropped: ${error.message}\n`));
}
