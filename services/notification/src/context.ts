import type { WebhookUrlOptions } from '@corridor/ssrf-guard';
import type { WebhookSecrets } from './secrets/webhook-secrets.js';

/** What every notification use case knows about where it runs. */
export interface NotificationContext {
  now: () => Date;
  secrets: WebhookSecrets;
  /** How webhook URLs are checked at registration (decision 0009). */
  webhookUrls: {
    /** Test-only ranges let through although not public (WEBHOOK_ALLOW_CIDRS; empty in production). */
    allowCidrs: readonly string[];
    /** The resolver; the system's when absent. Tests inject one, so no test depends on DNS. */
    resolve?: WebhookUrlOptions['resolve'];
  };
}
