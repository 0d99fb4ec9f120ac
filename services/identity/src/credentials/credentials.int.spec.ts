import { type DomainError, Status } from '@corridor/grpc';
import { ALL_SCOPES } from '@corridor/scopes';
import { integrationDatabase, query } from '@corridor/testing';
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { createBusiness } from '../businesses/create-business.js';
import { updateBusiness } from '../businesses/update-business.js';
import type { IdentityContext } from '../context.js';
import { identityDatabase } from '../database.js';
import { IdentitySecrets } from '../secrets/identity-secrets.js';
import { issueToken, type TokenSettings } from '../tokens/issue-token.js';
import { loadSigningKey, type ActiveSigningKey } from '../tokens/signing-keys.js';
import { createCredential, getCredential, revokeCredential, rotateCredential } from './manage-credentials.js';

describe('identity: credentials and tokens (real PostgreSQL)', () => {
  const database = integrationDatabase('identity', identityDatabase);
  let key: ActiveSigningKey;
  const secrets = new IdentitySecrets('k'.repeat(64));
  const now = new Date('2026-11-21T10:00:00.000Z');
  const context: IdentityContext = { environment: 'sandbox', topic: 'test.corridor.identity.v1', now: () => now };
  const tokens: TokenSettings = {
    environment: 'sandbox',
    issuer: 'corridor:sandbox',
    audience: 'corridor-api:sandbox',
    lifetimeSeconds: 3600,
    now: () => now,
  };
  let businessId: string;

  beforeAll(async () => {
    key = await loadSigningKey(database.orm, secrets, context.now);
    businessId = (await createBusiness(database.em(), context, { name: 'Acme' })).id;
  });

  const token = (clientId: string, clientSecret: string, scope?: string) =>
    issueToken(database.em(), secrets, key, tokens, { clientId, clientSecret, scope, clientIp: '127.0.0.1' });

  it('creates full-access credentials by default and stores only a keyed hash of the secret', async () => {
    const { credential, clientSecret } = await createCredential(database.em(), context, secrets, {
      businessId,
      bundles: [],
      scopes: [],
    });
    expect(credential.scopes).toEqual(ALL_SCOPES);
    expect(clientSecret).toMatch(/^cs_test_[A-Za-z0-9_-]{43}$/);
    expect(credential.clientId).toMatch(/^ci_test_[0-9a-f]{32}$/);
    const [row] = await query<{ secret_hash: Buffer }>(
      database.url,
      'select secret_hash from credential where client_id = $1',
      [credential.clientId],
    );
    expect(row?.secret_hash.equals(secrets.hashClientSecret(clientSecret))).toBe(true);
    expect(row?.secret_hash.toString('utf8')).not.toContain(clientSecret);
    const [outbox] = await query<{ n: string }>(
      database.url,
      `select count(*) as n from outbox where message_key = $1`,
      [businessId],
    );
    expect(Number(outbox?.n)).toBeGreaterThanOrEqual(2); // business.created and credential.changed
  });

  it('mints an EdDSA token with the requested scopes, the generation and the environment audience', async () => {
    const { credential, clientSecret } = await createCredential(database.em(), context, secrets, {
      businessId,
      bundles: ['customers'],
      scopes: [],
    });
    const issued = await token(credential.clientId, clientSecret, 'customer:read');
    expect(issued).toMatchObject({ expiresIn: 3600, scopes: ['customer:read'] });
    expect(decodeProtectedHeader(issued.accessToken)).toMatchObject({ alg: 'EdDSA', kid: key.keyId, typ: 'at+jwt' });
    const publicKey = await importJWK(key.publicJwk, 'EdDSA');
    const { payload } = await jwtVerify(issued.accessToken, publicKey, {
      issuer: 'corridor:sandbox',
      audience: 'corridor-api:sandbox',
      currentDate: now,
    });
    expect(payload).toMatchObject({
      sub: businessId,
      client_id: credential.clientId,
      scope: 'customer:read',
      gen: 1,
      env: 'sandbox',
    });
    expect(payload.exp).toBe(now.getTime() / 1000 + 3600);
  });

  it('refuses a wrong secret and an unknown client alike', async () => {
    const { credential } = await createCredential(database.em(), context, secrets, {
      businessId,
      bundles: [],
      scopes: [],
    });
    const wrong = await token(credential.clientId, 'cs_test_wrong').catch((e: unknown) => e);
    const unknown = await token('ci_test_unknown', 'cs_test_wrong').catch((e: unknown) => e);
    expect(wrong).toMatchObject({ status: Status.UNAUTHENTICATED, reason: 'INVALID_CLIENT' });
    expect((unknown as DomainError).message).toBe((wrong as DomainError).message);
  });

  it('rotation: new secret and generation, optional new scopes; the old secret stops working', async () => {
    const { credential, clientSecret } = await createCredential(database.em(), context, secrets, {
      businessId,
      bundles: ['customers'],
      scopes: [],
    });
    const rotated = await rotateCredential(database.em(), context, secrets, {
      clientId: credential.clientId,
      bundles: [],
      scopes: ['webhook:read'],
    });
    expect(rotated.clientSecret).not.toBe(clientSecret);
    expect(rotated.credential).toMatchObject({ generation: 2, scopes: ['webhook:read'] });
    await expect(token(credential.clientId, clientSecret)).rejects.toMatchObject({ reason: 'INVALID_CLIENT' });
    const fresh = await token(credential.clientId, rotated.clientSecret, 'webhook:read');
    expect(decodeJwt(fresh.accessToken)).toMatchObject({ gen: 2 });
    // Rotating without naming scopes keeps them.
    const again = await rotateCredential(database.em(), context, secrets, {
      clientId: credential.clientId,
      bundles: [],
      scopes: [],
    });
    expect(again.credential).toMatchObject({ generation: 3, scopes: ['webhook:read'] });
  });

  it('revocation is final and idempotent', async () => {
    const { credential, clientSecret } = await createCredential(database.em(), context, secrets, {
      businessId,
      bundles: [],
      scopes: [],
    });
    expect((await revokeCredential(database.em(), context, credential.clientId)).revoked).toBe(true);
    expect((await revokeCredential(database.em(), context, credential.clientId)).revoked).toBe(true);
    await expect(token(credential.clientId, clientSecret)).rejects.toMatchObject({ reason: 'INVALID_CLIENT' });
    await expect(
      rotateCredential(database.em(), context, secrets, { clientId: credential.clientId, bundles: [], scopes: [] }),
    ).rejects.toMatchObject({
      status: Status.FAILED_PRECONDITION,
      reason: 'CREDENTIAL_REVOKED',
    });
    expect((await getCredential(database.em(), credential.clientId)).revoked).toBe(true);
  });

  it('a business without API services gets no token', async () => {
    const other = await createBusiness(database.em(), context, { name: 'Disabled Co' });
    const { credential, clientSecret } = await createCredential(database.em(), context, secrets, {
      businessId: other.id,
      bundles: [],
      scopes: [],
    });
    await updateBusiness(database.em(), context, { id: other.id, apiEnabled: false });
    await expect(token(credential.clientId, clientSecret)).rejects.toMatchObject({
      status: Status.PERMISSION_DENIED,
      reason: 'API_DISABLED',
    });
  });

  it('in production, a token is issued only to an address on the business allow-list (seed part 5)', async () => {
    const listed = await createBusiness(database.em(), context, { name: 'Listed Co' });
    const { credential, clientSecret } = await createCredential(database.em(), context, secrets, {
      businessId: listed.id,
      bundles: [],
      scopes: [],
    });
    await updateBusiness(database.em(), context, { id: listed.id, ipAllowlist: ['10.0.0.0/8'] });
    const production = { ...tokens, environment: 'production' as const };
    const from = (clientIp: string) =>
      issueToken(database.em(), secrets, key, production, {
        clientId: credential.clientId,
        clientSecret,
        scope: undefined,
        clientIp,
      });
    await expect(from('192.0.2.7')).rejects.toMatchObject({
      status: Status.PERMISSION_DENIED,
      reason: 'IP_NOT_ALLOWED',
    });
    const issued = await from('10.1.2.3');
    expect(decodeJwt(issued.accessToken)).toMatchObject({ sub: listed.id, env: 'production' });
    // The sandbox has no allow-list check: the same request from anywhere gets its token.
    await expect(token(credential.clientId, clientSecret)).resolves.toMatchObject({ expiresIn: 3600 });
  });

  it('the signing key survives a restart: the same key id is loaded, not a new one made', async () => {
    const second = await loadSigningKey(database.orm, secrets, () => new Date('2027-01-01T00:00:00.000Z'));
    expect(second.keyId).toBe(key.keyId);
    const keys = await query<{ created_at: Date }>(database.url, 'select created_at from signing_key');
    expect(keys).toEqual([{ created_at: now }]);
    const [stored] = await query<{ private_key_sealed: Buffer }>(
      database.url,
      'select private_key_sealed from signing_key',
    );
    expect(stored?.private_key_sealed.toString('utf8')).not.toContain('PRIVATE KEY');
  });

  it('updating a business bumps its version and refuses bad allow-list entries and limits by field', async () => {
    const updated = await updateBusiness(database.em(), context, {
      id: businessId,
      rateLimits: { perMinute: 60, perHour: 600 },
      ipAllowlist: ['203.0.113.0/24'],
    });
    expect(updated.version).toBe(2n);
    expect(updated.rateLimits).toMatchObject({ perMinute: 60, perHour: 600 });
    const unchanged = await updateBusiness(database.em(), context, {
      id: businessId,
      rateLimits: { perMinute: 60, perHour: 600 },
    });
    expect(unchanged.version).toBe(2n);
    const error = await updateBusiness(database.em(), context, {
      id: businessId,
      ipAllowlist: ['10.0.0.300'],
      rateLimits: { perMinute: 0, perHour: 10 },
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: Status.INVALID_ARGUMENT });
    expect(Object.keys((error as DomainError).fieldErrors ?? {}).sort()).toEqual([
      'ip_allowlist.0',
      'rate_limits.per_minute',
    ]);
  });
});
