import type { Clock } from '@corridor/runtime';
import type { WebhookUrlOptions } from '@corridor/ssrf-guard';
import type { DeliveryRuntime } from './deliveries/attempt-delivery.js';
import type { WebhookSecrets } from './secrets/webhook-secrets.js';

/** What every notification use case knows about where it runs. */
export interface NotificationContext {
  now: Clock;
  environment: 'sandbox' | 'production';
  /** `corridor listen` served in production too (WEBHOOK_LISTEN_IN_PRODUCTION; decision 0034). */
  listenInProduction?: boolean;
  secrets: WebhookSecrets;
  /** How webhook URLs are checked at registration (decision 0009). */
  webhookUrls: {
    /** Test-only ranges let through although not public (WEBHOOK_ALLOW_CIDRS; empty in production). */
    allowCidrs: readonly string[];
    /** The resolver; the system's when absent. Tests inject one, so no test depends on DNS. */
    resolve?: WebhookUrlOptions['resolve'];
  };
  /** Makes attempts (replays and mocks answer with one); absent where no call sends webhooks. */
  deliveries?: DeliveryRuntime;
  /** Tells the delivery worker that something is due now (a queued replay). */
  wakeWorker?: () => void;
}
