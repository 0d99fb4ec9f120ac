import { OutboxMessage } from '@corridor/bus';
import type { ServiceDatabaseOptions } from '@corridor/db';
import { Business } from './businesses/business.entity.js';
import { Credential } from './credentials/credential.entity.js';
import { SigningKeyRecord } from './tokens/signing-key.entity.js';
import { migrations } from './migrations/index.js';

export function identityDatabase(databaseUrl: string): ServiceDatabaseOptions {
  return { databaseUrl, entities: [Business, Credential, SigningKeyRecord, OutboxMessage], migrations };
}
