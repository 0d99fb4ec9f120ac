import { dateOf } from '@corridor/db';
import type { Destination } from '../events/webhook-events.js';
import type {
  Attempt,
  ClaimedDelivery,
  AttemptOutcome,
  AttemptTrigger,
  Delivery,
  DeliveryStatus,
  InterruptedAttempt,
} from './delivery.js';

// The one mapper of each row shape DeliveryRepository reads; nothing else reads rows.

/** A row as the driver returns it: timestamptz as text or a Date, jsonb as text or an object. */
export type Row = Record<string, unknown>;

const dateOrNull = (value: unknown): Date | null => (value === null || value === undefined ? null : dateOf(value));
const numberOrNull = (value: unknown): number | null => (value === null ? null : Number(value));
const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

/** A webhook_delivery row. */
export function deliveryOf(row: Row): Delivery {
  return {
    id: String(row.id),
    businessId: String(row.business_id),
    endpointId: String(row.endpoint_id),
    eventId: String(row.event_id),
    eventType: String(row.event_type),
    destination: row.destination as Destination,
    body: String(row.body),
    status: row.status as DeliveryStatus,
    attemptCount: Number(row.attempt_count),
    scheduledAttempts: Number(row.scheduled_attempts),
    nextAttemptAt: dateOrNull(row.next_attempt_at),
    replayRequestedAt: dateOrNull(row.replay_requested_at),
    leaseUntil: dateOrNull(row.lease_until),
    mock: Boolean(row.mock),
    sequence: numberOrNull(row.sequence ?? null),
    skippedReason: (row.skipped_reason ?? null) as Delivery['skippedReason'],
    traceContext: (typeof row.trace_context === 'string' ? JSON.parse(row.trace_context) : row.trace_context) as Record<
      string,
      string
    >,
    eventOccurredAt: dateOf(row.event_occurred_at),
    createdAt: dateOf(row.created_at),
    updatedAt: dateOf(row.updated_at),
    completedAt: dateOrNull(row.completed_at),
  };
}

/** A webhook_attempt row. */
export function attemptOf(row: Row): Attempt {
  return {
    number: Number(row.number),
    trigger: row.trigger as AttemptTrigger,
    startedAt: dateOf(row.started_at),
    durationMs: numberOrNull(row.duration_ms),
    outcome: row.outcome as AttemptOutcome,
    statusCode: numberOrNull(row.status_code),
    errorClass: textOrNull(row.error_class),
    errorMessage: textOrNull(row.error_message),
    responseBody: textOrNull(row.response_body),
  };
}

/** A webhook_attempt row closed `interrupted`, with its delivery's event type. */
export function interruptedAttemptOf(row: Row): InterruptedAttempt {
  return {
    deliveryId: String(row.delivery_id),
    number: Number(row.number),
    trigger: row.trigger as AttemptTrigger,
    eventType: String(row.event_type),
  };
}

/** A webhook_delivery row a claim returned, with its started attempt and its registration's columns. */
export function claimedDeliveryOf(row: Row): ClaimedDelivery {
  return {
    delivery: deliveryOf(row),
    attempt: { number: Number(row.attempt_number), trigger: row.attempt_trigger as 'scheduled' | 'replay' },
    endpoint: {
      collectionUrl: String(row.collection_url),
      payoutUrl: String(row.payout_url),
      kycUrl: textOrNull(row.kyc_url),
      signingSecretSealed: row.signing_secret_sealed as Uint8Array,
      previousSigningSecretSealed: (row.previous_signing_secret_sealed ?? null) as Uint8Array | null,
      previousSigningSecretExpiresAt: dateOrNull(row.previous_signing_secret_expires_at),
    },
    clockOffsetMs: Number(row.clock_offset_ms ?? 0),
  };
}
