import type { MigrationObject } from '@corridor/db';
import { Migration20261121000000Initial } from './Migration20261121000000Initial.js';
import { Migration20261121100000Credentials } from './Migration20261121100000Credentials.js';
import { Migration20261124400000Autovacuum } from './Migration20261124400000Autovacuum.js';
import { Migration20261128000000Members } from './Migration20261128000000Members.js';
import { Migration20261128234500TotpLastStep } from './Migration20261128234500TotpLastStep.js';

/** Every migration of identity, oldest first. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261121000000Initial', class: Migration20261121000000Initial },
  { name: 'Migration20261121100000Credentials', class: Migration20261121100000Credentials },
  { name: 'Migration20261124400000Autovacuum', class: Migration20261124400000Autovacuum },
  { name: 'Migration20261128000000Members', class: Migration20261128000000Members },
  { name: 'Migration20261128234500TotpLastStep', class: Migration20261128234500TotpLastStep },
];
