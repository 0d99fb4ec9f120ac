import type { JsonSchema } from '../../http/json-schema.js';
import { ref } from '../../http/json-schema.js';
import { listBodySchema, pageQueryProperties } from '../../floor/pages/list-envelope.js';
import {
  ATTEMPT_OUTCOMES,
  ATTEMPT_TRIGGERS,
  DELIVERY_STATUSES,
  DESTINATIONS,
  WEBHOOK_EVENTS,
} from '@corridor/grpc/notification-words';

/**
 * The bodies and answers of the delivery routes (decision 0010). Bodies are documentation:
 * notification checks them and reports every problem at once, 422. Answers are closed, so a field
 * added to delivery-render.ts without its schema fails the suites that validate real responses.
 */

export const dateTime: JsonSchema = { type: 'string', format: 'date-time' };
export const uuid = (description: string): JsonSchema => ({ type: 'string', format: 'uuid', description });

const EXAMPLE_DELIVERY_ID = '0b7e3c55-2f4a-4c1e-9d63-8a1f2e4b7c10';

const exampleDelivery = {
  id: EXAMPLE_DELIVERY_ID,
  event_id: '6f1d2a9e-81c4-4b7a-a5f0-3c2d1e0f9a88',
  event: 'customer.status_changed',
  destination: 'kyc_url',
  url: 'https://platform.example/hooks/kyc',
  status: 'failed',
  attempt_count: 5,
  next_attempt_at: null,
  mock: false,
  skipped_reason: null,
  payload: {
    event: 'customer.status_changed',
    data: {
      customer_id: '9c4e1b7a-5d2f-4e8a-b3c6-7f1a0d2e9b45',
      business_id: '4b8f3c2e-7a1d-4e5f-8c9b-0a1b2c3d4e5f',
      customer_type: 'business',
      kyb_scope: 'FULL',
      old_status: 'PROCESSING',
      new_status: 'VERIFIED',
      changed_at: '2026-11-21T09:00:00.000Z',
    },
  },
  created_at: '2026-11-21T09:00:00.120Z',
  updated_at: '2026-11-21T10:21:03.480Z',
};

const exampleFailedAttempt = {
  number: 5,
  trigger: 'scheduled',
  started_at: '2026-11-21T10:21:00.000Z',
  duration_ms: 3480,
  outcome: 'failed',
  status_code: 503,
  error_class: 'http_status',
  error_message: 'the receiver answered 503',
  response_body: 'upstream unavailable',
};

const exampleReplayAttempt = {
  number: 6,
  trigger: 'replay',
  started_at: '2026-11-21T11:02:10.000Z',
  duration_ms: 182,
  outcome: 'succeeded',
  status_code: 200,
  error_class: null,
  error_message: null,
  response_body: null,
};

const exampleInterruptedAttempt = {
  number: 2,
  trigger: 'scheduled',
  started_at: '2026-11-21T09:01:00.000Z',
  duration_ms: null,
  outcome: 'interrupted',
  status_code: null,
  error_class: 'interrupted',
  error_message: 'the delivering process stopped before an answer was recorded',
  response_body: null,
};

const attemptProperties = {
  number: { type: 'integer', minimum: 1, description: '1-based, in the order made' },
  trigger: {
    enum: [...ATTEMPT_TRIGGERS.words],
    description:
      'scheduled: the retry schedule; replay: a replay you asked for; mock: POST /webhook/mock; listen: a copy corridor listen forwarded to your machine, as it reported it',
  },
  started_at: { ...dateTime, description: 'when the request went out; the attempt is logged from then on' },
  duration_ms: {
    type: ['integer', 'null'],
    minimum: 0,
    description: 'from start to answer; null while in_flight and when interrupted',
  },
  outcome: {
    enum: [...ATTEMPT_OUTCOMES.words],
    description:
      'in_flight: sent, no answer yet; succeeded: your endpoint answered 2xx; failed: anything else; interrupted: our delivering process stopped before an answer was recorded, so your endpoint may have received it; the attempt is made again with the same x-corridor-webhook-id (a replay you asked for is not)',
  },
  status_code: {
    type: ['integer', 'null'],
    minimum: 100,
    maximum: 599,
    description: 'the HTTP status your endpoint answered; null when none came back (timeout, refused connection)',
  },
  error_class: {
    type: ['string', 'null'],
    description:
      'why the attempt failed: http_status, timeout, connect, tls, redirect (never followed), address_refused (the URL resolved to an address that is not public), dns, interrupted; null on success and while in_flight',
  },
  error_message: { type: ['string', 'null'], description: 'the failure in words; null on success and while in_flight' },
  response_body: {
    type: ['string', 'null'],
    maxLength: 4096,
    description: 'the first 4 KiB of your endpoint’s reply; null when it sent none',
  },
} satisfies Record<string, JsonSchema>;

