import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The local server deploy/local starts (or reuses); overridable for other set-ups. */
export const POSTGRES_ADMIN_URL =
  process.env.TEST_POSTGRES_URL ?? 'postgres://corridor:corridor@127.0.0.1:5432/postgres';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh database for one test file, so suites never see each other's rows: empty, or a copy of
 * `template`; on the shared server unless given another's admin URL (a suite's own PostgresCluster).
 */
export async function createTestDatabase(
  prefix: string,
  adminUrl = POSTGRES_ADMIN_URL,
  template?: string,
): Promise<TestDatabase> {
  const name = `test_${prefix.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // A template's last migrating session may still be ending (55006, "being accessed by other users").
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt === 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await admin.end();
  }
  return testDatabaseAt(name, adminUrl);
}

/** A database that exists already, by name (e.g. one a shared test platform made). */
export function testDatabaseAt(name: string, adminUrl = POSTGRES_ADMIN_URL): TestDatabase {
  return {
    name,
    url: databaseUrl(adminUrl, name),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Runs one query against a database and returns its rows. */
export async function query<R extends pg.QueryResultRow>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Names this test run's template databases; set by jest's global set-up (test/global-setup.mjs).
 * Unset (a script, another runner): every migrated database is migrated afresh.
 */
export const TEST_RUN_ENV = 'CORRIDOR_TEST_RUN';
export const TEMPLATE_PREFIX = 'tpl_';

/**
 * A fresh database with a service's migrations applied, for one test file. Within a test run the
 * migrations run once per service and server, into a template database that every later database
 * is copied from (CREATE DATABASE … TEMPLATE: about 0.2 s, against 2 s and a process per service to
 * migrate): the run's templates are made from the dist it tests, so they can't be stale. `migrate`
 * applies the service's migrations to the database at the URL it is given; `release` names the
 * build they come from when it is not this tree's (a previous release's), which has a template of
 * its own.
 */
export async function createMigratedDatabase(
  prefix: string,
  template: { service: string; release?: string; migrate(url: string): Promise<void> },
  adminUrl = POSTGRES_ADMIN_URL,
): Promise<TestDatabase> {
  const run = process.env[TEST_RUN_ENV];
  if (!run) {
    const database = await createTestDatabase(prefix, adminUrl);
    await template.migrate(database.url);
    return database;
  }
  const release = template.release === undefined ? '' : `_${template.release}`;
  const templateName = `${TEMPLATE_PREFIX}${run}_${template.service}${release}`
    .replace(/[^a-z0-9_]/gi, '_')
    .toLowerCase();
  await ensureTemplate(templateName, adminUrl, template.migrate);
  return createTestDatabase(prefix, adminUrl, templateName);
}

/**
 * Makes the template once: under an advisory lock (parallel workers wait for the first), migrated
 * in place, then marked IS_TEMPLATE, which is what tells a finished template from one a killed run
 * left half-migrated (that one is dropped and made again).
 */
async function ensureTemplate(name: string, adminUrl: string, migrate: (url: string) => Promise<void>): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
    const found = await admin.query<{ datistemplate: boolean }>(
      'select datistemplate from pg_database where datname = $1',
      [name],
    );
    if (found.rows[0]?.datistemplate) return;
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    await migrate(databaseUrl(adminUrl, name));
    await admin.query(`alter database ${name} is_template true`);
  } finally {
    await admin.end(); // ends the session, and with it the advisory lock
  }
}

/** Drops the template databases `matches` selects by name (a run's own at its end, stale ones at a start). */
export async function dropTemplates(matches: (name: string) => boolean, adminUrl = POSTGRES_ADMIN_URL): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      'select datname from pg_database where datistemplate and datname like $1',
      [`${TEMPLATE_PREFIX}%`],
    );
    for (const { datname } of rows.filter((row) => matches(row.datname))) {
      await admin.query(`alter database ${datname} is_template false`);
      await admin.query(`drop database if exists ${datname} with (force)`);
    }
  } finally {
    await admin.end();
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
