import { timestampDate } from '@bufbuild/protobuf/wkt';
import { z } from '@corridor/config';
import type { ListenDeliveriesResponse } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import type { Request } from 'express';
import { HttpError } from '../../http/errors.js';
import { ref, type JsonSchema } from '../../http/json-schema.js';
import { readBody, requiredJsonObject } from '../../http/input.js';
import { pathParam } from '../../http/path-params.js';
import { typeProblem } from '../../floor/fields.js';
import type { PublicRoute, RouteContext } from '../../floor/route-context.js';
import { attemptJson } from './delivery-render.js';
import { DESTINATIONS, EVENT_WORDS } from '@corridor/grpc/notification-words';

/**
 * `corridor listen` (decision 0034): the business's webhook deliveries as Server-Sent Events, fed by
 * polling notification's ListenDeliveries (the gRPC wrapper is unary), and the listener's report of
 * what its local URL answered. notification signs each copy; the stream never sees the secret.
 */

export interface ListenTiming {
  /** How often the stream asks notification for new deliveries. */
  pollMs: number;
  /** A comment line this often keeps proxies and clients from taking a quiet stream for a dead one. */
  heartbeatMs: number;
  /** After a failed poll (notification away), the wait before the next one. */
  retryMs: number;
}

const DEFAULT_TIMING: ListenTiming = { pollMs: 300, heartbeatMs: 15_000, retryMs: 1_000 };
const PAGE = 100;

/** Streams to end when the gateway stops: an open response would keep server.close() waiting forever. */
const openStreams = new Set<() => void>();
let stopHooked = false;
function endStreamsOnStop(): void {
  if (stopHooked) return;
  stopHooked = true;
  const endAll = () => {
    for (const end of [...openStreams]) end();
  };
  process.once('SIGTERM', endAll);
  process.once('SIGINT', endAll);
}

/** One delivery as an SSE event's data: what a forwarder needs to send it as notification would. */
function eventData({ delivery, headers }: ListenDeliveriesResponse['deliveries'][number]) {
  if (!delivery) throw new Error('notification listed a delivery without its message');
  return {
    delivery_id: delivery.id,
    event: EVENT_WORDS.toWord(delivery.eventType, 'delivery event'),
    destination: DESTINATIONS.toWord(delivery.destination, 'delivery destination'),
    url: delivery.url,
    mock: delivery.mock,
    created_at: delivery.createdAt ? timestampDate(delivery.createdAt).toISOString() : null,
    body: delivery.body,
    headers,
  };
}

const lastEventId = (req: Request) => (req.get('last-event-id') ?? '').trim();

function streamDeliveries(timing: ListenTiming) {
  return async ({ req, res, auth, clients, call }: RouteContext): Promise<void> => {
    const ask = (afterPosition: string) => clients.notification.listenDeliveries({ afterPosition, limit: PAGE }, call);
    // The first answer decides the status: a refusal (403 SANDBOX_ONLY, 422 for a Last-Event-ID this
    // stream never sent) is an ordinary JSON error, before any byte of the stream.
    let answer = await ask(lastEventId(req));
    let position = answer.position;

    res.status(200);
    res.set({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      // The socket ends with the stream, so a stopping gateway is not held by an idle keep-alive.
      connection: 'close',
    });
    res.flushHeaders();

    let open = true;
    let timer: NodeJS.Timeout | undefined;
    let wake: (() => void) | undefined;
    const end = (comment?: string) => {
      if (!open) return;
      open = false;
      openStreams.delete(endOnStop);
      clearTimeout(timer);
      clearInterval(heartbeat);
      clearTimeout(expiry);
      wake?.();
      if (comment && !res.writableEnded) res.write(`: ${comment}\n\n`);
      res.end();
    };
    const endOnStop = () => end('gateway stopping; reconnect with Last-Event-ID');
    openStreams.add(endOnStop);
    endStreamsOnStop();
    res.on('close', () => end());
    const heartbeat = setInterval(() => void res.write(': heartbeat\n\n'), timing.heartbeatMs);
    // The token's lifetime bounds the stream: the client reconnects with a fresh one, so a revoked
    // credential stops receiving within an hour at most.
    const expiry = setTimeout(
      () => end('token expired; reconnect with a new token and Last-Event-ID'),
      Math.max(0, auth.caller.expiresAt * 1000 - Date.now()),
    );
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, ms);
      });

    // Tells EventSource clients to reconnect after 1 s; the first comment shows the stream is live.
    res.write(`retry: 1000\n: listening from ${position}\n\n`);
    let failing = false;
    while (open) {
      for (const listened of answer.deliveries) {
        res.write(`id: ${listened.position}\ndata: ${JSON.stringify(eventData(listened))}\n\n`);
      }
      position = answer.position;
      // A full page: more are waiting, ask again at once; otherwise after the poll interval.
      if (answer.deliveries.length < PAGE) await pause(timing.pollMs);
      if (!open) break;
      try {
        answer = await ask(position);
        failing = false;
      } catch (error) {
        answer = { ...answer, deliveries: [], position };
        if (!failing) res.write(`: notification unavailable (${(error as Error).message}); retrying\n\n`);
        failing = true;
        await pause(timing.retryMs);
      }
    }
  };
}

