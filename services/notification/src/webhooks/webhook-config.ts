import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  WebhookConfigSchema,
  type WebhookConfig,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import type { WebhookEndpoint } from './webhook-endpoint.entity.js';

/**
 * A registration as the API shows it. `signingSecret` only in the answers of register and update
 * (seed 4.3); GET shows the last four characters alone (decision 0009).
 */
export function toWebhookConfig(endpoint: WebhookEndpoint, signingSecret?: string, now?: Date): WebhookConfig {
  const until = endpoint.previousSigningSecretExpiresAt;
  // An overlap is shown only while it lasts, so only where the caller says when "now" is.
  const overlap =
    now && until && until.getTime() > now.getTime()
      ? {
          previousSigningSecretLast4: endpoint.previousSigningSecretLast4 ?? '',
          previousSigningSecretExpiresAt: timestampFromDate(until),
        }
      : {};
  return create(WebhookConfigSchema, {
    ...overlap,
    id: endpoint.id,
    businessId: endpoint.businessId,
    collectionUrl: endpoint.collectionUrl,
    payoutUrl: endpoint.payoutUrl,
    kycUrl: endpoint.kycUrl ?? '',
    signingSecret: signingSecret ?? '',
    signingSecretLast4: endpoint.signingSecretLast4,
    createdAt: timestampFromDate(endpoint.createdAt),
    updatedAt: timestampFromDate(endpoint.updatedAt),
  });
}
