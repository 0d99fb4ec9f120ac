import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Migration, Migrator } from '@mikro-orm/migrations';
import { MikroORM, type EntityManager, type Options } from '@mikro-orm/postgresql';
import type { EntityManager as CoreEntityManager, EntitySchema, MigrationObject } from '@mikro-orm/core';

export { Migration, MikroORM, type EntityManager, type MigrationObject };
export { entitySchemaMismatches } from './schema-check.js';

export interface ServiceDatabaseOptions {
  /** postgres://user:password@host:port/database */
  databaseUrl: string;
  entities: EntitySchema[];
  /** Every migration of the service, oldest first; listed in code so a build needs no file discovery. */
  migrations: MigrationObject[];
  poolMax?: number;
  /** Where MikroORM's own log lines go; its default console logger when absent. */
  logger?: (message: string) => void;
}

/** One SQL statement (`?` placeholders) in the transaction of `em`, if it has one. */
export function sql<Row = Record<string, unknown>>(
  em: CoreEntityManager,
  statement: string,
  params: unknown[] = [],
): Promise<Row[]> {
  return em.getConnection().execute<Row[]>(statement, params, 'all', em.getTransactionContext());
}

/** A timestamptz column as the driver returns it (a Date, or text in a jsonb document) as a Date. */
export const dateOf = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));

export function ormOptions(options: ServiceDatabaseOptions): Options {
  return {
    clientUrl: options.databaseUrl,
    entities: options.entities,
    extensions: [Migrator],
    pool: { min: 0, max: options.poolMax ?? 10 },
    ...(options.logger ? { logger: options.logger } : {}),
    migrations: {
      migrationsList: options.migrations,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
    },
    // The request context is explicit (em.fork()) in every handler; the global em is never used.
    allowGlobalContext: false,
  };
}

export function openDatabase(options: ServiceDatabaseOptions): Promise<MikroORM> {
  return MikroORM.init(ormOptions(options));
}

/** One `select 1` through the service's pool: whether its database answers now (its readiness, issue 18). */
export async function pingDatabase(orm: MikroORM): Promise<void> {
  await orm.em.getConnection().execute('select 1');
}

/** Opens the database and applies every pending migration: for tests and tools, never a service start. */
export async function openMigratedDatabase(options: ServiceDatabaseOptions): Promise<MikroORM> {
  const orm = await openDatabase({ ...options, logger: options.logger ?? (() => undefined) });
  await orm.migrator.up();
  return orm;
}

const usage = `usage: migrate <command>
  up                 apply every pending migration
  down               revert the last applied migration
  pending            list migrations not applied yet
  create <Name>      write a blank migration to src/migrations (then add it to the list)`;

/**
 * The `migration:*` scripts of a service. Returns the process exit code.
 * `migrationsDir` is the service's src/migrations, used only by `create`.
 */
export async function runMigrationCommand(
  argv: readonly string[],
  options: ServiceDatabaseOptions & { migrationsDir: string },
): Promise<number> {
  const [command, name] = argv;
  if (command === 'create') {
    if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) {
      process.stderr.write(`${usage}\nthe name must be PascalCase, e.g. AddCustomerIndexes\n`);
      return 64;
    }
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const file = join(options.migrationsDir, `Migration${stamp}${name}.ts`);
    await mkdir(options.migrationsDir, { recursive: true });
    await writeFile(
      file,
      `import { Migration } from '@corridor/db';\n\nexport class Migration${stamp}${name} extends Migration {\n  override up(): void {\n    this.addSql(\`\`);\n  }\n}\n`,
      { flag: 'wx' },
    );
    process.stdout.write(`created ${file}\nadd it to the migrations list of the service\n`);
    return 0;
  }
  if (command !== 'up' && command !== 'down' && command !== 'pending') {
    process.stderr.write(`${usage}\n`);
    return 64;
  }
  // The command prints what it applied itself; MikroORM's per-step lines would repeat it.
  const orm = await openDatabase({ ...options, logger: () => undefined });
  try {
    if (command === 'pending') {
      const pending = await orm.migrator.getPending();
      process.stdout.write(pending.length ? pending.map((m) => `${m.name}\n`).join('') : 'no pending migrations\n');
    } else {
      const applied = command === 'up' ? await orm.migrator.up() : await orm.migrator.down();
      const verb = command === 'up' ? 'applied' : 'reverted';
      process.stdout.write(
        applied.length
          ? applied.map((m) => `${verb} ${m.name}\n`).join('')
          : `nothing to ${command === 'up' ? 'apply' : 'revert'}\n`,
      );
    }
    return 0;
  } finally {
    await orm.close();
  }
}
