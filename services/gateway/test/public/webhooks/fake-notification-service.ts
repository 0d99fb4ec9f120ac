import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  AttemptErrorClass,
  AttemptOutcome,
  AttemptTrigger,
  DeliveryStatus,
  HistoryEventSchema,
  NotificationService,
  WebhookDestination,
  WebhookEvent,
  WebhookAttemptSchema,
  WebhookConfigSchema,
  WebhookDeliverySchema,
  type HistoryEvent,
  type WebhookAttempt,
  type WebhookConfig,
  type WebhookDelivery,
  UrlDisabledReason,
  WebhookUrlHealthSchema,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { startFakeGrpcService, type Answer } from '@corridor/testing';

export type { Answer, ReceivedCall } from '@corridor/testing';

/** notification's answers as the gateway receives them, for the specs of the webhook routes. */

export const BUSINESS_ID = '4b8f3c2e-0000-4000-8000-00000000b001';
export const WEBHOOK_ID = '5d0e6f1a-0000-4000-8000-00000000e001';
export const SIGNING_SECRET = 'whsec_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAkYz1';
export const CREATED = new Date('2026-11-21T09:00:00.000Z');
export const UPDATED = new Date('2026-11-21T10:30:00.000Z');

export const DELIVERY_ID = '7a2c9e41-0000-4000-8000-00000000d001';
export const EVENT_ID = '8b3d0f52-0000-4000-8000-00000000a001';
export const NEXT_ATTEMPT = new Date('2026-11-21T10:35:00.000Z');
export const ATTEMPT_STARTED = new Date('2026-11-21T10:30:00.000Z');
/** The body notification stored and every attempt sends, byte for byte. */
export const DELIVERY_BODY =
  '{"event":"customer.status_changed","data":{"customer_id":"c1","business_id":"4b8f3c2e-0000-4000-8000-00000000b001","customer_type":"individual","kyb_scope":null,"old_status":"PROCESSING","new_status":"VERIFIED","changed_at":"2026-11-21T09:00:00.000Z"}}';

type WebhookOverrides = Partial<Omit<WebhookConfig, '$typeName' | '$unknown'>>;
type DeliveryOverrides = Partial<Omit<WebhookDelivery, '$typeName' | '$unknown'>>;
type AttemptOverrides = Partial<Omit<WebhookAttempt, '$typeName' | '$unknown'>>;

export function webhookConfig(overrides: WebhookOverrides = {}): WebhookConfig {
  return create(WebhookConfigSchema, {
    id: WEBHOOK_ID,
    businessId: BUSINESS_ID,
    collectionUrl: 'https://platform.example/hooks/collections',
    payoutUrl: 'https://platform.example/hooks/payouts',
    kycUrl: '',
    signingSecret: SIGNING_SECRET,
    signingSecretLast4: SIGNING_SECRET.slice(-4),
    createdAt: timestampFromDate(CREATED),
    updatedAt: timestampFromDate(UPDATED),
    ...overrides,
  });
}

export const DISABLED_AT = new Date('2026-11-21T10:00:00.000Z');

/** Each URL's health as GetWebhook answers it (decision 0068): collection_url gone, payout_url failing twice. */
export const URL_HEALTH = [
  create(WebhookUrlHealthSchema, {
    urlKind: WebhookDestination.COLLECTION_URL,
    disabled: true,
    disabledAt: timestampFromDate(DISABLED_AT),
    reason: UrlDisabledReason.GONE,
    failingSince: timestampFromDate(DISABLED_AT),
    consecutiveFailures: 1,
  }),
  create(WebhookUrlHealthSchema, {
    urlKind: WebhookDestination.PAYOUT_URL,
    failingSince: timestampFromDate(CREATED),
    consecutiveFailures: 2,
  }),
];

