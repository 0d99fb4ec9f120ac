import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** OAuth client credentials; the secret itself is never stored, only its keyed hash. */
export const Credential = defineEntity({
  name: 'Credential',
  tableName: 'credential',
  properties: {
    clientId: p.text().primary(),
    businessId: p.uuid(),
    secretHash: p.blob(),
    scopes: p.json<string[]>(),
    generation: p.integer(),
    createdAt: p.datetime(),
    rotatedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
  },
});

export type Credential = InferEntity<typeof Credential>;
