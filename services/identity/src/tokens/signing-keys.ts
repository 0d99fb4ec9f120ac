import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import type { MikroORM } from '@corridor/db';
import type { Clock } from '@corridor/runtime';
import type { IdentitySecrets } from '../secrets/identity-secrets.js';
import { SigningKeyRecord } from './signing-key.entity.js';

export interface ActiveSigningKey {
  keyId: string;
  privateKey: KeyObject;
  publicJwk: Record<string, string>;
}

/**
 * The Ed25519 key tokens are signed with. Made once, on the first start against an empty database
 * (serialized across replicas by an advisory lock), and read by every start after that.
 */
export async function loadSigningKey(orm: MikroORM, secrets: IdentitySecrets, now: Clock): Promise<ActiveSigningKey> {
  return orm.em.fork().transactional(async (em) => {
    await em
      .getConnection()
      .execute(`select pg_advisory_xact_lock(hashtext('corridor-signing-key'))`, [], 'run', em.getTransactionContext());
    const [existing] = await em.find(SigningKeyRecord, {}, { orderBy: { createdAt: 'desc' }, limit: 1 });
    if (existing) {
      const privateKey = createPrivateKey({
        key: secrets.decrypt(existing.privateKeySealed),
        format: 'der',
        type: 'pkcs8',
      });
      return { keyId: existing.keyId, privateKey, publicJwk: existing.publicJwk };
    }
    const { privateKey } = generateKeyPairSync('ed25519');
    const jwk = (await exportJWK(createPublicKey(privateKey))) as Record<string, string>;
    const keyId = await calculateJwkThumbprint(jwk);
    const publicJwk = { ...jwk, kid: keyId, alg: 'EdDSA', use: 'sig' };
    em.create(SigningKeyRecord, {
      keyId,
      publicJwk,
      privateKeySealed: secrets.encrypt(privateKey.export({ format: 'der', type: 'pkcs8' })),
      createdAt: now(),
    });
    return { keyId, privateKey, publicJwk };
  });
}
