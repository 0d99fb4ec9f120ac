import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  WebhookAttemptSchema,
  WebhookDeliverySchema,
  type WebhookAttempt,
  type WebhookDelivery,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { urlOf, type RegisteredUrls } from '../events/webhook-events.js';
import type { Attempt, Delivery } from './delivery.js';

export function toAttemptProto(attempt: Attempt): WebhookAttempt {
  return create(WebhookAttemptSchema, {
    number: attempt.number,
    trigger: attempt.trigger,
    startedAt: timestampFromDate(attempt.startedAt),
    durationMs: attempt.durationMs ?? 0,
    outcome: attempt.outcome,
    statusCode: attempt.statusCode ?? 0,
    errorClass: attempt.errorClass ?? '',
    errorMessage: attempt.errorMessage ?? '',
    responseBody: attempt.responseBody ?? '',
  });
}

/** A delivery as the API shows it; `urls` is the registration now (the URL the next attempt calls). */
export function toDeliveryProto(delivery: Delivery, urls: RegisteredUrls, attempts: Attempt[] = []): WebhookDelivery {
  return create(WebhookDeliverySchema, {
    id: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    destination: delivery.destination,
    url: urlOf(delivery.destination, urls),
    status: delivery.status,
    attemptCount: delivery.attemptCount,
    ...(delivery.status === 'pending' && delivery.nextAttemptAt
      ? { nextAttemptAt: timestampFromDate(delivery.nextAttemptAt) }
      : {}),
    mock: delivery.mock,
    body: delivery.body,
    createdAt: timestampFromDate(delivery.createdAt),
    updatedAt: timestampFromDate(delivery.updatedAt),
    attempts: attempts.map(toAttemptProto),
  });
}