/** What the listener reports: the local URL's answer, or why there was none. */
export const ListenAttemptBody = z.strictObject({
  status_code: z
    .number({ error: typeProblem('an integer from 100 to 599 or null') })
    .int('must be an integer from 100 to 599 or null')
    .min(100, 'must be an integer from 100 to 599 or null')
    .max(599, 'must be an integer from 100 to 599 or null')
    .nullable(),
  duration_ms: z
    .number({ error: typeProblem('an integer from 0 to 600000') })
    .int('must be an integer from 0 to 600000')
    .min(0, 'must be an integer from 0 to 600000')
    .max(600_000, 'must be an integer from 0 to 600000'),
  error: z
    .string({ error: typeProblem('a string') })
    .max(1000, 'must be at most 1000 characters')
    .optional(),
  response_body: z
    .string({ error: typeProblem('a string') })
    .max(65_536, 'must be at most 65536 characters (the first 4 KiB are kept)')
    .optional(),
});

async function recordListenAttempt({ req, res, clients, call }: RouteContext): Promise<void> {
  const body = readBody(ListenAttemptBody, requiredJsonObject(req.body));
  if (body.status_code === null && (body.error ?? '').trim() === '') {
    throw new HttpError(422, 'VALIDATION_FAILED', 'error is required when status_code is null', {
      error: ['is required when status_code is null: say why no answer came'],
    });
  }
  const { attempt } = await clients.notification.recordListenAttempt(
    {
      deliveryId: pathParam(req, 'id'),
      ...(body.status_code === null ? {} : { statusCode: body.status_code }),
      durationMs: body.duration_ms,
      errorMessage: body.error ?? '',
      responseBody: body.response_body ?? '',
    },
    call,
  );
  if (!attempt) throw new Error('notification recorded a listen attempt without answering it');
  res.status(201).json({ message: 'listen attempt recorded', data: attemptJson(attempt) });
}

/**
 * A character String.prototype.trim() keeps (ECMAScript's WhiteSpace and LineTerminator are the rest),
 * in \u escapes that ECMAScript and Python read alike: an error with one is not blank.
 */
const NOT_BLANK = '[^\\t\\n\\u000B\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF]';

const listenAttemptBodySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status_code', 'duration_ms'],
  // An answer came (a status), or say why none did: an error that is not blank, as recordListenAttempt refuses otherwise.
  // (In an allOf, so that generated types read it as a condition on the object, not an alternative to it.)
  allOf: [
    {
      anyOf: [
        { properties: { status_code: { type: 'integer' } } },
        { required: ['error'], properties: { error: { type: 'string', pattern: NOT_BLANK } } },
      ],
    },
  ],
  properties: {
    status_code: {
      type: ['integer', 'null'],
      minimum: 100,
      maximum: 599,
      description: 'what your local URL answered; null when it gave no answer (then say why in error)',
    },
    duration_ms: { type: 'integer', minimum: 0, maximum: 600000, description: 'from sending to the answer' },
    error: {
      type: 'string',
      maxLength: 1000,
      description: 'why no answer came (connection refused, timeout); required when status_code is null',
    },
    response_body: {
      type: 'string',
      maxLength: 65536,
      description: 'what your local URL answered; the first 4 KiB are kept',
    },
  },
  examples: [{ status_code: 200, duration_ms: 12, response_body: 'ok' }],
};

