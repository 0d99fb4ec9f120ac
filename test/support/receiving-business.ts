import { createHmac } from 'node:crypto';
import { machineSlowdown, WebhookReceiver, type ReceivedWebhook, type TestCertificates } from '@corridor/testing';
import { CUSTOMER_SCOPES, jsonOf, unique, type CustomerCaller, type CustomerJson } from './customers.js';
import type { Credentials, Platform } from './platform.js';
import type { WebhookJson } from './webhooks.js';

/** Every scope the delivery suites use: customers to make events, webhooks to read and replay them. */
export const RECEIVING_SCOPES = [
  ...CUSTOMER_SCOPES,
  'webhook:read',
  'webhook:write',
  'webhook:replay',
  'mock:webhook:trigger',
];

/**
 * Notification's environment for receivers on 127.0.0.1 behind a test CA (decision 0009's test-only
 * settings), with the retry schedule scaled down: delays before attempts 1..5 in milliseconds.
 */
export function receiverEnv(certificates: TestCertificates, schedule: number[]): Record<string, string> {
  return {
    WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
    WEBHOOK_EXTRA_CA_FILE: certificates.caFile,
    WEBHOOK_RETRY_SCHEDULE_MS: schedule.join(','),
  };
}

/** The `customer.status_changed` body of decision 0010 a webhook carries. */
export interface StatusChangedBody {
  event: string;
  data: {
    customer_id: string;
    business_id: string;
    customer_type: string;
    kyb_scope: string | null;
    old_status: string;
    new_status: string;
    changed_at: string;
  };
}

/** The customer a `customer.status_changed` webhook is about (undefined for other bodies). */
export const customerOf = (request: ReceivedWebhook): string | undefined =>
  (request.json as Partial<StatusChangedBody> | undefined)?.data?.customer_id;

/** Seed 6.4 rule 1, computed here apart from @corridor/webhook-signature: hex HMAC-SHA256 of `<ts>.<body>`. */
export const expectedSignature = (secret: string, request: ReceivedWebhook) =>
  createHmac('sha256', secret).update(`${request.headers['x-corridor-timestamp']}.${request.rawBody}`).digest('hex');

/** Milliseconds between consecutive requests. */
export const gapsBetween = (requests: readonly ReceivedWebhook[]) =>
  requests
    .slice(1)
    .map((request, index) => request.receivedAt.getTime() - (requests[index]?.receivedAt.getTime() ?? NaN));

/** Requests grouped by x-corridor-webhook-id, in arrival order. */
export function byWebhookId(requests: readonly ReceivedWebhook[]): Map<string, ReceivedWebhook[]> {
  const groups = new Map<string, ReceivedWebhook[]>();
  for (const request of requests) {
    const id = request.webhookId ?? '(none)';
    groups.set(id, [...(groups.get(id) ?? []), request]);
  }
  return groups;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How much later than due a scheduled attempt may come: `quietMs` of slack on a quiet machine,
 * stretched by the machine's load now (MachineClock's measure). Never earlier than due stays exact.
 */
export const lateSlackMs = (quietMs: number) => Math.round(quietMs * machineSlowdown());

/**
 * A platform's business as a webhook receiver sees it: allow-listed for MINIMAL KYB (one document
 * makes a customer submittable), full-access credentials, a token with RECEIVING_SCOPES, and its
 * own HTTPS receiver registered as collection_url, payout_url and (unless `kycUrl: false`) kyc_url,
 * verifying with the signing secret the registration returned.
 */
export class ReceivingBusiness implements CustomerCaller {
  webhook!: WebhookJson;
  private constructor(
    private readonly platform: Platform,
    readonly receiver: WebhookReceiver,
    readonly businessId: string,
    readonly credentials: Credentials,
    readonly token: string,
  ) {}

  get clientId(): string {
    return this.credentials.client_id;
  }

  get secret(): string {
    const secret = this.webhook?.signing_secret;
    if (!secret) throw new Error('the business has no registration yet');
    return secret;
  }