const attempt: JsonSchema = {
  type: 'object',
  description: 'One HTTP request of a delivery. No header, secret or signature is stored.',
  required: Object.keys(attemptProperties),
  additionalProperties: false,
  properties: attemptProperties,
  examples: [exampleFailedAttempt, exampleReplayAttempt, exampleInterruptedAttempt],
};

/** A webhook body as JSON: exactly `event` and `data` (seed 6.2). */
export const webhookPayload = (description: string): JsonSchema => ({
  type: 'object',
  description,
  required: ['event', 'data'],
  additionalProperties: false,
  properties: { event: { type: 'string' }, data: { type: 'object' } },
});

const deliveryProperties = {
  id: uuid('the delivery; also the x-corridor-webhook-id header of every attempt, retry and replay'),
  event_id: uuid('the event delivered (for a mock, an id made for it)'),
  event: { type: 'string', description: `the event name: ${WEBHOOK_EVENTS.join(', ')}` },
  destination: {
    enum: [...DESTINATIONS.words],
    description: 'which registered URL receives this event (decision 0010)',
  },
  url: {
    type: 'string',
    format: 'uri',
    description: 'that URL as registered now: a changed registration takes effect at the next attempt',
  },
  status: {
    enum: [...DELIVERY_STATUSES.words],
    description: 'pending: more attempts are scheduled; succeeded: an attempt got a 2xx; failed: five attempts failed',
  },
  attempt_count: {
    type: 'integer',
    minimum: 0,
    description: 'attempts so far, replays, mocks and one in flight included',
  },
  next_attempt_at: {
    type: ['string', 'null'],
    format: 'date-time',
    description: 'when the next scheduled attempt is due; null once the delivery is no longer pending',
  },
  mock: { type: 'boolean', description: 'made by POST /webhook/mock; never retried' },
  skipped_reason: {
    enum: ['endpoint_disabled', null],
    description:
      'why no attempt is made (decision 0068): endpoint_disabled while its URL is disabled (pending, next_attempt_at null; enabling the URL with replay queues it), and on a delivery ended failed without attempts when the URL was enabled without replay; null otherwise',
  },
  payload: webhookPayload('the body every attempt sends, parsed (the signature covers its exact bytes)'),
  created_at: dateTime,
  updated_at: dateTime,
} satisfies Record<string, JsonSchema>;

const delivery: JsonSchema = {
  type: 'object',
  description: 'One event’s webhook to one of your URLs, as lists show it (without its attempts)',
  required: Object.keys(deliveryProperties),
  additionalProperties: false,
  properties: deliveryProperties,
  examples: [exampleDelivery],
};

export const schema = (name: string): JsonSchema => ({ $ref: ref('schemas', name).$ref });

const withAttemptsProperties = {
  ...deliveryProperties,
  attempts: { type: 'array', items: schema('WebhookAttempt'), description: 'every attempt, oldest first' },
} satisfies Record<string, JsonSchema>;

const deliveryWithAttempts: JsonSchema = {
  type: 'object',
  description: 'A delivery with every attempt made, oldest first',
  required: Object.keys(withAttemptsProperties),
  additionalProperties: false,
  properties: withAttemptsProperties,
  examples: [{ ...exampleDelivery, attempts: [exampleFailedAttempt] }],
};

