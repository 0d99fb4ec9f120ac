import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { readCaller } from '@corridor/grpc';
import { HttpError } from '../../http/errors.js';
import { readBody, requiredJsonObject } from '../../http/input.js';
import { pageRequestOf, queryOf } from '../../floor/pages/page-query.js';
import { listEnvelope } from '../../floor/pages/list-envelope.js';
import { pathParam } from '../../http/path-params.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { parseDeliveryListQuery } from './delivery-query.js';
import { attemptMadeJson, deliveryJson, deliveryWithAttemptsJson } from './delivery-render.js';
import {
  attemptedDeliveryBody,
  deliveryBody,
  deliveryListBody,
  deliveryListQuery,
  mockWebhookBody,
  queuedBody,
  replayFailedDeliveriesBody,
} from './delivery-schemas.js';
import { DELIVERY_STATUSES, EVENT_WORDS } from '@corridor/grpc/notification-words';
import {
  MockWebhookBody,
  mockWebhookRequest,
  ReplayFailedDeliveriesBody,
  replayFailedDeliveriesRequest,
} from './webhook-requests.js';

/** The attempt log, replay and the mock trigger (decision 0010). */

/**
 * Deadline of the calls that make an HTTP request to the platform before answering (a replay, the
 * mock). notification gives an attempt up to 30 s (seed 6.4 rule 6) with a 5 s connect limit, then
 * records it: the gateway's default deadline (GRPC_TIMEOUT_MS, 5 s) would answer 504 while the
 * attempt is still running and its outcome is about to be recorded.
 */
export const ATTEMPT_CALL_TIMEOUT_MS = 45_000;

export const SANDBOX_ONLY_MESSAGE = 'the mock webhook trigger is a sandbox simulation; production has none';

async function listDeliveries({ req, res, clients, call }: RouteContext): Promise<void> {
  const params = queryOf(req.originalUrl);
  const query = parseDeliveryListQuery(params);
  const answer = await clients.notification.listDeliveries(
    {
      status: query.status === undefined ? undefined : DELIVERY_STATUSES.toProto(query.status),
      eventType: query.event === undefined ? undefined : EVENT_WORDS.toProto(query.event),
      createdFrom: query.from ? timestampFromDate(query.from) : undefined,
      createdTo: query.to ? timestampFromDate(query.to) : undefined,
      ...pageRequestOf(query.page),
    },
    call,
  );
  res.json(listEnvelope(req, params, answer.deliveries.map(deliveryJson), answer));
}

async function getDelivery({ req, res, clients, call }: RouteContext): Promise<void> {
  const response = await clients.notification.getDelivery({ deliveryId: pathParam(req, 'id') }, call);
  res.json({ message: 'webhook delivery retrieved', data: deliveryWithAttemptsJson(response) });
}

async function replayDelivery({ req, res, clients, call }: RouteContext): Promise<void> {
  const response = await clients.notification.replayDelivery(
    { deliveryId: pathParam(req, 'id') },
    { ...call, timeoutMs: ATTEMPT_CALL_TIMEOUT_MS },
  );
  res.json({ message: 'webhook delivery replayed', data: attemptMadeJson(response) });
}

async function replayFailedDeliveries({ req, res, clients, call }: RouteContext): Promise<void> {
  const body = readBody(ReplayFailedDeliveriesBody, requiredJsonObject(req.body));
  // Only queues attempts (the worker makes them): the default deadline suffices.
  const { queued } = await clients.notification.replayFailedDeliveries(replayFailedDeliveriesRequest(body), call);
  res.status(202).json({ message: 'failed webhook deliveries queued for replay', data: { queued } });
}

async function triggerMockWebhook({ req, res, clients, metadata, call }: RouteContext): Promise<void> {
  // The environment the public router forwards is the verified token's, which only a token of this
  // deployment's environment gets past (issuer and audience per environment). Anything but sandbox
  // is refused here, before a request body reaches notification, which refuses it as well.
  if (readCaller(metadata).environment !== 'sandbox') throw new HttpError(403, 'SANDBOX_ONLY', SANDBOX_ONLY_MESSAGE);
  const body = readBody(MockWebhookBody, requiredJsonObject(req.body));
  const response = await clients.notification.triggerMockWebhook(mockWebhookRequest(body), {
    ...call,
    timeoutMs: ATTEMPT_CALL_TIMEOUT_MS,
  });
  res.json({ message: 'mock webhook sent', data: attemptMadeJson(response) });
}

