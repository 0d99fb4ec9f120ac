import type { WebhookConfig } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import type { CallSettings } from '@corridor/grpc';
import type { Logger } from '@corridor/logging';
import type { Clients } from '../../clients.js';
import { iso } from '../../floor/times.js';

export type SecretChange = 'webhook.secret_rotated' | 'webhook.secret_overlap_ended';

/** The audit entry's sentence: which secrets sign from now on, never a secret (decision 0065). */
export function secretChangeDetails(action: SecretChange, webhook: WebhookConfig, by: string): string {
  const current = `…${webhook.signingSecretLast4}`;
  if (action === 'webhook.secret_overlap_ended') return `Previous signing secret retired ${by}: only ${current} signs`;
  const until = webhook.previousSigningSecretExpiresAt;
  const previous = until
    ? `the previous …${webhook.previousSigningSecretLast4} signs beside it until ${iso(until)}`
    : 'the previous one stopped at once';
  return `Signing secret rotated ${by}: ${current} signs now; ${previous}`;
}

/**
 * Decision 0065: a rotation and an early end go to the business's audit log in identity, as the
 * dashboard's webhook changes do. The change is made by then, and a rotation's answer is the only
 * one showing its secret: a failure to record is logged loudly, not answered as a failure.
 */
export async function recordSecretChange(
  context: AuditContext,
  businessId: string,
  action: SecretChange,
  webhook: WebhookConfig,
  by: string,
): Promise<void> {
  await recordWebhookChange(context, businessId, {
    action,
    target: webhook.id,
    details: secretChangeDetails(action, webhook, by),
  });
}

type AuditContext = { clients: Clients; logger: Logger; call: CallSettings };

/**
 * A change of the webhook registration, made by the API or the back office, into the business's audit
 * log in identity (decisions 0065, 0068). The change is made by then: a failure to record is logged
 * loudly, not answered as a failure.
 */
export async function recordWebhookChange(
  { clients, logger, call }: AuditContext,
  businessId: string,
  change: { action: string; target: string; details: string },
): Promise<void> {
  try {
    await clients.members.recordAudit({ businessId, ...change }, { metadata: call.metadata });
  } catch (error) {
    logger.error({ err: error, businessId, ...change }, 'change made but not recorded in the audit log');
  }
}
