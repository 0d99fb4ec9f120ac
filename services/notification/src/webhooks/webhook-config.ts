import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  UrlDisabledReasonSchema,
  WebhookConfigSchema,
  WebhookDestinationSchema,
  type WebhookConfig,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { protoVocabulary } from '@corridor/grpc';
import { HEALTHY, type UrlHealth, type UrlKind } from '../health/url-health.js';
import type { WebhookEndpoint } from './webhook-endpoint.entity.js';

const KINDS = protoVocabulary(WebhookDestinationSchema, 'lower', 'the caller');
const REASONS = protoVocabulary(UrlDisabledReasonSchema, 'lower', 'the caller');

/** Each registered URL's health (decision 0068): a URL without a row is healthy. */
function urlHealthOf(endpoint: WebhookEndpoint, health: ReadonlyMap<UrlKind, UrlHealth>) {
  const kinds: UrlKind[] = ['collection_url', 'payout_url', ...(endpoint.kycUrl ? (['kyc_url'] as const) : [])];
  return kinds.map((kind) => {
    const { disabledAt, disabledReason, failingSince, consecutiveFailures } = health.get(kind) ?? HEALTHY;
    return {
      urlKind: KINDS.toProto(kind),
      disabled: disabledAt !== null,
      ...(disabledAt ? { disabledAt: timestampFromDate(disabledAt) } : {}),
      ...(disabledReason ? { reason: REASONS.toProto(disabledReason) } : {}),
      ...(failingSince ? { failingSince: timestampFromDate(failingSince) } : {}),
      consecutiveFailures,
    };
  });
}

/**
 * A registration as the API shows it. `signingSecret` only in the answers of register and update
 * (seed 4.3); GET shows the last four characters alone (decision 0009); `health` where it was read
 * (GET and enable: decision 0068).
 */
export function toWebhookConfig(
  endpoint: WebhookEndpoint,
  signingSecret?: string,
  now?: Date,
  health?: ReadonlyMap<UrlKind, UrlHealth>,
): WebhookConfig {
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
    urlHealth: health ? urlHealthOf(endpoint, health) : [],
  });
}
