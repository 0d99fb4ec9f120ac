import {
  AttemptErrorClass,
  DeliveryStatus,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { HISTORY_EVENT_TYPES } from '../events/webhook-events.js';
import {
  DELIVERY_STATUS_WORDS,
  DESTINATION_WORDS,
  ERROR_CLASS_WORDS,
  EVENT_WORDS,
  OUTCOME_WORDS,
  toAttemptProto,
  TRIGGER_WORDS,
} from './delivery-proto.js';
import { DELIVERY_STATUSES, type AttemptOutcome, type AttemptTrigger } from './delivery.js';
import type { Destination } from '../events/webhook-events.js';
import type { AttemptErrorClass as StoredErrorClass } from './send-webhook.js';

/**
 * Every word notification stores crosses as a value of its proto enum (decision 0026), and every
 * value has a word: a word added on one side only fails here, not in a request.
 */
describe('the stored words as notification’s proto enums', () => {
  const TRIGGERS = ['scheduled', 'replay', 'mock', 'listen'] satisfies AttemptTrigger[];
  const OUTCOMES = ['in_flight', 'succeeded', 'failed', 'interrupted'] satisfies AttemptOutcome[];
  const DESTINATIONS = ['kyc_url', 'collection_url', 'payout_url'] satisfies Destination[];
  // The sender's classes, and 'interrupted', which the lease sweep writes (delivery-repository.ts).
  const ERROR_CLASSES = [
    ...([
      'http_status',
      'timeout',
      'connect',
      'tls',
      'redirect',
      'address_refused',
      'dns',
    ] satisfies StoredErrorClass[]),
    'interrupted',
  ];

  it.each([
    ['event types', EVENT_WORDS, HISTORY_EVENT_TYPES],
    ['delivery statuses', DELIVERY_STATUS_WORDS, DELIVERY_STATUSES],
    ['destinations', DESTINATION_WORDS, DESTINATIONS],
    ['triggers', TRIGGER_WORDS, TRIGGERS],
    ['outcomes', OUTCOME_WORDS, OUTCOMES],
    ['error classes', ERROR_CLASS_WORDS, ERROR_CLASSES],
  ] as const)('%s: exactly the proto’s values', (_name, vocabulary, stored) => {
    expect([...vocabulary.words].sort()).toEqual([...stored].sort());
  });

  it('reads an unknown value from a caller as a RangeError naming the field', () => {
    expect(() => DELIVERY_STATUS_WORDS.toWord(DeliveryStatus.UNSPECIFIED, 'status')).toThrow(
      /^the caller sent status 0, not a corridor\.notification\.v1\.DeliveryStatus word$/,
    );
  });

  it('sends no error class for an attempt that did not fail', () => {
    const attempt = {
      number: 1,
      trigger: 'scheduled' as const,
      startedAt: new Date('2026-11-21T10:00:00Z'),
      durationMs: 12,
      outcome: 'succeeded' as const,
      statusCode: 200,
      errorClass: null,
      errorMessage: null,
      responseBody: null,
    };
    expect(toAttemptProto(attempt).errorClass).toBe(AttemptErrorClass.UNSPECIFIED);
    expect(toAttemptProto({ ...attempt, outcome: 'failed', errorClass: 'address_refused' }).errorClass).toBe(
      AttemptErrorClass.ADDRESS_REFUSED,
    );
  });
});
