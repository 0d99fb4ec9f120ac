import {
  openDatabase,
  openMigratedDatabase,
  type EntityManager,
  type MikroORM,
  type ServiceDatabaseOptions,
} from '@corridor/db';
import { createMigratedDatabase, type TestDatabase } from './postgres.js';

/** What an integration spec file reads of its database, once its beforeAll has run. */
export interface IntegrationDatabase {
  readonly url: string;
  readonly orm: MikroORM;
  /** A fresh entity manager, as one request of the service would have. */
  em(): EntityManager;
}

/**
 * The one integration-spec runner of a service's database (issue 32 part 4): registers the file's
 * beforeAll and afterAll, which copy the run's migrated template of `service` (migrations run once
 * per run, not once per file), open it, and at the end close and drop it. Called at the top of a
 * describe, its afterAll runs before the file's own (jest keeps the order of declaration), so what a
 * file starts on the database it stops in its tests.
 */
export function integrationDatabase(
  service: string,
  options: (databaseUrl: string) => ServiceDatabaseOptions,
): IntegrationDatabase {
  let database: TestDatabase | undefined;
  let orm: MikroORM | undefined;
  const opened = (): MikroORM => {
    if (!orm) throw new Error(`the ${service} integration database is read before its beforeAll ran`);
    return orm;
  };
  const handle: IntegrationDatabase = {
    get url() {
      if (!database) throw new Error(`the ${service} integration database is read before its beforeAll ran`);
      return database.url;
    },
    get orm() {
      return opened();
    },
    em: () => opened().em.fork(),
  };
  beforeAll(async () => {
    database = await createMigratedDatabase(service, {
      service,
      async migrate(url) {
        await (await openMigratedDatabase(options(url))).close();
      },
    });
    orm = await openDatabase({ ...options(database.url), logger: () => undefined });
  });
  afterAll(async () => {
    await orm?.close();
    await database?.drop();
  });
  return handle;
}