/** A failed first attempt: the receiver answered 503. */
export function webhookAttempt(overrides: AttemptOverrides = {}): WebhookAttempt {
  return create(WebhookAttemptSchema, {
    number: 1,
    trigger: AttemptTrigger.SCHEDULED,
    startedAt: timestampFromDate(ATTEMPT_STARTED),
    durationMs: 412,
    outcome: AttemptOutcome.FAILED,
    statusCode: 503,
    errorClass: AttemptErrorClass.HTTP_STATUS,
    errorMessage: 'the receiver answered 503',
    responseBody: 'try later',
    ...overrides,
  });
}

/** A replay the receiver answered 200 with an empty body: nothing to report but the status. */
export const SUCCEEDED_REPLAY: AttemptOverrides = {
  number: 2,
  trigger: AttemptTrigger.REPLAY,
  durationMs: 96,
  outcome: AttemptOutcome.SUCCEEDED,
  statusCode: 200,
  errorClass: AttemptErrorClass.UNSPECIFIED,
  errorMessage: '',
  responseBody: '',
};

/** A pending delivery after one failed attempt; `attempts` empty unless given, as in lists. */
export function webhookDelivery(overrides: DeliveryOverrides = {}): WebhookDelivery {
  return create(WebhookDeliverySchema, {
    id: DELIVERY_ID,
    eventId: EVENT_ID,
    eventType: WebhookEvent.CUSTOMER_STATUS_CHANGED,
    destination: WebhookDestination.COLLECTION_URL,
    url: 'https://platform.example/hooks/collections',
    status: DeliveryStatus.PENDING,
    attemptCount: 1,
    nextAttemptAt: timestampFromDate(NEXT_ATTEMPT),
    mock: false,
    body: DELIVERY_BODY,
    createdAt: timestampFromDate(CREATED),
    updatedAt: timestampFromDate(UPDATED),
    ...overrides,
  });
}

/**
 * notification answering canned messages. By default every configuration method answers the
 * registration with its secret, as a careless service might: GET must still leave it out. The
 * delivery methods answer the delivery above (with its attempt where the method fills attempts).
 */
/** An event of the history (decision 0066): DELIVERY_BODY as EVENT_ID carried it, number 7. */
export function historyEvent(overrides: Partial<Omit<HistoryEvent, '$typeName' | '$unknown'>> = {}): HistoryEvent {
  return create(HistoryEventSchema, {
    id: EVENT_ID,
    eventType: WebhookEvent.CUSTOMER_STATUS_CHANGED,
    sequence: 7n,
    body: DELIVERY_BODY,
    occurredAt: timestampFromDate(new Date(CREATED.getTime() - 40)),
    createdAt: timestampFromDate(CREATED),
    ...overrides,
  });
}

export function startFakeNotificationService() {
  const attempted = () => {
    const attempt = webhookAttempt(SUCCEEDED_REPLAY);
    return {
      delivery: webhookDelivery({
        status: DeliveryStatus.SUCCEEDED,
        attemptCount: 2,
        nextAttemptAt: undefined,
        attempts: [webhookAttempt(), attempt],
      }),
      attempt,
    };
  };
  const defaults: Record<string, Answer> = {
    listDeliveries: () => ({ deliveries: [webhookDelivery()], cursorPage: { limit: 15 } }),
    getDelivery: () => ({ delivery: webhookDelivery({ attempts: [webhookAttempt()] }) }),
    replayDelivery: attempted,
    replayFailedDeliveries: () => ({ queued: 3 }),
    triggerMockWebhook: attempted,
    listEvents: () => ({ events: [historyEvent()], cursorPage: { limit: 15 } }),
    getEvent: () => ({ event: historyEvent() }),
    enableWebhookUrl: () => ({ webhook: webhookConfig({ urlHealth: URL_HEALTH.slice(1) }), queued: 4 }),
  };
  return startFakeGrpcService(
    NotificationService,
    (method) => defaults[method] ?? (() => ({ webhook: webhookConfig() })),
  );
}
