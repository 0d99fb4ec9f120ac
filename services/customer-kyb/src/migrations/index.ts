import type { MigrationObject } from '@corridor/db';
import { Migration20261121200000Initial } from './Migration20261121200000Initial.js';
import { Migration20261122100000IdempotencyKeys } from './Migration20261122100000IdempotencyKeys.js';
import { Migration20261124300000KycSessions } from './Migration20261124300000KycSessions.js';
import { Migration20261124400000Autovacuum } from './Migration20261124400000Autovacuum.js';
import { Migration20261124500000ReviewQueueIndexes } from './Migration20261124500000ReviewQueueIndexes.js';
import { Migration20261201100000SandboxPlaceholders } from './Migration20261201100000SandboxPlaceholders.js';
import { Migration20261205100000SandboxClock } from './Migration20261205100000SandboxClock.js';

/** Every migration of customer-kyb, oldest first. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261121200000Initial', class: Migration20261121200000Initial },
  { name: 'Migration20261122100000IdempotencyKeys', class: Migration20261122100000IdempotencyKeys },
  { name: 'Migration20261124300000KycSessions', class: Migration20261124300000KycSessions },
  { name: 'Migration20261124400000Autovacuum', class: Migration20261124400000Autovacuum },
  { name: 'Migration20261124500000ReviewQueueIndexes', class: Migration20261124500000ReviewQueueIndexes },
  { name: 'Migration20261201100000SandboxPlaceholders', class: Migration20261201100000SandboxPlaceholders },
  { name: 'Migration20261205100000SandboxClock', class: Migration20261205100000SandboxClock },
];
