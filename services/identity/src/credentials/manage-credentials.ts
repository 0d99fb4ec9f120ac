import { randomBytes } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  CredentialSchema,
  type Credential as CredentialMessage,
} from '@corridor/contracts/corridor/identity/v1/credential_pb';
import type { CursorPage } from '@corridor/contracts/corridor/pagination/v1/cursor_pb';
import { dateOf, sql } from '@corridor/db';
import { failedPrecondition, invalidArgument, notFound } from '@corridor/grpc';
import { keysetPage, keysetRead } from '@corridor/pagination';
import { isUuid } from '@corridor/validation';
import { expandGrant } from '@corridor/scopes';
import { LockMode, type EntityManager } from '@mikro-orm/core';
import { Business } from '../businesses/business.entity.js';
import { recordIdentityEvent, type IdentityContext } from '../context.js';
import type { IdentitySecrets } from '../secrets/identity-secrets.js';
import { Credential } from './credential.entity.js';

export interface IssuedCredential {
  credential: CredentialMessage;
  /** Shown once; only its keyed hash is stored. */
  clientSecret: string;
}

export interface ScopeSelection {
  bundles: string[];
  scopes: string[];
}

/** "test" in sandbox and "live" in production, so a leaked secret tells where it works. */
const environmentTag = (environment: IdentityContext['environment']) =>
  environment === 'production' ? 'live' : 'test';

/** 256 random bits with a recognisable prefix (cs_test_…, cs_live_…). */
function newClientSecret(environment: IdentityContext['environment']): string {
  return `cs_${environmentTag(environment)}_${randomBytes(32).toString('base64url')}`;
}

function newClientId(environment: IdentityContext['environment']): string {
  return `ci_${environmentTag(environment)}_${randomBytes(16).toString('hex')}`;
}

/**
 * Whether `clientId` has the shape newClientId gives: any other was never issued, so it is refused
 * without a query (a NUL in it would otherwise reach PostgreSQL, which cannot compare it; issue 18).
 */
export const couldBeClientId = (clientId: string) => /^ci_(test|live)_[0-9a-f]{32}$/.test(clientId);

function grantedScopes(selection: ScopeSelection): string[] {
  const grant = expandGrant(selection.bundles, selection.scopes);
  if (!grant.ok)
    throw invalidArgument(`${grant.field} ${grant.problem}`, { [grant.field]: [grant.problem] }, 'INVALID_SCOPE');
  return grant.scopes;
}

export function toCredentialMessage(credential: Credential): CredentialMessage {
  return create(CredentialSchema, {
    clientId: credential.clientId,
    businessId: credential.businessId,
    scopes: credential.scopes,
    generation: credential.generation,
    revoked: credential.revokedAt !== null && credential.revokedAt !== undefined,
    createdAt: timestampFromDate(credential.createdAt),
    rotatedAt: credential.rotatedAt ? timestampFromDate(credential.rotatedAt) : undefined,
    lastUsedAt: credential.lastUsedAt ? timestampFromDate(credential.lastUsedAt) : undefined,
  });
}

function recordChange(
  tx: EntityManager,
  context: IdentityContext,
  message: CredentialMessage,
  change: 'created' | 'rotated' | 'revoked',
) {
  recordIdentityEvent(tx, context, message.businessId, {
    case: 'credentialChanged',
    value: { credential: message, change },
  });
}

const credentialNotFound = (clientId: string) => notFound('CREDENTIAL_NOT_FOUND', `credentials ${clientId} not found`);

