import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A platform's webhook registration (seed 2.4; decision 0009): one per business. The signing
 * secret is kept sealed with a key derived from NOTIFICATION_SECRET_KEY, its last four characters
 * in clear so GET can show which secret is in force without opening it.
 */
export const WebhookEndpoint = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoint',
  properties: {
    id: p.uuid().primary(),
    businessId: p.uuid().unique(),
    collectionUrl: p.text(),
    payoutUrl: p.text(),
    /** null: the business has no KYC receiver (customer.status_changed then goes to collectionUrl). */
    kycUrl: p.text().nullable(),
    signingSecretSealed: p.blob(),
    signingSecretLast4: p.text(),
    /**
     * The secret a rotation replaced, sealed as it was, while it still signs beside the current one
     * (decision 0065); null when no overlap is open. Past expiresAt it no longer signs.
     */
    previousSigningSecretSealed: p.blob().nullable(),
    previousSigningSecretLast4: p.text().nullable(),
    previousSigningSecretExpiresAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export type WebhookEndpoint = InferEntity<typeof WebhookEndpoint>;
