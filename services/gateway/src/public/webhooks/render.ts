import type { WebhookConfig } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { DESTINATIONS, URL_DISABLED_REASONS } from '@corridor/grpc/notification-words';
import { iso, isoOrNull } from '../../floor/times.js';

/** The JSON answers of the webhook configuration routes (decision 0009), from notification's messages. */

/** A field notification must always fill; its absence is a defect (500), not the caller's. */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined || value === '') throw new Error(`notification returned no ${what}`);
  return value;
}

function render(webhook: WebhookConfig, secret: { signing_secret: string } | Record<string, never>) {
  return {
    id: webhook.id,
    collection_url: webhook.collectionUrl,
    payout_url: webhook.payoutUrl,
    kyc_url: webhook.kycUrl === '' ? null : webhook.kycUrl,
    ...secret,
    signing_secret_last4: webhook.signingSecretLast4,
    created_at: iso(present(webhook.createdAt, 'created_at')),
    updated_at: iso(present(webhook.updatedAt, 'updated_at')),
  };
}

/**
 * Each registered URL's health (decision 0068), by its field name; undefined when notification sent
 * none (a release before 0068), so the answer leaves it out rather than guess.
 */
function urlHealthOf(webhook: WebhookConfig) {
  if (webhook.urlHealth.length === 0) return undefined;
  return Object.fromEntries(
    webhook.urlHealth.map((health) => [
      DESTINATIONS.toWord(health.urlKind, 'url kind'),
      {
        status: health.disabled ? 'disabled' : 'enabled',
        disabled_at: isoOrNull(health.disabledAt),
        reason: health.disabled ? URL_DISABLED_REASONS.toWord(health.reason, 'disabled reason') : null,
        failing_since: isoOrNull(health.failingSince),
        consecutive_failures: health.consecutiveFailures,
      },
    ]),
  );
}

/** The registration as GET answers it: never the signing secret, whatever notification sent; each URL's health. */
export function webhookJson(response: { webhook?: WebhookConfig }) {
  const webhook = present(response.webhook, 'webhook');
  const health = urlHealthOf(webhook);
  return { ...render(webhook, {}), ...(health ? { url_health: health } : {}) };
}

/** Decision 0065: the secret a rotation replaced, while it still signs; nulls when no overlap is open. */
function overlapOf(webhook: WebhookConfig) {
  const until = webhook.previousSigningSecretExpiresAt;
  return {
    previous_signing_secret_last4: until ? webhook.previousSigningSecretLast4 : null,
    previous_signing_secret_expires_at: until ? iso(until) : null,
  };
}

/** The registration as the rotation answers it: the new signing secret, shown this once, and the overlap. */
export function rotatedWebhookJson(response: { webhook?: WebhookConfig }) {
  const webhook = present(response.webhook, 'webhook');
  return {
    ...render(webhook, { signing_secret: present(webhook.signingSecret, 'signing_secret') }),
    ...overlapOf(webhook),
  };
}

/** The registration once its overlap is ended: without the secret. */
export function overlapEndedWebhookJson(response: { webhook?: WebhookConfig }) {
  const webhook = present(response.webhook, 'webhook');
  return { ...render(webhook, {}), ...overlapOf(webhook) };
}

/** The registration as POST and PUT answer it: with the signing secret (seed 4.3). */
export function webhookWithSecretJson(response: { webhook?: WebhookConfig }) {
  const webhook = present(response.webhook, 'webhook');
  return render(webhook, { signing_secret: present(webhook.signingSecret, 'signing_secret') });
}
