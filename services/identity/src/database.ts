import { OutboxMessage } from '@corridor/bus';
import type { ServiceDatabaseOptions } from '@corridor/db';
import { AuditEntry } from './audit/audit-entry.entity.js';
import { Business } from './businesses/business.entity.js';
import { Credential } from './credentials/credential.entity.js';
import { Mail } from './mail/mail.entity.js';
import { Member, MemberToken } from './members/member.entity.js';
import { SigningKeyRecord } from './tokens/signing-key.entity.js';
import { migrations } from './migrations/index.js';

export function identityDatabase(databaseUrl: string): ServiceDatabaseOptions {
  return {
    databaseUrl,
    entities: [Business, Credential, SigningKeyRecord, OutboxMessage, Member, MemberToken, AuditEntry, Mail],
    migrations,
  };
}
