import { generateKeyPairSync } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, SignJWT } from 'jose';
import { createLogger } from '@corridor/logging';
import { TokenKeys } from './token-keys.js';
import { TokenRejected, verifyAccessToken } from './verify-token.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const NOW = 1_800_000_000;

async function signingKeys(published: { current: boolean }) {
  const jwk = await exportJWK(publicKey);
  const keyId = await calculateJwkThumbprint(jwk);
  let fetches = 0;
  // identity's GetSigningKeys, answering from memory: this spec is about the gateway's side only.
  const identity = {
    async getSigningKeys() {
      fetches += 1;
      return {
        keys: published.current ? [{ keyId, publicJwk: JSON.stringify({ ...jwk, kid: keyId, alg: 'EdDSA' }) }] : [],
        issuer: 'corridor:sandbox',
        audience: 'corridor-api:sandbox',
      };
    },
  };
  const keys = new TokenKeys(identity as never, createLogger('test', { level: 'silent' }));
  await keys.fetch();
  return { keys, keyId, fetches: () => fetches };
}

function token(keyId: string, exp: number, clientId = 'ci_test_1') {
  return new SignJWT({ client_id: clientId, scope: 'customer:read', gen: 1, env: 'sandbox' })
    .setProtectedHeader({ alg: 'EdDSA', kid: keyId, typ: 'at+jwt' })
    .setIssuer('corridor:sandbox')
    .setAudience('corridor-api:sandbox')
    .setSubject('b-1')
    .setIssuedAt(NOW - 60)
    .setExpirationTime(exp)
    .sign(privateKey);
}

describe('verifyAccessToken', () => {
  it('accepts a token signed by the published key and returns the caller', async () => {
    const { keys, keyId } = await signingKeys({ current: true });
    const caller = await verifyAccessToken(await token(keyId, NOW + 3600), keys, NOW);
    expect(caller).toEqual({
      businessId: 'b-1',
      clientId: 'ci_test_1',
      scopes: ['customer:read'],
      generation: 1,
      environment: 'sandbox',
      expiresAt: NOW + 3600,
    });
  });

  it('a token verified once is still refused after it expires', async () => {
    const { keys, keyId } = await signingKeys({ current: true });
    const jwt = await token(keyId, NOW + 10, 'ci_test_expiring');
    await expect(verifyAccessToken(jwt, keys, NOW)).resolves.toMatchObject({ clientId: 'ci_test_expiring' });
    await expect(verifyAccessToken(jwt, keys, NOW + 11)).rejects.toMatchObject({ problem: 'expired' });
  });

  it('a token verified once is refused once identity no longer publishes its key', async () => {
    const published = { current: true };
    const { keys, keyId } = await signingKeys(published);
    const jwt = await token(keyId, NOW + 3600, 'ci_test_withdrawn');
    await verifyAccessToken(jwt, keys, NOW);
    published.current = false;
    await keys.fetch();
    const error = await verifyAccessToken(jwt, keys, NOW).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRejected);
    expect(error).toMatchObject({ problem: 'bad_signature' });
  });

  it('a token signed by another key is a bad signature, not a cache hit', async () => {
    const { keys, keyId } = await signingKeys({ current: true });
    const other = generateKeyPairSync('ed25519').privateKey;
    const forged = await new SignJWT({ client_id: 'ci_test_1', scope: '', gen: 1, env: 'sandbox' })
      .setProtectedHeader({ alg: 'EdDSA', kid: keyId, typ: 'at+jwt' })
      .setIssuer('corridor:sandbox')
      .setAudience('corridor-api:sandbox')
      .setSubject('b-1')
      .setExpirationTime(NOW + 3600)
      .sign(other);
    await expect(verifyAccessToken(forged, keys, NOW)).rejects.toMatchObject({ problem: 'bad_signature' });
    await expect(verifyAccessToken(forged, keys, NOW)).rejects.toMatchObject({ problem: 'bad_signature' });
  });

  it('names a token of another environment as such', async () => {
    const { keys, keyId } = await signingKeys({ current: true });
    const production = await new SignJWT({ client_id: 'ci_live_1', scope: '', gen: 1, env: 'production' })
      .setProtectedHeader({ alg: 'EdDSA', kid: keyId, typ: 'at+jwt' })
      .setIssuer('corridor:production')
      .setAudience('corridor-api:production')
      .setSubject('b-1')
      .setExpirationTime(NOW + 3600)
      .sign(privateKey);
    await expect(verifyAccessToken(production, keys, NOW)).rejects.toMatchObject({
      problem: 'wrong_environment',
      message: expect.stringContaining('issued for production'),
    });
  });
});
