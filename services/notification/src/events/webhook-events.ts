import { collectionExample, refundExample } from './collection-webhooks.js';
import { kycSessionCompletedExample, kycSessionExpiredExample } from './kyc-session-webhooks.js';
import { payoutExample } from './payout-webhooks.js';

/**
 * The public webhook events (decision 0010): where each goes and an example body for the mock
 * trigger. A body is always `{event, data}` (seed 6.2), rendered once and sent byte for byte.
 */

export type Destination = 'kyc_url' | 'collection_url' | 'payout_url';

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type WebhookData = Record<string, JsonValue>;

interface WebhookEventKind {
  /** kyc_url only (seed 6.2), or kyc_url falling back to collection_url (decision 0009), or one URL. */
  route: 'kyc_only' | 'kyc_else_collection' | 'collection' | 'payout';
  /** What the mock trigger sends; its members are also the only ones a mock may replace. */
  example: WebhookData;
}

const EXAMPLE_BUSINESS = '00000000-0000-4000-8000-000000000000';

export const WEBHOOK_EVENTS = {
  'customer.status_changed': {
    route: 'kyc_else_collection',
    example: {
      customer_id: '5f0c2a7e-2d7b-4f3e-9a61-0c5d1b9b6a11',
      business_id: EXAMPLE_BUSINESS,
      customer_type: 'business',
      kyb_scope: 'FULL',
      old_status: 'PENDING',
      new_status: 'PROCESSING',
      changed_at: '2026-11-21T09:30:00.000Z',
    },
  },
  // Seed 6.2, decision 0016: a fixture session rendered by the real events' renderer.
  'merchant.kyc.session.completed': { route: 'kyc_only', example: kycSessionCompletedExample() },
  'merchant.kyc.session.expired': { route: 'kyc_only', example: kycSessionExpiredExample() },
  // Seed 6.3, decision 0014: the collection or refund as its transaction shows it; examples from the same renderer.
  'collection.successful': { route: 'collection', example: collectionExample('SUCCESSFUL') },
  'collection.failed': { route: 'collection', example: collectionExample('FAILED') },
  'collection.expired': { route: 'collection', example: collectionExample('EXPIRED') },
  refund_initiated: { route: 'collection', example: refundExample('processing') },
  refund: { route: 'collection', example: refundExample('successful') },
  // Decision 0013: the payout as GET /payout/{id} shows it; examples from the same renderer.
  'payout.pending': { route: 'payout', example: payoutExample('pending') },
  'payout.processing': { route: 'payout', example: payoutExample('processing') },
  'payout.successful': { route: 'payout', example: payoutExample('successful') },
  'payout.failed': { route: 'payout', example: payoutExample('failed') },
  'payout.reversed': { route: 'payout', example: payoutExample('reversed') },
} as const satisfies Record<string, WebhookEventKind>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;

export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

/** Notification's own notice (decision 0068): an event of the history, never a webhook delivery. */
export const ENDPOINT_DISABLED_EVENT = 'webhook.endpoint_disabled';

/** Every event name of the history: the webhook events and the notice. */
export const HISTORY_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, ENDPOINT_DISABLED_EVENT];

export const isWebhookEventType = (name: string): name is WebhookEventType => Object.hasOwn(WEBHOOK_EVENTS, name);

/** The registered URLs an event can go to. */
export interface RegisteredUrls {
  collectionUrl: string;
  payoutUrl: string;
  kycUrl?: string | null;
}

/** Which of the registration's URLs receives the event; undefined: none (recorded, not delivered, seed 6.2). */
export function destinationOf(eventType: WebhookEventType, urls: RegisteredUrls): Destination | undefined {
  const { route } = WEBHOOK_EVENTS[eventType] as WebhookEventKind;
  if (route === 'payout') return 'payout_url';
  if (route === 'collection') return 'collection_url';
  if (urls.kycUrl) return 'kyc_url';
  return route === 'kyc_else_collection' ? 'collection_url' : undefined;
}

/**
 * The URL an attempt calls, read from the registration at that moment: a fixed URL helps the retries
 * still due. A kyc_url removed since falls back to collection_url as at creation (decision 0009).
 */
export function urlOf(destination: Destination, urls: RegisteredUrls): string {
  if (destination === 'payout_url') return urls.payoutUrl;
  if (destination === 'kyc_url' && urls.kycUrl) return urls.kycUrl;
  return urls.collectionUrl;
}

/**
 * The mock's `data`: the example with the caller's business where the event names one (payouts do
 * not), then the caller's replacements (members the example has, checked by the caller).
 */
export function mockWebhookData(
  eventType: WebhookEventType,
  businessId: string,
  replacements: Readonly<Record<string, unknown>> = {},
): WebhookData {
  const example: WebhookData = WEBHOOK_EVENTS[eventType].example;
  const own = Object.hasOwn(example, 'business_id') ? { business_id: businessId } : {};
  return { ...example, ...own, ...replacements } as WebhookData;
}

/** The exact bytes every attempt of the delivery sends. */
export const webhookBody = (event: WebhookEventType, data: WebhookData): string => JSON.stringify({ event, data });
