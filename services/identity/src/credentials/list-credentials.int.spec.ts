import { timestampDate } from '@bufbuild/protobuf/wkt';
import { Status } from '@corridor/grpc';
import { integrationDatabase } from '@corridor/testing';
import { createBusiness } from '../businesses/create-business.js';
import type { IdentityContext } from '../context.js';
import { identityDatabase } from '../database.js';
import { IdentitySecrets } from '../secrets/identity-secrets.js';
import { issueToken, type TokenSettings } from '../tokens/issue-token.js';
import { loadSigningKey, type ActiveSigningKey } from '../tokens/signing-keys.js';
import { createCredential, getCredential, listCredentials, revokeCredential } from './manage-credentials.js';

describe('identity: listing credentials and when they were last used (real PostgreSQL)', () => {
  const database = integrationDatabase('identity', identityDatabase);
  let key: ActiveSigningKey;
  const secrets = new IdentitySecrets('l'.repeat(64));
  const start = new Date('2026-11-28T09:00:00.000Z');
  let now = start;
  const clock = () => new Date(now.getTime());
  const context: IdentityContext = { environment: 'sandbox', topic: 'test.corridor.identity.v1', now: clock };
  const tokens: TokenSettings = {
    environment: 'sandbox',
    issuer: 'corridor:sandbox',
    audience: 'corridor-api:sandbox',
    lifetimeSeconds: 3600,
    now: clock,
  };

  beforeAll(async () => {
    key = await loadSigningKey(database.orm, secrets, clock);
  });

  it("lists a business's credentials newest first in cursor pages, revoked ones too, never another's", async () => {
    const businessId = (await createBusiness(database.em(), context, { name: 'Lister' })).id;
    const other = (await createBusiness(database.em(), context, { name: 'Other' })).id;
    await createCredential(database.em(), context, secrets, { businessId: other, bundles: [], scopes: [] });
    const made: string[] = [];
    for (let n = 0; n < 5; n++) {
      now = new Date(start.getTime() + n * 1_000);
      const { credential } = await createCredential(database.em(), context, secrets, {
        businessId,
        bundles: [],
        scopes: [],
      });
      made.push(credential.clientId);
    }
    await revokeCredential(database.em(), context, made[0] ?? '');

    const first = await listCredentials(database.em(), businessId, { cursor: '', limit: 2 });
    expect(first.credentials.map((c) => c.clientId)).toEqual([made[4], made[3]]);
    const second = await listCredentials(database.em(), businessId, { cursor: first.page.nextCursor ?? '', limit: 2 });
    expect(second.credentials.map((c) => c.clientId)).toEqual([made[2], made[1]]);
    const third = await listCredentials(database.em(), businessId, { cursor: second.page.nextCursor ?? '', limit: 2 });
    expect(third.credentials.map((c) => [c.clientId, c.revoked])).toEqual([[made[0], true]]);
    expect(third.page.nextCursor).toBeUndefined();
    const back = await listCredentials(database.em(), businessId, {
      cursor: third.page.previousCursor ?? '',
      limit: 2,
    });
    expect(back.credentials.map((c) => c.clientId)).toEqual([made[2], made[1]]);

    await expect(
      listCredentials(database.em(), businessId, { cursor: 'bm90IGEgY3Vyc29y', limit: 2 }),
    ).rejects.toMatchObject({
      status: Status.INVALID_ARGUMENT,
    });
  });

  it('IssueToken sets last_used_at, and writes it again only once it is a minute old', async () => {
    now = start;
    const businessId = (await createBusiness(database.em(), context, { name: 'User' })).id;
    const { credential, clientSecret } = await createCredential(database.em(), context, secrets, {
      businessId,
      bundles: [],
      scopes: [],
    });
    expect(credential.lastUsedAt).toBeUndefined();
    const mint = () =>
      issueToken(database.em(), secrets, key, tokens, {
        clientId: credential.clientId,
        clientSecret,
        scope: undefined,
        clientIp: '127.0.0.1',
      });
    const lastUsed = async () => {
      const read = await getCredential(database.em(), credential.clientId);
      return read.lastUsedAt ? timestampDate(read.lastUsedAt) : undefined;
    };

    now = new Date(start.getTime() + 10_000);
    await mint();
    expect(await lastUsed()).toEqual(now);
    const firstUse = now;
    now = new Date(start.getTime() + 50_000);
    await mint();
    expect(await lastUsed()).toEqual(firstUse);
    now = new Date(start.getTime() + 75_000);
    await mint();
    expect(await lastUsed()).toEqual(now);
    const listed = await listCredentials(database.em(), businessId, undefined);
    expect(listed.credentials[0]?.lastUsedAt).toBeDefined();
  });
});
