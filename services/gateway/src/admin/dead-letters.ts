import { z } from '@corridor/config';
import {
  DeadLetterStatusSchema,
  RetryOutcomeSchema,
  type DeadLetter,
} from '@corridor/contracts/corridor/bus/v1/dead_letter_service_pb';
import { HttpError } from '../http/errors.js';
import { readQuery } from '../http/input.js';
import { pathParam } from '../http/path-params.js';
import { zodOpenApi } from '../floor/zod-schemas.js';
import { cursorEnvelope, cursorList, listLocationOf } from '../floor/pages/cursor-page.js';
import { queryOf } from '../floor/pages/page-query.js';
import { pageCursor, perPage, wordOf } from '../floor/fields.js';
import { present } from '../public/payments/render.js';
import { protoVocabulary } from '../public/payments/vocabulary.js';
import { uuidOfPath } from '../floor/path-ids.js';
import type { AdminRoute, AdminRouteContext } from '../floor/route-context.js';
import { iso, isoOrNull } from '../floor/times.js';

/**
 * The consumers' dead letters (decision 0023): messages notification's or payments' consumer could
 * not decode, kept with their raw bytes. Listed, read and retried through the DeadLetterService each
 * of the two serves on its own gRPC port; `{service}` says which one's table.
 */

export const DEAD_LETTER_SERVICES = ['notification', 'payments'] as const;
type DeadLetterServiceName = (typeof DEAD_LETTER_SERVICES)[number];

export const DEAD_LETTER_STATUSES = protoVocabulary(DeadLetterStatusSchema, 'lower');
export const RETRY_OUTCOMES = protoVocabulary(RetryOutcomeSchema, 'lower');

const isDeadLetterService = (name: string): name is DeadLetterServiceName =>
  (DEAD_LETTER_SERVICES as readonly string[]).includes(name);

/** The path's `{service}`: one that consumes events and so keeps dead letters, else 404. */
function serviceOfPath(req: AdminRouteContext['req']): DeadLetterServiceName {
  const service = pathParam(req, 'service');
  if (!isDeadLetterService(service)) {
    throw new HttpError(
      404,
      'SERVICE_NOT_FOUND',
      `${service} keeps no dead letters; the services that do are ${DEAD_LETTER_SERVICES.join(' and ')}`,
    );
  }
  return service;
}

const deadLettersOf = ({ clients }: AdminRouteContext, service: DeadLetterServiceName) =>
  service === 'notification' ? clients.notificationDeadLetters : clients.paymentsDeadLetters;

/** The path's `{id}`: not a uuid is 404 at the edge, as the service would answer (its words). */
const deadLetterIdOfPath = (req: AdminRouteContext['req']) =>
  uuidOfPath(req, 'id', (id) => new HttpError(404, 'DEAD_LETTER_NOT_FOUND', `dead letter ${id} not found`));

// --- answers -------------------------------------------------------------------------------------

const instant = (description: string) => z.iso.datetime().meta({ description });
const base64 = (description: string) => z.base64().meta({ description, contentEncoding: 'base64' });

export const DeadLetterItem = z
  .strictObject({
    id: z.guid(),
    service: z.enum(DEAD_LETTER_SERVICES).meta({ description: 'whose consumer received it: the path’s {service}' }),
    consumer: z.string().meta({ description: 'the consumer group; the namespace of its event id once applied' }),
    topic: z.string(),
    partition: z.int().nonnegative(),
    offset: z
      .string()
      .regex(/^\d+$/)
      .meta({ description: 'the Kafka offset: an int64, so a string as protobuf’s JSON mapping gives it' }),
    status: wordOf(DEAD_LETTER_STATUSES, 'unresolved: not applied yet; resolved: a retry decoded it'),
    error: z.string().meta({ description: 'why it could not be decoded when it arrived' }),
    value_size: z.int().nonnegative().meta({ description: 'bytes in the value (0 when it had none)' }),
    received_at: instant('when the consumer received it; the list’s order, newest first'),
    retry_count: z.int().nonnegative().meta({ description: 'retries made so far, the successful one included' }),
    last_retried_at: instant('the last retry').nullable(),
    last_retry_error: z.string().nullable().meta({ description: 'why the last retry failed; null when none did' }),
    resolved_at: instant('when a retry decoded it').nullable(),
    event_id: z.guid().nullable().meta({ description: 'the event’s id, once a retry decoded it' }),
  })
  .meta({ description: 'A Kafka message a consumer could not decode, without its bytes (decision 0023)' });