/** The stream as a client reads it: the opening comment, then one delivery (a mock kyc event's). */
const EXAMPLE_STREAM = [
  'retry: 1000',
  ': listening from 48213_00000000-0000-0000-0000-000000000000',
  '',
  'id: 48230_0b7e3c55-2f4a-4c1e-9d63-8a1f2e4b7c10',
  `data: ${JSON.stringify({
    delivery_id: '0b7e3c55-2f4a-4c1e-9d63-8a1f2e4b7c10',
    event: 'customer.status_changed',
    destination: 'kyc_url',
    url: 'https://platform.example/hooks/kyc',
    mock: false,
    created_at: '2026-11-21T09:00:00.120Z',
    body: '{"event":"customer.status_changed","data":{"customer_id":"9c4e1b7a-5d2f-4e8a-b3c6-7f1a0d2e9b45","old_status":"PROCESSING","new_status":"VERIFIED"}}',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Corridor-Webhooks/1.0',
      'x-corridor-timestamp': '1763715600',
      'x-corridor-signature': '5f2b9c0e6a1d4f3e8b7c2a9d0e1f4a6b3c8d7e2f1a0b9c4d6e5f3a2b1c0d9e8f',
      'x-corridor-webhook-id': '0b7e3c55-2f4a-4c1e-9d63-8a1f2e4b7c10',
      'webhook-id': '0b7e3c55-2f4a-4c1e-9d63-8a1f2e4b7c10',
      'webhook-timestamp': '1763715600',
      'webhook-signature': 'v1,Xyucdmodfz6LfCqdDh9KazyNfi8aC5xNblPzKxwNno8=',
    },
  })}`,
  '',
  ': heartbeat',
  '',
  '',
].join('\n');

const SANDBOX_ONLY =
  'In production (SANDBOX_ONLY), unless the deployment serves corridor listen there (WEBHOOK_LISTEN_IN_PRODUCTION); or the token lacks webhook:read (SCOPE_MISSING), the business has no API services (API_DISABLED), or the caller’s address is not allowed (IP_NOT_ALLOWED)';

/** The routes of decision 0034; `timing` is for specs (a short heartbeat). */
export function webhookListenRoutes(timing: ListenTiming = DEFAULT_TIMING): readonly PublicRoute[] {
  return [
    {
      method: 'get',
      path: '/api/external/webhook/listen',
      scope: 'webhook:read',
      operationId: 'listenWebhookDeliveries',
      summary:
        'Sandbox: the business’s webhook deliveries as they are created, as Server-Sent Events (text/event-stream) for `corridor listen`. Each event’s id is its position (send it back as Last-Event-ID to resume, missing nothing) and its data {delivery_id, event, destination, url, mock, created_at, body, headers}: body is the exact raw body, headers are signed now as an attempt would be. Comments (heartbeat) every 15 s; the stream ends when the token expires or the gateway stops',
      responses: {
        200: {
          description:
            'A text/event-stream: `id: <position>` and `data: <JSON>` per delivery, oldest first; from now on, or after Last-Event-ID',
          mediaType: 'text/event-stream',
          schema: {
            type: 'string',
            description:
              'Server-Sent Events: comments (`: …`), then per delivery an `id:` line and a `data:` line of JSON shaped as the example’s, ended by a blank line',
          },
          example: EXAMPLE_STREAM,
        },
        403: { description: SANDBOX_ONLY },
        422: { description: 'Last-Event-ID is not an event id this stream sent' },
      },
      handle: streamDeliveries(timing),
    },
    {
      method: 'post',
      path: '/api/external/webhook/deliveries/{id}/listen-attempts',
      scope: 'webhook:read',
      operationId: 'recordWebhookListenAttempt',
      summary:
        'Sandbox: record what your local URL answered to a delivery corridor listen forwarded, as an attempt with trigger listen; the delivery’s status and its attempts to your registered URL are unchanged',
      requestBody: listenAttemptBodySchema,
      responses: {
        201: {
          description: 'The attempt as recorded',
          schema: {
            type: 'object',
            required: ['message', 'data'],
            additionalProperties: false,
            properties: {
              message: { type: 'string', const: 'listen attempt recorded' },
              data: { $ref: ref('schemas', 'WebhookAttempt').$ref },
            },
          },
        },
        403: { description: SANDBOX_ONLY },
        404: { description: 'This business has no delivery with this id, or the id is not a UUID' },
        422: {
          description:
            'status_code not an integer from 100 to 599 or null, duration_ms not from 0 to 600000, error missing when status_code is null, or an unknown property; `errors` names each',
        },
      },
      handle: recordListenAttempt,
    },
  ];
}

export const WEBHOOK_LISTEN_ROUTES = webhookListenRoutes();
