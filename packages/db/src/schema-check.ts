import { DatabaseSchema, SchemaComparator, type MikroORM } from '@mikro-orm/postgresql';

/**
 * Column differences that break reads or writes through the ORM. Everything else the schema has and
 * the entities don't declare is expected: the migrations own indexes, checks (the entities' enums are
 * check constraints there), defaults, triggers and foreign keys, and tables only SQL reaches.
 */
const BREAKING = ['type', 'nullable', 'generated', 'autoincrement', 'unsigned'] as const;

/**
 * Where the entities of `orm` disagree with the schema its database has (migrations are the truth:
 * `snapshot: false`, nothing generates them from entities): an entity's table or column missing, a
 * column of another type or nullability, or a NOT NULL column without default that no entity
 * property fills (an insert would fail). One line per difference; empty when they agree.
 */
export async function entitySchemaMismatches(orm: MikroORM): Promise<string[]> {
  const platform = orm.em.getPlatform();
  const entities = orm.schema.getTargetSchema();
  const migrated = await DatabaseSchema.create(orm.em.getConnection(), platform, orm.config);
  const difference = new SchemaComparator(platform).compare(migrated, entities);
  const mismatches = Object.keys(difference.newTables).map((table) => `${table}: no such table`);
  for (const [table, changes] of Object.entries(difference.changedTables)) {
    for (const column of Object.keys(changes.addedColumns)) mismatches.push(`${table}.${column}: no such column`);
    for (const [column, change] of Object.entries(changes.changedColumns)) {
      const breaking = BREAKING.filter((property) => change.changedProperties.has(property));
      if (breaking.length === 0) continue;
      const describe = (c: typeof change.column) => `${c.type}${c.nullable ? ' null' : ' not null'}`;
      mismatches.push(
        `${table}.${column}: differs in ${breaking.join(', ')} (schema ${describe(change.fromColumn)}, entity ${describe(change.column)})`,
      );
    }
    for (const [column, definition] of Object.entries(changes.removedColumns)) {
      if (!definition.nullable && definition.default == null && !definition.generated && !definition.autoincrement) {
        mismatches.push(`${table}.${column}: not null without default, and no entity property fills it`);
      }
    }
  }
  return mismatches.sort();
}
