import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** An Ed25519 token signing key; the private half is encrypted with a key derived from IDENTITY_SECRET_KEY. */
export const SigningKeyRecord = defineEntity({
  name: 'SigningKeyRecord',
  tableName: 'signing_key',
  properties: {
    keyId: p.text().primary(),
    publicJwk: p.json<Record<string, string>>(),
    privateKeySealed: p.blob(),
    createdAt: p.datetime(),
  },
});

export type SigningKeyRecord = InferEntity<typeof SigningKeyRecord>;