const noDelivery = {
  description:
    'This business has no delivery with this id (a delivery that ended is kept 30 days), or the id is not a UUID',
};

/**
 * The routes of decision 0010. POST /webhook/deliveries/replay and POST /webhook/deliveries/{id}/replay
 * differ in length, and no GET or POST route reads /webhook/deliveries/{id} alone besides GET, so no
 * literal segment is ever taken for an id; the literal route is still listed first.
 */
export const WEBHOOK_DELIVERY_ROUTES: readonly PublicRoute[] = [
  {
    method: 'get',
    path: '/api/external/webhook/deliveries',
    scope: 'webhook:read',
    operationId: 'listWebhookDeliveries',
    summary:
      'List the business’s webhook deliveries, newest first, in cursor pages (per_page, default 15) or for page=N a numbered page of 15: filters status (pending, succeeded, failed), event, from and to (ISO 8601 date-times with a time zone, on created_at, from inclusive, to exclusive)',
    query: deliveryListQuery,
    responses: {
      200: { description: 'The page of deliveries, without their attempts', schema: deliveryListBody },
      422: {
        description:
          'An unknown or repeated query parameter, a status outside its values, an unknown event, from or to not an ISO 8601 date-time with a time zone, from not before to, page not a whole number from 1 to 100, per_page not from 1 to 100, page with cursor or per_page, or a cursor this list did not return; `errors` names each parameter',
      },
    },
    handle: listDeliveries,
  },
  {
    method: 'post',
    path: '/api/external/webhook/deliveries/replay',
    scope: 'webhook:replay',
    operationId: 'replayFailedWebhookDeliveries',
    summary:
      'Queue one more attempt of every failed delivery created in [since, until), at most 1,000 a call; the attempts are made in the background',
    requestBody: replayFailedDeliveriesBody,
    responses: {
      202: {
        description: 'How many failed deliveries were queued; a result of 1,000 means there may be more: call again',
        schema: queuedBody('failed webhook deliveries queued for replay'),
      },
      422: {
        description:
          'since is missing, since or until is not an ISO 8601 date-time, since is not before until, or the body has an unknown property; `errors` lists every problem',
      },
    },
    handle: replayFailedDeliveries,
  },
  {
    method: 'get',
    path: '/api/external/webhook/deliveries/{id}',
    scope: 'webhook:read',
    operationId: 'getWebhookDelivery',
    summary: 'Read one webhook delivery with every attempt, oldest first',
    responses: {
      200: { description: 'The delivery and its attempts', schema: deliveryBody('webhook delivery retrieved') },
      404: noDelivery,
    },
    handle: getDelivery,
  },
  {
    method: 'post',
    path: '/api/external/webhook/deliveries/{id}/replay',
    scope: 'webhook:replay',
    operationId: 'replayWebhookDelivery',
    summary:
      'Send a delivery again now, same body and x-corridor-webhook-id, freshly signed, and answer with the attempt (up to 30 s); a success ends a failed or pending delivery succeeded',
    responses: {
      200: {
        description:
          'The delivery after the attempt, and the attempt; a failed attempt is recorded and changes nothing else (outcome says which)',
        schema: attemptedDeliveryBody('webhook delivery replayed'),
      },
      404: noDelivery,
    },
    handle: replayDelivery,
  },
  {
    method: 'post',
    path: '/api/external/webhook/mock',
    scope: 'mock:webhook:trigger',
    operationId: 'triggerMockWebhook',
    summary:
      'Sandbox only: send a signed example of an event, once, to the URL that event goes to, and answer with the attempt (logged as a delivery with mock: true, never retried)',
    requestBody: mockWebhookBody,
    responses: {
      200: {
        description: 'The mock delivery with its one attempt, and that attempt',
        schema: attemptedDeliveryBody('mock webhook sent'),
      },
      404: {
        description:
          'The business has not registered webhook URLs yet (WEBHOOK_NOT_FOUND): POST /api/external/webhook first',
      },
      403: {
        description: `In production (SANDBOX_ONLY: ${SANDBOX_ONLY_MESSAGE}); or the token lacks mock:webhook:trigger (SCOPE_MISSING), the business has no API services (API_DISABLED), or the caller’s address is not allowed (IP_NOT_ALLOWED)`,
      },
      422: {
        description:
          'event is missing or unknown, or goes to kyc_url and the registration has none, or data has a member the example does not; `errors` lists every problem',
      },
    },
    handle: triggerMockWebhook,
  },
];
