import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** seed part 8: 120 requests per minute and 1,500 per hour unless an administrator changes them. */
export const DEFAULT_RATE_LIMITS = { perMinute: 120, perHour: 1_500 } as const;

export const Business = defineEntity({
  name: 'Business',
  tableName: 'business',
  properties: {
    id: p.uuid().primary(),
    name: p.text(),
    environment: p.text(),
    apiEnabled: p.boolean(),
    kybMinimalAllowed: p.boolean(),
    ipAllowlist: p.json<string[]>(),
    rateLimitPerMinute: p.integer(),
    rateLimitPerHour: p.integer(),
    version: p.bigint('number'),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export type Business = InferEntity<typeof Business>;
