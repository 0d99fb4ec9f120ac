import { migratedSchemaMismatches } from '@corridor/testing';
import { paymentsDatabase } from './database.js';

it("payments' entities agree with the schema its migrations make (tables, columns, types, nullability)", async () => {
  expect(await migratedSchemaMismatches('payments', paymentsDatabase)).toEqual([]);
});
