import { migratedSchemaMismatches } from '@corridor/testing';
import { customerKybDatabase } from './database.js';

it("customer-kyb's entities agree with the schema its migrations make (tables, columns, types, nullability)", async () => {
  expect(await migratedSchemaMismatches('customer-kyb', customerKybDatabase)).toEqual([]);
});
