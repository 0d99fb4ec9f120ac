import { entitySchemaMismatches, openMigratedDatabase } from '@corridor/db';
import { createTestDatabase, migratedSchemaMismatches } from '@corridor/testing';
import { identityDatabase } from './database.js';

describe("identity's entities and the schema its migrations make", () => {
  it('agree (tables, columns, types, nullability)', async () => {
    expect(await migratedSchemaMismatches('identity', identityDatabase)).toEqual([]);
  });

  it('are told apart when a migration changes a column behind an entity', async () => {
    const db = await createTestDatabase('identity_schema_drift');
    const orm = await openMigratedDatabase(identityDatabase(db.url));
    try {
      await orm.em.getConnection().execute(
        `alter table business alter column name drop not null;
         alter table business alter column kyb_minimal_allowed type text;
         alter table business drop column updated_at;
         alter table business add column region text not null default 'eu';
         alter table business add column tier text not null`,
      );
      expect(await entitySchemaMismatches(orm)).toEqual([
        'public.business.kyb_minimal_allowed: differs in type (schema text not null, entity boolean not null)',
        'public.business.name: differs in nullable (schema text null, entity text not null)',
        'public.business.tier: not null without default, and no entity property fills it',
        'public.business.updated_at: no such column',
      ]);
    } finally {
      await orm.close();
      await db.drop();
    }
  });
});
