import { migratedSchemaMismatches } from '@corridor/testing';
import { notificationDatabase } from './database.js';

it("notification's entities agree with the schema its migrations make (tables, columns, types, nullability)", async () => {
  expect(await migratedSchemaMismatches('notification', notificationDatabase)).toEqual([]);
});
