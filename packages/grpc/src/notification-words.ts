import {
  AttemptErrorClassSchema,
  AttemptOutcomeSchema,
  AttemptTriggerSchema,
  DeliveryStatusSchema,
  UrlDisabledReasonSchema,
  WebhookDestinationSchema,
  WebhookEventSchema,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import type { GenEnum } from '@bufbuild/protobuf/codegenv2';
import { protoVocabulary, type Spelling } from './proto-vocabulary.js';

/**
 * The public words of the webhooks (decisions 0010, 0026) as notification's proto enums: the one
 * place where the JSON contract and the proto meet, for every edge that shows them (the gateway's
 * routes and document, the dashboard's pages). A word without its value, or a value without its
 * word, throws when the edge starts; the gateway's vocabulary.spec.ts holds the document to them.
 */

/** The public event names of decision 0010's table: what the mock sends and deliveries carry. */
export const WEBHOOK_EVENTS = [
  'customer.status_changed',
  'merchant.kyc.session.completed',
  'merchant.kyc.session.expired',
  'collection.successful',
  'collection.failed',
  'collection.expired',
  'refund_initiated',
  'refund',
  'payout.pending',
  'payout.processing',
  'payout.successful',
  'payout.failed',
  'payout.reversed',
] as const;

/** Notification's own notice (decision 0068): in the history with its sequence, never a delivery. */
export const ENDPOINT_DISABLED_EVENT = 'webhook.endpoint_disabled';

/** Every event name of the history: the webhook events and the notice. */
export const HISTORY_EVENTS = [...WEBHOOK_EVENTS, ENDPOINT_DISABLED_EVENT] as const;

const fromNotification = <E extends number>(descriptor: GenEnum<E>, spelling: Spelling) =>
  protoVocabulary(descriptor, spelling, 'notification');

/** Event names hold dots, which a proto value name cannot: the words are given, each held to its value. */
export const EVENT_WORDS = fromNotification(WebhookEventSchema, HISTORY_EVENTS);
export const DESTINATIONS = fromNotification(WebhookDestinationSchema, 'lower');
export const DELIVERY_STATUSES = fromNotification(DeliveryStatusSchema, 'lower');
export const ATTEMPT_TRIGGERS = fromNotification(AttemptTriggerSchema, 'lower');
export const ATTEMPT_OUTCOMES = fromNotification(AttemptOutcomeSchema, 'lower');
export const ATTEMPT_ERROR_CLASSES = fromNotification(AttemptErrorClassSchema, 'lower');
export const URL_DISABLED_REASONS = fromNotification(UrlDisabledReasonSchema, 'lower');