export const DeadLetterDetail = DeadLetterItem.extend({
  key: base64('the raw key, base64; null when the message had none').nullable(),
  value: base64('the raw value exactly as received, base64; null when the message had none').nullable(),
  headers: z
    .array(
      z.strictObject({
        name: z.string(),
        value: base64('the header’s bytes, base64'),
      }),
    )
    .meta({ description: 'the Kafka headers as received; a name sent several times appears once per value' }),
}).meta({ description: 'A dead letter with its raw key, value and headers' });

export const DeadLetterList = cursorList(DeadLetterItem, 'dead letters');

export const RetryAnswer = z.strictObject({
  outcome: wordOf(
    RETRY_OUTCOMES,
    'applied: decoded and applied now; already_applied: decoded, the consumer had applied this event already; already_resolved: nothing done',
  ),
  dead_letter: DeadLetterDetail,
});

const DEAD_LETTER_COMPONENTS = { DeadLetter: DeadLetterItem, DeadLetterDetail } as const;

const converted = zodOpenApi(DEAD_LETTER_COMPONENTS);
const { jsonSchemaOf, querySchemaOf } = converted;

/** components.schemas of the dead-letter routes. */
export const deadLetterSchemaComponents = converted.schemaComponents;

export const DeadLetterListQuery = z.strictObject({
  status: wordOf(
    DEAD_LETTER_STATUSES,
    'only unresolved (waiting for a retry) or resolved ones; absent: all',
  ).optional(),
  cursor: pageCursor(),
  per_page: perPage('dead letters'),
});

const base64Of = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

export function deadLetterItemJson(deadLetter: DeadLetter, service: DeadLetterServiceName) {
  return {
    id: deadLetter.id,
    service,
    consumer: deadLetter.consumer,
    topic: deadLetter.topic,
    partition: deadLetter.partition,
    offset: deadLetter.offset.toString(),
    status: DEAD_LETTER_STATUSES.toWord(deadLetter.status, 'dead letter status'),
    error: deadLetter.error,
    value_size: deadLetter.valueSize,
    received_at: iso(present(deadLetter.receivedAt, 'received_at')),
    retry_count: deadLetter.retryCount,
    last_retried_at: isoOrNull(deadLetter.lastRetriedAt),
    last_retry_error: deadLetter.lastRetryError || null,
    resolved_at: isoOrNull(deadLetter.resolvedAt),
    event_id: deadLetter.eventId || null,
  };
}

export function deadLetterDetailJson(deadLetter: DeadLetter, service: DeadLetterServiceName) {
  return {
    ...deadLetterItemJson(deadLetter, service),
    key: deadLetter.key === undefined ? null : base64Of(deadLetter.key),
    value: deadLetter.value === undefined ? null : base64Of(deadLetter.value),
    headers: deadLetter.headers.map(({ name, value }) => ({ name, value: base64Of(value) })),
  };
}

// --- routes ----------------------------------------------------------------------------------------

