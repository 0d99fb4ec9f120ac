import { create, fromBinary, toBinary, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { EventSchema, Environment, type Event } from './gen/corridor/events/v1/event_pb.js';
import { randomUUID } from 'node:crypto';

/**
 * The event registry (issue 10 point 3): every event's public name, its envelope and the topic it
 * travels on, beside the generated contracts so a domain that names an event needs no Kafka client.
 */

export { EventSchema, Environment, type Event };

export type EventPayload = Event['payload'];
/** The payload case names, e.g. "businessCreated". */
export type EventCase = NonNullable<EventPayload['case']>;

/** Dotted public name of each payload case; the envelope's `type` always agrees with its payload. */
export const EVENT_TYPES: Record<EventCase, string> = {
  businessCreated: 'business.created',
  businessUpdated: 'business.updated',
  credentialChanged: 'credential.changed',
  customerStatusChanged: 'customer.status_changed',
  customerCreated: 'customer.created',
  kycSessionCompleted: 'kyc_session.completed',
  kycSessionExpired: 'kyc_session.expired',
  transactionCreated: 'transaction.created',
  transactionUpdated: 'transaction.updated',
};

export function environmentFromName(name: 'sandbox' | 'production'): Environment {
  return name === 'production' ? Environment.PRODUCTION : Environment.SANDBOX;
}

export interface NewEvent {
  businessId: string;
  environment: Environment;
  payload: Exclude<NonNullable<MessageInitShape<typeof EventSchema>['payload']>, { case: undefined }>;
  occurredAt?: Date;
}

export function newEvent(input: NewEvent): Event {
  return create(EventSchema, {
    id: randomUUID(),
    type: EVENT_TYPES[input.payload.case],
    occurredAt: timestampFromDate(input.occurredAt ?? new Date()),
    businessId: input.businessId,
    environment: input.environment,
    payload: input.payload,
  });
}

export const encodeEvent = (event: Event): Uint8Array => toBinary(EventSchema, event);
export const decodeEvent = (bytes: Uint8Array): Event => fromBinary(EventSchema, bytes);

/**
 * Topic per producing service (DESIGN.md), with the environment's prefix so sandbox and
 * production can never share a topic by accident.
 */
export function topicName(prefix: string, service: 'identity' | 'customer' | 'payments'): string {
  return `${prefix}corridor.${service}.v1`;
}