const attemptedProperties = {
  ...withAttemptsProperties,
  attempt: { ...schema('WebhookAttempt'), description: 'the attempt this request made (also the last of attempts)' },
} satisfies Record<string, JsonSchema>;

const attemptedDelivery: JsonSchema = {
  type: 'object',
  description: 'A delivery with every attempt, and the one this request just made',
  required: Object.keys(attemptedProperties),
  additionalProperties: false,
  properties: attemptedProperties,
  examples: [
    {
      ...exampleDelivery,
      status: 'succeeded',
      attempt_count: 6,
      updated_at: exampleReplayAttempt.started_at,
      attempts: [exampleFailedAttempt, exampleReplayAttempt],
      attempt: exampleReplayAttempt,
    },
  ],
};

/** components.schemas of the delivery routes. */
export const deliverySchemaComponents: Record<string, JsonSchema> = {
  WebhookDelivery: delivery,
  WebhookDeliveryWithAttempts: deliveryWithAttempts,
  WebhookDeliveryAttempted: attemptedDelivery,
  WebhookAttempt: attempt,
};

export const replayFailedDeliveriesBody: JsonSchema = {
  type: 'object',
  description:
    'Queues one more attempt of every failed delivery created in [since, until): at most 1,000 a call; call again for more',
  required: ['since'],
  additionalProperties: false,
  properties: {
    since: { ...dateTime, description: 'ISO 8601 date-time with a time zone; failed deliveries created then or later' },
    until: { ...dateTime, description: 'optional; failed deliveries created before it (default: now)' },
  },
  examples: [{ since: '2026-11-21T00:00:00Z', until: '2026-11-22T00:00:00Z' }],
};

export const mockWebhookBody: JsonSchema = {
  type: 'object',
  description:
    'Sends the example body of `event`, signed, once, to the URL that event goes to; `data`’s members replace the example’s (an unknown member is 422). Sandbox only.',
  required: ['event'],
  additionalProperties: false,
  properties: {
    event: { enum: [...WEBHOOK_EVENTS] },
    data: { type: 'object', description: 'members of the example’s data to replace' },
  },
  examples: [{ event: 'merchant.kyc.session.completed', data: { customer_reference: 'user-42' } }],
};

/** `{message, data}`, as every success of the public API (decision 0008). */
export const successBody = (message: string, data: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['message', 'data'],
  additionalProperties: false,
  properties: { message: { type: 'string', const: message }, data },
});

export const deliveryBody = (message: string) => successBody(message, schema('WebhookDeliveryWithAttempts'));
export const attemptedDeliveryBody = (message: string) => successBody(message, schema('WebhookDeliveryAttempted'));
export const queuedBody = (message: string) =>
  successBody(message, {
    type: 'object',
    required: ['queued'],
    additionalProperties: false,
    properties: {
      queued: {
        type: 'integer',
        minimum: 0,
        maximum: 1000,
        description: 'failed deliveries queued for one more attempt',
      },
    },
  });

/** GET /webhook/deliveries' query: the filters and the page (decisions 0010, 0018). */
export const deliveryListQuery: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: [...DELIVERY_STATUSES.words], description: 'only deliveries in this status' },
    event: { type: 'string', enum: [...WEBHOOK_EVENTS], description: 'only deliveries of this event' },
    from: { type: 'string', format: 'date-time', description: 'only deliveries created at or after this instant' },
    to: { type: 'string', format: 'date-time', description: 'only deliveries created before this instant' },
    ...pageQueryProperties,
  },
};

/** GET /webhook/deliveries: a cursor page by default, a numbered page for page=N (decision 0018). */
export const deliveryListBody: JsonSchema = {
  ...listBodySchema(schema('WebhookDelivery'), 'deliveries'),
  examples: [
    {
      data: [exampleDelivery],
      links: {
        first: null,
        last: null,
        prev: null,
        next: null,
      },
      meta: {
        path: 'https://api.corridor.example/api/external/webhook/deliveries',
        per_page: 15,
        next_cursor: null,
        prev_cursor: null,
      },
    },
  ],
};
