import { OutboxMessage } from '@corridor/bus';
import type { ServiceDatabaseOptions } from '@corridor/db';
import { AuditEntry } from './audit/audit-entry.entity.js';
import { Customer, KybDocument, Owner } from './customers/customer.entity.js';
import { StoredFile } from './files/stored-file.entity.js';
import { migrations } from './migrations/index.js';

export function customerKybDatabase(databaseUrl: string): ServiceDatabaseOptions {
  return {
    databaseUrl,
    entities: [Customer, Owner, KybDocument, StoredFile, AuditEntry, OutboxMessage],
    migrations,
  };
}
