import { MikroORM, ormOptions } from '@corridor/db';
import { createTestDatabase, type TestDatabase } from '@corridor/testing';
import { customerKybDatabase } from '../src/database.js';

/** What a suite may watch of its statements: the hook returns the SQL to run. */
export type OnQuery = (sql: string, params: readonly unknown[]) => string;

/**
 * customer-kyb's integration-spec runner (as Medusa's moduleIntegrationTestRunner): a database of the
 * suite's own, created and migrated by start() (in beforeAll), dropped by stop() (in afterAll).
 * Every integration spec that needs customer-kyb's schema opens it here, so none repeats the set-up.
 */
export function customerKybTestDatabase(name: string, options: { onQuery?: OnQuery } = {}) {
  let db: TestDatabase | undefined;
  let orm: MikroORM | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error(`the database of ${name} is not open: call start() in beforeAll`);
    return value;
  };
  return {
    async start(): Promise<void> {
      db = await createTestDatabase(name);
      const database = customerKybDatabase(db.url);
      orm = await MikroORM.init({
        ...ormOptions({ ...database, logger: () => undefined }),
        ...(options.onQuery ? { onQuery: options.onQuery } : {}),
      });
      await orm.migrator.up();
    },
    async stop(): Promise<void> {
      await orm?.close();
      await db?.drop();
    },
    orm: () => started(orm),
    /** A fresh unit of work. */
    em: () => started(orm).em.fork(),
    url: () => started(db).url,
  };
}
