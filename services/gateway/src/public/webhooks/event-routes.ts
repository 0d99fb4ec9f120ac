import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { HistoryEvent } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import {
  ENDPOINT_DISABLED_EVENT,
  EVENT_WORDS,
  HISTORY_EVENTS,
  WEBHOOK_EVENTS,
} from '@corridor/grpc/notification-words';
import { cursorListSchema } from '../../floor/pages/cursor-page.js';
import { listEnvelope, pageQueryProperties } from '../../floor/pages/list-envelope.js';
import { pageRequestOf, queryOf } from '../../floor/pages/page-query.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { iso } from '../../floor/times.js';
import { pathParam } from '../../http/path-params.js';
import type { JsonSchema } from '../../http/json-schema.js';
import { parseEventListQuery } from './delivery-query.js';
import { payloadOf } from './delivery-render.js';
import { dateTime, schema, successBody, uuid, webhookPayload } from './delivery-schemas.js';
import { present } from './render.js';

/** The event history (decision 0066) and its sequence (decision 0067). */

function eventJson(event: HistoryEvent) {
  return {
    id: event.id,
    event: EVENT_WORDS.toWord(event.eventType, 'event type'),
    sequence: Number(event.sequence),
    payload: payloadOf(event),
    occurred_at: iso(present(event.occurredAt, 'event occurred_at')),
    created_at: iso(present(event.createdAt, 'event created_at')),
  };
}

const exampleEvent = {
  id: '6f1d2a9e-81c4-4b7a-a5f0-3c2d1e0f9a88',
  event: 'collection.successful',
  sequence: 42,
  payload: {
    event: 'collection.successful',
    data: { transaction_id: '2d9f6a13-8c4b-4e07-a5d2-6b1e9c3f0a48', amount: '250.00', currency: 'CAD' },
  },
  occurred_at: '2026-11-21T09:00:00.080Z',
  created_at: '2026-11-21T09:00:00.120Z',
};

const eventProperties = {
  id: uuid('the event; the event_id of its deliveries'),
  event: {
    type: 'string',
    description: `the event name: ${WEBHOOK_EVENTS.join(', ')}; or ${ENDPOINT_DISABLED_EVENT}, the notice that one of your URLs was disabled (decision 0068), recorded here and never delivered`,
  },
  sequence: {
    type: 'integer',
    minimum: 1,
    description:
      'its number among your business’s events: 1, 2, 3, … without gaps, in the order they were committed; also the x-corridor-sequence header of every attempt',
  },
  payload: webhookPayload('the body its webhooks carried or would carry, parsed'),
  occurred_at: { ...dateTime, description: 'when it happened' },
  created_at: { ...dateTime, description: 'when it entered the history; from and to filter on it' },
} satisfies Record<string, JsonSchema>;

/** components.schemas of the event routes. */
export const eventSchemaComponents: Record<string, JsonSchema> = {
  Event: {
    type: 'object',
    description:
      'An event your webhooks carried, or would have carried had a URL been registered; kept at least 30 days',
    required: Object.keys(eventProperties),
    additionalProperties: false,
    properties: eventProperties,
    examples: [exampleEvent],
  },
};

const { page: _numbered, ...cursorPageProperties } = pageQueryProperties;

const eventListQuery: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: [...HISTORY_EVENTS], description: 'only events of this name' },
    from: { type: 'string', format: 'date-time', description: 'only events recorded at or after this instant' },
    to: { type: 'string', format: 'date-time', description: 'only events recorded before this instant' },
    ...cursorPageProperties,
  },
};

async function listEvents({ req, res, clients, call }: RouteContext): Promise<void> {
  const params = queryOf(req.originalUrl);
  const query = parseEventListQuery(params);
  const { cursorPage } = pageRequestOf(query.page);
  const answer = await clients.notification.listEvents(
    {
      eventType: query.type === undefined ? undefined : EVENT_WORDS.toProto(query.type),
      createdFrom: query.from ? timestampFromDate(query.from) : undefined,
      createdTo: query.to ? timestampFromDate(query.to) : undefined,
      cursorPage,
      // This gateway names every notice (decision 0068): show them.
      includeNotices: true,
    },
    call,
  );
  res.json(listEnvelope(req, params, answer.events.map(eventJson), answer));
}

async function getEvent({ req, res, clients, call }: RouteContext): Promise<void> {
  const { event } = await clients.notification.getEvent({ eventId: pathParam(req, 'id'), includeNotices: true }, call);
  res.json({ message: 'event retrieved', data: eventJson(present(event, 'event')) });
}

export const EVENT_ROUTES: readonly PublicRoute[] = [
  {
    method: 'get',
    path: '/api/external/event',
    scope: 'webhook:read',
    operationId: 'listEvents',
    summary:
      'List the business’s events, newest first, in cursor pages (per_page, default 15): every event its webhooks carried or would carry, kept at least 30 days, registered URL or not; filters type, from and to (ISO 8601 date-times with a time zone, on created_at, from inclusive, to exclusive)',
    query: eventListQuery,
    responses: {
      200: {
        description: 'The page of events',
        schema: {
          ...cursorListSchema(schema('Event'), 'events', 'a cursor page: per_page events, newest first'),
          examples: [
            {
              data: [exampleEvent],
              links: { first: null, last: null, prev: null, next: null },
              meta: {
                path: 'https://api.corridor.example/api/external/event',
                per_page: 15,
                next_cursor: null,
                prev_cursor: null,
              },
            },
          ],
        },
      },
      422: {
        description:
          'An unknown or repeated query parameter, an unknown type, from or to not an ISO 8601 date-time with a time zone, from not before to, per_page not from 1 to 100, or a cursor this list did not return; `errors` names each parameter',
      },
    },
    handle: listEvents,
  },
  {
    method: 'get',
    path: '/api/external/event/{id}',
    scope: 'webhook:read',
    operationId: 'getEvent',
    summary: 'Read one event of the history, with the body its webhooks carried or would carry and its sequence',
    responses: {
      200: {
        description: 'The event',
        schema: successBody('event retrieved', schema('Event')),
      },
      404: {
        description: 'This business has no event with this id (EVENT_NOT_FOUND; kept 30 days), or the id is not a UUID',
      },
    },
    handle: getEvent,
  },
];
