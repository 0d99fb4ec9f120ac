import type { MigrationObject } from '@corridor/db';
import { Migration20261121200000Initial } from './Migration20261121200000Initial.js';

/** Every migration of customer-kyb, oldest first. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261121200000Initial', class: Migration20261121200000Initial },
];
