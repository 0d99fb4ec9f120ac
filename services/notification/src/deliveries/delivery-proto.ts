import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  AttemptErrorClassSchema,
  AttemptOutcomeSchema,
  AttemptTriggerSchema,
  DeliveryStatusSchema,
  WebhookAttemptSchema,
  WebhookDeliverySchema,
  WebhookDestinationSchema,
  WebhookEventSchema,
  type WebhookAttempt,
  type WebhookDelivery,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { protoVocabulary } from '@corridor/grpc';
import { HISTORY_EVENT_TYPES, urlOf, type RegisteredUrls } from '../events/webhook-events.js';
import type { Attempt, Delivery } from './delivery.js';

/**
 * The words notification stores (and the API shows) as the proto enums they cross as (decision
 * 0026). Built from the descriptors: a word without its value, or a value without its word, throws
 * at start.
 */
export const EVENT_WORDS = protoVocabulary(WebhookEventSchema, HISTORY_EVENT_TYPES, 'the caller');
export const DESTINATION_WORDS = protoVocabulary(WebhookDestinationSchema, 'lower', 'the caller');
export const DELIVERY_STATUS_WORDS = protoVocabulary(DeliveryStatusSchema, 'lower', 'the caller');
export const TRIGGER_WORDS = protoVocabulary(AttemptTriggerSchema, 'lower', 'the caller');
export const OUTCOME_WORDS = protoVocabulary(AttemptOutcomeSchema, 'lower', 'the caller');
export const ERROR_CLASS_WORDS = protoVocabulary(AttemptErrorClassSchema, 'lower', 'the caller');

export function toAttemptProto(attempt: Attempt): WebhookAttempt {
  return create(WebhookAttemptSchema, {
    number: attempt.number,
    trigger: TRIGGER_WORDS.toProto(attempt.trigger),
    startedAt: timestampFromDate(attempt.startedAt),
    durationMs: attempt.durationMs ?? 0,
    outcome: OUTCOME_WORDS.toProto(attempt.outcome),
    statusCode: attempt.statusCode ?? 0,
    // UNSPECIFIED (0): the attempt did not fail.
    ...(attempt.errorClass === null ? {} : { errorClass: ERROR_CLASS_WORDS.toProto(attempt.errorClass) }),
    errorMessage: attempt.errorMessage ?? '',
    responseBody: attempt.responseBody ?? '',
  });
}

/** A delivery as the API shows it; `urls` is the registration now (the URL the next attempt calls). */
export function toDeliveryProto(delivery: Delivery, urls: RegisteredUrls, attempts: Attempt[] = []): WebhookDelivery {
  return create(WebhookDeliverySchema, {
    id: delivery.id,
    eventId: delivery.eventId,
    eventType: EVENT_WORDS.toProto(delivery.eventType),
    destination: DESTINATION_WORDS.toProto(delivery.destination),
    url: urlOf(delivery.destination, urls),
    status: DELIVERY_STATUS_WORDS.toProto(delivery.status),
    attemptCount: delivery.attemptCount,
    ...(delivery.status === 'pending' && delivery.nextAttemptAt
      ? { nextAttemptAt: timestampFromDate(delivery.nextAttemptAt) }
      : {}),
    mock: delivery.mock,
    sequence: BigInt(delivery.sequence ?? 0),
    skippedReason: delivery.skippedReason ?? '',
    body: delivery.body,
    createdAt: timestampFromDate(delivery.createdAt),
    updatedAt: timestampFromDate(delivery.updatedAt),
    attempts: attempts.map(toAttemptProto),
  });
}