async function lockedCredential(tx: EntityManager, clientId: string): Promise<Credential> {
  if (!couldBeClientId(clientId)) throw credentialNotFound(clientId);
  const credential = await tx.findOne(Credential, { clientId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!credential) throw credentialNotFound(clientId);
  return credential;
}

export async function createCredential(
  em: EntityManager,
  context: IdentityContext,
  secrets: IdentitySecrets,
  input: ScopeSelection & { businessId: string },
): Promise<IssuedCredential> {
  const scopes = grantedScopes(input);
  return em.transactional(async (tx) => {
    const business = isUuid(input.businessId) ? await tx.findOne(Business, { id: input.businessId }) : null;
    if (!business) throw notFound('BUSINESS_NOT_FOUND', `business ${input.businessId} not found`);
    const clientSecret = newClientSecret(context.environment);
    const credential = tx.create(Credential, {
      clientId: newClientId(context.environment),
      businessId: business.id,
      secretHash: secrets.hashClientSecret(clientSecret),
      scopes,
      generation: 1,
      createdAt: context.now(),
      rotatedAt: null,
      revokedAt: null,
      lastUsedAt: null,
    });
    const message = toCredentialMessage(credential);
    recordChange(tx, context, message, 'created');
    return { credential: message, clientSecret };
  });
}

/** seed 5 rule 1: a new secret, optionally new scopes; the old secret and its tokens stop working. */
export async function rotateCredential(
  em: EntityManager,
  context: IdentityContext,
  secrets: IdentitySecrets,
  input: ScopeSelection & { clientId: string },
): Promise<IssuedCredential> {
  const newScopes = input.bundles.length > 0 || input.scopes.length > 0 ? grantedScopes(input) : undefined;
  return em.transactional(async (tx) => {
    const credential = await lockedCredential(tx, input.clientId);
    if (credential.revokedAt)
      throw failedPrecondition('CREDENTIAL_REVOKED', `credentials ${input.clientId} are revoked and cannot be rotated`);
    const clientSecret = newClientSecret(context.environment);
    credential.secretHash = secrets.hashClientSecret(clientSecret);
    credential.generation += 1;
    credential.rotatedAt = context.now();
    if (newScopes) credential.scopes = newScopes;
    const message = toCredentialMessage(credential);
    recordChange(tx, context, message, 'rotated');
    return { credential: message, clientSecret };
  });
}

/** Revoking twice is not an error: the credentials are revoked either way. */
export async function revokeCredential(
  em: EntityManager,
  context: IdentityContext,
  clientId: string,
): Promise<CredentialMessage> {
  return em.transactional(async (tx) => {
    const credential = await lockedCredential(tx, clientId);
    if (credential.revokedAt) return toCredentialMessage(credential);
    credential.revokedAt = context.now();
    const message = toCredentialMessage(credential);
    recordChange(tx, context, message, 'revoked');
    return message;
  });
}

export async function getCredential(em: EntityManager, clientId: string): Promise<CredentialMessage> {
  const credential = couldBeClientId(clientId) ? await em.findOne(Credential, { clientId }) : null;
  if (!credential) throw credentialNotFound(clientId);
  return toCredentialMessage(credential);
}

/** The business's credentials, revoked ones too, newest first, in keyset pages on (created_at, client_id). */
export async function listCredentials(
  em: EntityManager,
  businessId: string,
  page: { cursor: string; limit: number } | undefined,
): Promise<{ credentials: CredentialMessage[]; page: Omit<CursorPage, '$typeName'> }> {
  const read = keysetRead(page, { isId: couldBeClientId, idColumn: 'client_id' });
  if (!isUuid(businessId)) return { credentials: [], page: { limit: read.limit } };
  const rows = await sql<{ client_id: string; created_at: Date }>(
    em,
    `select client_id, created_at from credential where business_id = ? ${read.seek ? `and ${read.seek}` : ''}
      order by ${read.order} limit ?`,
    [businessId, ...read.seekParams, read.limit + 1],
  );
  const listed = keysetPage(rows, read, (row) => ({ createdAt: dateOf(row.created_at), id: row.client_id }));
  const found = await em.find(Credential, { clientId: { $in: listed.rows.map((row) => row.client_id) } });
  const byId = new Map(found.map((credential) => [credential.clientId, credential]));
  return {
    credentials: listed.rows.flatMap((row) => {
      const credential = byId.get(row.client_id);
      return credential ? [toCredentialMessage(credential)] : [];
    }),
    page: { nextCursor: listed.nextCursor, previousCursor: listed.previousCursor, limit: listed.limit },
  };
}
