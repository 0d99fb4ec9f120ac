import {
  AttemptErrorClass,
  AttemptOutcome,
  type WebhookAttempt,
  type WebhookDelivery,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { present } from './render.js';
import {
  ATTEMPT_ERROR_CLASSES,
  ATTEMPT_OUTCOMES,
  ATTEMPT_TRIGGERS,
  DELIVERY_STATUSES,
  DESTINATIONS,
  EVENT_WORDS,
} from '@corridor/grpc/notification-words';
import { iso, isoOrNull } from '../../floor/times.js';

/** The JSON answers of the delivery routes (decision 0010), from notification's messages. */

/** The body every attempt sends (of a delivery or a history event), as JSON: notification stores it rendered, so it must parse. */
export function payloadOf(message: { id: string; body: string }): unknown {
  try {
    return JSON.parse(present(message.body, 'webhook body')) as unknown;
  } catch (error) {
    throw new Error(`notification returned ${message.id} with a body that is not JSON`, { cause: error });
  }
}

/** A delivery as lists show it: without its attempts. */
export function deliveryJson(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    event: EVENT_WORDS.toWord(delivery.eventType, 'delivery event'),
    destination: DESTINATIONS.toWord(delivery.destination, 'delivery destination'),
    url: delivery.url,
    status: DELIVERY_STATUSES.toWord(delivery.status, 'delivery status'),
    attempt_count: delivery.attemptCount,
    // Unset once the delivery is no longer pending.
    next_attempt_at: isoOrNull(delivery.nextAttemptAt),
    mock: delivery.mock,
    skipped_reason: delivery.skippedReason === '' ? null : delivery.skippedReason,
    payload: payloadOf(delivery),
    created_at: iso(present(delivery.createdAt, 'delivery created_at')),
    updated_at: iso(present(delivery.updatedAt, 'delivery updated_at')),
  };
}

/** proto3 has no null: notification sends 0 and '' for "none", the API answers null. */
const orNull = <T>(value: T, none: T): T | null => (value === none ? null : value);

/** Outcomes of an attempt no answer ended (issue 18): it has no duration yet, or never will. */
const UNANSWERED = new Set([AttemptOutcome.IN_FLIGHT, AttemptOutcome.INTERRUPTED]);

export function attemptJson(attempt: WebhookAttempt) {
  return {
    number: attempt.number,
    trigger: ATTEMPT_TRIGGERS.toWord(attempt.trigger, 'attempt trigger'),
    started_at: iso(present(attempt.startedAt, 'attempt started_at')),
    duration_ms: UNANSWERED.has(attempt.outcome) ? null : attempt.durationMs,
    outcome: ATTEMPT_OUTCOMES.toWord(attempt.outcome, 'attempt outcome'),
    status_code: orNull(attempt.statusCode, 0),
    // UNSPECIFIED: the attempt did not fail.
    error_class:
      attempt.errorClass === AttemptErrorClass.UNSPECIFIED
        ? null
        : ATTEMPT_ERROR_CLASSES.toWord(attempt.errorClass, 'attempt error_class'),
    error_message: orNull(attempt.errorMessage, ''),
    response_body: orNull(attempt.responseBody, ''),
  };
}

/** One delivery with every attempt, oldest first (GET /webhook/deliveries/{id}). */
export function deliveryWithAttemptsJson(response: { delivery?: WebhookDelivery }) {
  const delivery = present(response.delivery, 'delivery');
  return { ...deliveryJson(delivery), attempts: delivery.attempts.map(attemptJson) };
}

/** A delivery with its attempts and the attempt just made (replay, mock). */
export function attemptMadeJson(response: { delivery?: WebhookDelivery; attempt?: WebhookAttempt }) {
  return { ...deliveryWithAttemptsJson(response), attempt: attemptJson(present(response.attempt, 'attempt')) };
}
