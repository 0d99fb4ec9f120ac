import { OutboxMessage } from '@corridor/bus';
import type { ServiceDatabaseOptions } from '@corridor/db';
import { migrations } from './migrations/index.js';

/** Payments reads and writes with SQL of its own (ledger statements, keyset lists); the outbox is the one entity. */
export function paymentsDatabase(databaseUrl: string): ServiceDatabaseOptions {
  return { databaseUrl, entities: [OutboxMessage], migrations, poolMax: 20 };
}