async function listDeadLetters(context: AdminRouteContext): Promise<void> {
  const { req, res, call } = context;
  const service = serviceOfPath(req);
  const params = queryOf(req.originalUrl);
  const query = readQuery(DeadLetterListQuery, params);
  const { deadLetters, cursorPage } = await deadLettersOf(context, service).listDeadLetters(
    {
      status: query.status === undefined ? undefined : DEAD_LETTER_STATUSES.toProto(query.status),
      cursorPage: { cursor: query.cursor ?? '', limit: query.per_page },
    },
    call,
  );
  res.json(
    cursorEnvelope(
      deadLetters.map((deadLetter) => deadLetterItemJson(deadLetter, service)),
      present(cursorPage, 'cursor_page'),
      query.per_page,
      listLocationOf(req, params),
    ),
  );
}

async function getDeadLetter(context: AdminRouteContext): Promise<void> {
  const { req, res, call } = context;
  const service = serviceOfPath(req);
  const deadLetterId = deadLetterIdOfPath(req);
  const answer = await deadLettersOf(context, service).getDeadLetter({ deadLetterId }, call);
  res.json(deadLetterDetailJson(present(answer.deadLetter, 'dead_letter'), service));
}

async function retryDeadLetter(context: AdminRouteContext): Promise<void> {
  const { req, res, call } = context;
  const service = serviceOfPath(req);
  const deadLetterId = deadLetterIdOfPath(req);
  const answer = await deadLettersOf(context, service).retryDeadLetter({ deadLetterId }, call);
  res.json({
    outcome: RETRY_OUTCOMES.toWord(answer.outcome, 'retry outcome'),
    dead_letter: deadLetterDetailJson(present(answer.deadLetter, 'dead_letter'), service),
  });
}

const NO_SUCH_SERVICE = `{service} is not notification or payments (SERVICE_NOT_FOUND)`;
const NOT_FOUND = {
  description: `${NO_SUCH_SERVICE}; or no dead letter with this id in that service’s table (DEAD_LETTER_NOT_FOUND)`,
};

export const DEAD_LETTER_ROUTES: readonly AdminRoute[] = [
  {
    method: 'get',
    path: '/admin/dead-letters/{service}',
    operationId: 'listDeadLetters',
    summary:
      'Messages notification’s or payments’ consumer could not decode, newest first, in cursor pages, without their bytes; status=unresolved is the work list',
    query: querySchemaOf(DeadLetterListQuery),
    responses: {
      200: {
        description: 'A page of dead letters in Laravel’s cursor-paginator envelope',
        schema: jsonSchemaOf(DeadLetterList),
      },
      404: { description: NO_SUCH_SERVICE },
      422: {
        description:
          'An unknown or repeated parameter, status not unresolved or resolved, per_page outside 1..100, an empty cursor (VALIDATION_FAILED, `errors` names each parameter); a cursor that is not one of this list’s pages (the service refuses it, naming cursor)',
      },
    },
    handle: listDeadLetters,
  },
  {
    method: 'get',
    path: '/admin/dead-letters/{service}/{id}',
    operationId: 'getDeadLetter',
    summary: 'One dead letter with its raw key, value and headers (base64), and its retries so far',
    responses: {
      200: { description: 'The dead letter', schema: jsonSchemaOf(DeadLetterDetail) },
      404: NOT_FOUND,
    },
    handle: getDeadLetter,
  },
  {
    method: 'post',
    path: '/admin/dead-letters/{service}/{id}/retry',
    operationId: 'retryDeadLetter',
    summary:
      'Decode the stored message again with the running code and, if it decodes, apply its event as the consumer would and resolve it; idempotent, no body',
    responses: {
      200: { description: 'What the retry did, and the dead letter after it', schema: jsonSchemaOf(RetryAnswer) },
      400: {
        description:
          'It still cannot be decoded: the attempt is recorded (retry_count, last_retry_error) and the message names why (DEAD_LETTER_UNDECODABLE); or it was received by another consumer group than the service’s (DEAD_LETTER_OF_ANOTHER_CONSUMER)',
      },
      404: NOT_FOUND,
    },
    handle: retryDeadLetter,
  },
];
