import { entitySchemaMismatches, openMigratedDatabase, type ServiceDatabaseOptions } from '@corridor/db';
import { createTestDatabase } from './postgres.js';

/**
 * A service's entities against the schema its migrations make, in a database of its own that is
 * dropped afterwards: the differences entitySchemaMismatches names (none when they agree).
 */
export async function migratedSchemaMismatches(
  service: string,
  databaseOf: (url: string) => ServiceDatabaseOptions,
): Promise<string[]> {
  const db = await createTestDatabase(`${service}_schema`);
  try {
    const orm = await openMigratedDatabase(databaseOf(db.url));
    try {
      return await entitySchemaMismatches(orm);
    } finally {
      await orm.close();
    }
  } finally {
    await db.drop();
  }
}
