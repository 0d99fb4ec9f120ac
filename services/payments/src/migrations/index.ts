import type { MigrationObject } from '@corridor/db';
import { Migration20261124000000Ledger } from './Migration20261124000000Ledger.js';
import { Migration20261124100000Payouts } from './Migration20261124100000Payouts.js';
import { Migration20261124200000Collections } from './Migration20261124200000Collections.js';
import { Migration20261124400000Autovacuum } from './Migration20261124400000Autovacuum.js';
import { Migration20261124500000ListIndexes } from './Migration20261124500000ListIndexes.js';
import { Migration20261126100000DeadLetters } from './Migration20261126100000DeadLetters.js';
import { Migration20261205100000SandboxClock } from './Migration20261205100000SandboxClock.js';

/** Every migration of payments, oldest first. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261124000000Ledger', class: Migration20261124000000Ledger },
  { name: 'Migration20261124100000Payouts', class: Migration20261124100000Payouts },
  { name: 'Migration20261124200000Collections', class: Migration20261124200000Collections },
  { name: 'Migration20261124400000Autovacuum', class: Migration20261124400000Autovacuum },
  { name: 'Migration20261124500000ListIndexes', class: Migration20261124500000ListIndexes },
  { name: 'Migration20261126100000DeadLetters', class: Migration20261126100000DeadLetters },
  { name: 'Migration20261205100000SandboxClock', class: Migration20261205100000SandboxClock },
];