  /** A business with its receiver started and (unless `register: false`) registered. */
  static async create(
    platform: Platform,
    certificates: TestCertificates,
    options: { kycUrl?: boolean; register?: boolean } = {},
  ): Promise<ReceivingBusiness> {
    let business: ReceivingBusiness | undefined;
    const receiver = await WebhookReceiver.start({ certificates, secret: () => business?.webhook?.signing_secret });
    try {
      const created = await jsonOf<{ id: string }>(
        await platform.admin('/admin/businesses', {
          method: 'POST',
          body: JSON.stringify({ name: `Receiver ${unique()}`, kyb_minimal_allowed: true }),
        }),
        201,
        'create business',
      );
      // The suites make more calls a minute than the default 120 (seed 8): limits are not under test.
      await platform.patchBusiness(created.id, { rate_limits: { per_minute: 100_000, per_hour: 6_000_000 } });
      const credentials = await platform.createCredentials(created.id);
      const token = await platform.accessToken(credentials, RECEIVING_SCOPES.join(' '));
      business = new ReceivingBusiness(platform, receiver, created.id, credentials, token);
      if (options.register ?? true) await business.register(options);
      return business;
    } catch (error) {
      await receiver.stop();
      throw error;
    }
  }

  /** The URLs this business registers: paths of its receiver named after the field. */
  urls(options: { kycUrl?: boolean } = {}): Record<string, string> {
    return {
      collection_url: this.receiver.url('/collection'),
      payout_url: this.receiver.url('/payout'),
      ...((options.kycUrl ?? true) ? { kyc_url: this.receiver.url('/kyc') } : {}),
    };
  }

  /** POST /webhook with this business's receiver (201). */
  async register(options: { kycUrl?: boolean } = {}): Promise<WebhookJson> {
    this.webhook = await this.platform.webhooks.register(this.token, this.urls(options));
    return this.webhook;
  }

  /** Another token of this business's credentials, carrying only `scopes`. */
  tokenWith(scopes: string[]): Promise<string> {
    return this.platform.accessToken(this.credentials, scopes.join(' '));
  }

  /** A MINIMAL business customer with its formation document: submittable (readiness checks pass). */
  readyCustomer(): Promise<CustomerJson> {
    return this.platform.customers.minimalReadyToSubmit(this);
  }

  /** Submits a ready customer (PENDING → PROCESSING: one `customer.status_changed`); when it answered. */
  async submit(customerId: string): Promise<{ customerId: string; submittedAt: number }> {
    await this.platform.customers.submit(this.token, customerId);
    return { customerId, submittedAt: Date.now() };
  }

  /** A new customer, submitted. */
  async submitNew(): Promise<{ customerId: string; submittedAt: number }> {
    return this.submit((await this.readyCustomer()).id);
  }

  /** The receiver's requests about the customer. */
  webhooksOf(customerId: string): ReceivedWebhook[] {
    return this.receiver.requests.filter((request) => customerOf(request) === customerId);
  }

  /** Waits for `count` requests about the customer. */
  waitForCustomer(customerId: string, count = 1, timeoutMs = 30_000): Promise<ReceivedWebhook[]> {
    return this.receiver.waitFor((request) => customerOf(request) === customerId, count, timeoutMs);
  }

  stop(): Promise<void> {
    return this.receiver.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Prometheus text (notification's METRICS_PORT)
// ---------------------------------------------------------------------------------------------

export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** GET /metrics of the platform's notification, parsed. */
export async function notificationMetrics(platform: Platform): Promise<MetricSample[]> {
  const response = await fetch(`http://127.0.0.1:${platform.notificationMetricsPort}/metrics`);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET /metrics: ${response.status} ${text}`);
  return text.split('\n').flatMap((line) => {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match || line.startsWith('#')) return [];
    const labels = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((label) => [
        label[1] ?? '',
        label[2] ?? '',
      ]),
    );
    return [{ name: match[1] ?? '', labels, value: Number(match[3]) }];
  });
}

/**
 * The sum of the samples whose name matches (OpenTelemetry's exporter may add unit and `_total`
 * suffixes, hence a pattern) and whose labels include `labels`.
 */
export function metricSum(samples: readonly MetricSample[], name: RegExp, labels: Record<string, string> = {}): number {
  return samples
    .filter((sample) => name.test(sample.name))
    .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}
