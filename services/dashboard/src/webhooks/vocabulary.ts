import type { GenEnum } from '@bufbuild/protobuf/codegenv2';
import {
  AttemptErrorClassSchema,
  AttemptOutcomeSchema,
  AttemptTriggerSchema,
  DeliveryStatusSchema,
  WebhookDestinationSchema,
  WebhookEventSchema,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { protoVocabulary, type Spelling } from '@corridor/grpc';

/**
 * notification's enums in the API's words (decision 0010), so the dashboard names events, statuses
 * and outcomes as the API reference and the webhooks' bodies do. The same words as the gateway's
 * vocabulary.ts; protoVocabulary throws at start if a word and a value ever part.
 */
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

const fromNotification = <E extends number>(descriptor: GenEnum<E>, spelling: Spelling) =>
  protoVocabulary(descriptor, spelling, 'notification');

export const EVENT_WORDS = fromNotification(WebhookEventSchema, WEBHOOK_EVENTS);
export const DESTINATIONS = fromNotification(WebhookDestinationSchema, 'lower');
export const DELIVERY_STATUSES = fromNotification(DeliveryStatusSchema, 'lower');
export const ATTEMPT_TRIGGERS = fromNotification(AttemptTriggerSchema, 'lower');
export const ATTEMPT_OUTCOMES = fromNotification(AttemptOutcomeSchema, 'lower');
export const ATTEMPT_ERROR_CLASSES = fromNotification(AttemptErrorClassSchema, 'lower');

export const isWord = (words: readonly string[], value: string): boolean => words.includes(value);

/** A value notification sent, as its word; an unknown one shows as such rather than failing the page. */
export function wordOf<E extends number>(vocabulary: { toWord(value: E, what: string): string }, value: E): string {
  try {
    return vocabulary.toWord(value, 'value');
  } catch {
    return `unknown (${value})`;
  }
}
