import type { MigrationObject } from '@corridor/db';
import { Migration20261121300000WebhookEndpoints } from './Migration20261121300000WebhookEndpoints.js';
import { Migration20261121400000WebhookDeliveries } from './Migration20261121400000WebhookDeliveries.js';
import { Migration20261122100000IdempotencyKeys } from './Migration20261122100000IdempotencyKeys.js';
import { Migration20261124400000Autovacuum } from './Migration20261124400000Autovacuum.js';
import { Migration20261124500000DeliveryListIndexes } from './Migration20261124500000DeliveryListIndexes.js';
import { Migration20261125100000AttemptsInFlight } from './Migration20261125100000AttemptsInFlight.js';
import { Migration20261126100000DeadLetters } from './Migration20261126100000DeadLetters.js';
import { Migration20261201100000ListenPositions } from './Migration20261201100000ListenPositions.js';
import { Migration20261202100000SigningSecretOverlap } from './Migration20261202100000SigningSecretOverlap.js';
import { Migration20261203100000EventHistory } from './Migration20261203100000EventHistory.js';
import { Migration20261204100000EndpointHealth } from './Migration20261204100000EndpointHealth.js';
import { Migration20261205100000SandboxClock } from './Migration20261205100000SandboxClock.js';

/** Every migration of notification, oldest first. */
export const migrations: MigrationObject[] = [
  { name: 'Migration20261121300000WebhookEndpoints', class: Migration20261121300000WebhookEndpoints },
  { name: 'Migration20261121400000WebhookDeliveries', class: Migration20261121400000WebhookDeliveries },
  { name: 'Migration20261122100000IdempotencyKeys', class: Migration20261122100000IdempotencyKeys },
  { name: 'Migration20261124400000Autovacuum', class: Migration20261124400000Autovacuum },
  { name: 'Migration20261124500000DeliveryListIndexes', class: Migration20261124500000DeliveryListIndexes },
  { name: 'Migration20261125100000AttemptsInFlight', class: Migration20261125100000AttemptsInFlight },
  { name: 'Migration20261126100000DeadLetters', class: Migration20261126100000DeadLetters },
  { name: 'Migration20261201100000ListenPositions', class: Migration20261201100000ListenPositions },
  { name: 'Migration20261202100000SigningSecretOverlap', class: Migration20261202100000SigningSecretOverlap },
  { name: 'Migration20261203100000EventHistory', class: Migration20261203100000EventHistory },
  { name: 'Migration20261204100000EndpointHealth', class: Migration20261204100000EndpointHealth },
  { name: 'Migration20261205100000SandboxClock', class: Migration20261205100000SandboxClock },
];
