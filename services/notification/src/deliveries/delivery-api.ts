import type {
  ListDeliveriesRequest,
  WebhookAttempt,
  WebhookDelivery,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import {
  describeJson,
  FieldProblems,
  firstProblemMessage,
  invalidArgument,
  isJsonObject,
  isUuid,
  NOT_RECOGNISED,
  notFound,
  permissionDenied,
  BODY_PATH,
} from '@corridor/grpc';
import { dateOf } from '@corridor/db';
import {
  cappedCountSql,
  keysetPage,
  keysetRead,
  numberedPage,
  numberedPageSql,
  numberedRead,
} from '@corridor/pagination';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { NotificationContext } from '../context.js';
import {
  destinationOf,
  isWebhookEventType,
  mockWebhookData,
  webhookBody,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EVENTS,
  type WebhookData,
} from '../events/webhook-events.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';
import { attemptDelivery, observeAttempt, requestFor, type DeliveryRuntime } from './attempt-delivery.js';
import { toAttemptProto, toDeliveryProto } from './delivery-proto.js';
import {
  attemptsOf,
  deliveryFromRow,
  insertDelivery,
  query,
  recordAttempt,
  type Delivery,
  type DeliveryStatus,
} from './delivery-store.js';

/** One bulk replay queues at most this many; the answer's count tells the platform to call again. */
export const BULK_REPLAY_LIMIT = 1_000;
const STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed'];

const noRegistration = () =>
  notFound(
    'WEBHOOK_NOT_FOUND',
    'this business has no webhook configuration; register one with POST /api/external/webhook',
  );
const noDelivery = (id: string) => notFound('DELIVERY_NOT_FOUND', `webhook delivery ${id} not found`);

function invalid(problems: FieldProblems): never {
  const errors = problems.errors;
  throw invalidArgument(firstProblemMessage(errors), errors);
}

async function registrationOf(em: EntityManager, businessId: string) {
  const endpoint = await em.findOne(WebhookEndpoint, { businessId });
  if (!endpoint) throw noRegistration();
  return endpoint;
}

function runtimeOf(context: NotificationContext): DeliveryRuntime {
  if (!context.deliveries) throw new Error('this process makes no webhook attempts');
  return context.deliveries;
}

type DeliveryPage =
  | { page: ReturnType<typeof numberedPage>; cursorPage?: undefined }
  | { cursorPage: { nextCursor?: string; previousCursor?: string; limit: number }; page?: undefined };

/**
 * GET /webhook/deliveries: newest first, a cursor page, or with `page` a numbered one (decision
 * 0018); nothing is counted past 10,001 rows, and another business's deliveries are never seen.
 */
export async function listDeliveries(
  em: EntityManager,
  businessId: string,
  request: ListDeliveriesRequest,
): Promise<{ deliveries: WebhookDelivery[] } & DeliveryPage> {
  const problems = new FieldProblems();
  if (request.status !== undefined && !STATUSES.includes(request.status as DeliveryStatus)) {
    problems.add('status', `must be one of ${STATUSES.join(', ')}`);
  }
  if (request.eventType !== undefined && !isWebhookEventType(request.eventType)) {
    problems.add('event', `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}, got ${JSON.stringify(request.eventType)}`);
  }
  const from = request.createdFrom ? timestampDate(request.createdFrom) : undefined;
  const to = request.createdTo ? timestampDate(request.createdTo) : undefined;
  if (from && to && from >= to) problems.add('from', 'must be before to');
  if (!problems.isEmpty) invalid(problems);

  const conditions: [string, unknown][] = [['business_id = ?', businessId]];
  if (request.status !== undefined) conditions.push(['status = ?', request.status]);
  if (request.eventType !== undefined) conditions.push(['event_type = ?', request.eventType]);
  if (from) conditions.push(['created_at >= ?', from]);
  if (to) conditions.push(['created_at < ?', to]);
  const filter = conditions.map(([sql]) => sql).join(' and ');
  const params = conditions.map(([, value]) => value);
  const render = async (rows: Record<string, unknown>[]) => {
    const endpoint = await em.findOne(WebhookEndpoint, { businessId });
    return endpoint ? rows.map((row) => toDeliveryProto(deliveryFromRow(row), endpoint)) : [];
  };

  if (request.page > 0) {
    const read = numberedRead(request.page);
    const [[counted], rows] = await Promise.all([
      query(em, cappedCountSql('webhook_delivery', filter), params),
      query(em, numberedPageSql('webhook_delivery', filter, 'created_at desc, id desc'), [
        ...params,
        read.perPage,
        read.offset,
      ]),
    ]);
    return { deliveries: await render(rows), page: numberedPage(read, Number(counted?.counted ?? 0)) };
  }
  const read = keysetRead(request.cursorPage);
  const seek = read.seek ? ` and ${read.seek}` : '';
  const rows = await query(em, `select * from webhook_delivery where ${filter}${seek} order by ${read.order} limit ?`, [
    ...params,
    ...read.seekParams,
    read.limit + 1,
  ]);
  const page = keysetPage(rows, read, (row) => ({ createdAt: dateOf(row.created_at), id: String(row.id) }));
  return {
    deliveries: await render(page.rows),
    cursorPage: { nextCursor: page.nextCursor, previousCursor: page.previousCursor, limit: page.limit },
  };
}

async function findDelivery(em: EntityManager, businessId: string, deliveryId: string): Promise<Delivery> {
  if (!isUuid(deliveryId)) throw noDelivery(deliveryId);
  const [row] = await query(em, `select * from webhook_delivery where id = ? and business_id = ?`, [
    deliveryId,
    businessId,
  ]);
  if (!row) throw noDelivery(deliveryId);
  return deliveryFromRow(row);
}

/** GET /webhook/deliveries/{id}: the delivery with every attempt, oldest first. */
export async function getDelivery(em: EntityManager, businessId: string, deliveryId: string): Promise<WebhookDelivery> {
  const delivery = await findDelivery(em, businessId, deliveryId);
  const endpoint = await registrationOf(em, businessId);
  return toDeliveryProto(delivery, endpoint, await attemptsOf(em, delivery.id));
}

/** POST /webhook/deliveries/{id}/replay: the same bytes, freshly signed, now; answers with the attempt. */
export async function replayDelivery(
  em: EntityManager,
  context: NotificationContext,
  businessId: string,
  deliveryId: string,
): Promise<{ delivery: WebhookDelivery; attempt: WebhookAttempt }> {
  const delivery = await findDelivery(em, businessId, deliveryId);
  // The delivery as the attempt's record left it (recordAttempt returns the updated row).
  const replayed = await attemptDelivery(em, runtimeOf(context), delivery, 'replay');
  const endpoint = await registrationOf(em, businessId);
  return {
    delivery: toDeliveryProto(replayed.delivery, endpoint, await attemptsOf(em, delivery.id)),
    attempt: toAttemptProto(replayed.attempt),
  };
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

function dateTimeField(problems: FieldProblems, body: Record<string, unknown>, name: string): Date | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !ISO_DATE_TIME.test(value) || Number.isNaN(Date.parse(value))) {
    problems.add(name, `must be an ISO 8601 date-time such as 2026-11-21T09:30:00Z, got ${describeJson(value)}`);
    return undefined;
  }
  return new Date(value);
}

/** POST /webhook/deliveries/replay: queues one more attempt of each failed delivery created in [since, until). */
export async function replayFailedDeliveries(
  em: EntityManager,
  context: NotificationContext,
  businessId: string,
  body: unknown,
): Promise<number> {
  const problems = new FieldProblems();
  if (!isJsonObject(body)) {
    problems.add(
      BODY_PATH,
      `must be a JSON object such as {"since": "2026-11-21T00:00:00Z"}, got ${describeJson(body)}`,
    );
    invalid(problems);
  }
  for (const key of Object.keys(body)) if (key !== 'since' && key !== 'until') problems.add(key, NOT_RECOGNISED);
  const since = dateTimeField(problems, body, 'since');
  const until = dateTimeField(problems, body, 'until');
  if (body.since === undefined || body.since === null) problems.add('since', 'is required');
  if (since && until && since >= until) problems.add('until', 'must be after since');
  if (!problems.isEmpty || !since) invalid(problems);

  const now = context.now();
  const rows = await query(
    em,
    `update webhook_delivery set replay_requested_at = ?, updated_at = ?
     where id in (
       select id from webhook_delivery
       where business_id = ? and status = 'failed' and replay_requested_at is null
         and created_at >= ? ${until ? 'and created_at < ?' : ''}
       order by created_at
       limit ?
     )
     returning id`,
    [now, now, businessId, since, ...(until ? [until] : []), BULK_REPLAY_LIMIT],
  );
  if (rows.length > 0) context.wakeWorker?.();
  return rows.length;
}

const MOCK_KEYS = new Set(['event', 'data']);

/** POST /webhook/mock (sandbox only): one signed example of the event, sent now, logged as a mock delivery. */
export async function triggerMockWebhook(
  em: EntityManager,
  context: NotificationContext,
  businessId: string,
  body: unknown,
): Promise<{ delivery: WebhookDelivery; attempt: WebhookAttempt }> {
  if (context.environment !== 'sandbox') {
    throw permissionDenied('SANDBOX_ONLY', 'the mock webhook trigger is a sandbox simulation; production has none');
  }
  const problems = new FieldProblems();
  if (!isJsonObject(body)) {
    problems.add(
      BODY_PATH,
      `must be a JSON object such as {"event": "customer.status_changed"}, got ${describeJson(body)}`,
    );
    invalid(problems);
  }
  for (const key of Object.keys(body)) if (!MOCK_KEYS.has(key)) problems.add(key, NOT_RECOGNISED);
  const event = body.event;
  if (event === undefined || event === null) problems.add('event', 'is required');
  else if (typeof event !== 'string') problems.add('event', `must be a string, got ${describeJson(event)}`);
  else if (!isWebhookEventType(event)) {
    problems.add('event', `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}, got ${JSON.stringify(event)}`);
  }
  const overrides = body.data;
  if (overrides !== undefined && overrides !== null && !isJsonObject(overrides)) {
    problems.add('data', `must be an object of fields replacing the example's, got ${describeJson(overrides)}`);
  }
  if (!problems.isEmpty || typeof event !== 'string' || !isWebhookEventType(event)) invalid(problems);
  const example: WebhookData = WEBHOOK_EVENTS[event].example;
  if (isJsonObject(overrides)) {
    for (const key of Object.keys(overrides)) {
      if (!Object.hasOwn(example, key)) problems.add(`data.${key}`, `is not a field of ${event}`);
    }
  }
  const endpoint = await registrationOf(em, businessId);
  const destination = destinationOf(event, endpoint);
  if (!destination) {
    problems.add(
      'event',
      `${event} is delivered to kyc_url, which this registration does not have; add it with PUT /api/external/webhook/${endpoint.id}`,
    );
  }
  if (!problems.isEmpty || !destination) invalid(problems);

  const data = mockWebhookData(event, businessId, isJsonObject(overrides) ? overrides : {});
  const runtime = runtimeOf(context);
  const now = context.now();
  const draft: Delivery = {
    id: randomUUID(),
    businessId,
    endpointId: endpoint.id,
    eventId: randomUUID(),
    eventType: event,
    destination,
    body: webhookBody(event, data),
    status: 'pending',
    attemptCount: 0,
    scheduledAttempts: 0,
    nextAttemptAt: null,
    replayRequestedAt: null,
    leaseUntil: null,
    mock: true,
    traceContext: {},
    eventOccurredAt: now,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
  };
  const request = await requestFor(em, runtime.secrets, draft);
  if (!request) throw noRegistration();
  // Sent before it is stored: a mock is never retried, so there is nothing to resume if this call dies.
  const result = await runtime.sender.send({ ...request, body: draft.body, webhookId: draft.id });
  const recorded = await em.transactional(async (tx) => {
    await insertDelivery(tx, { ...draft, nextAttemptAt: null, mock: true, now });
    return recordAttempt(tx, draft.id, { trigger: 'mock', result, nextAttemptAt: null, now: context.now() });
  });
  observeAttempt(draft, 'mock', result);
  return {
    delivery: toDeliveryProto(recorded.delivery, endpoint, [recorded.attempt]),
    attempt: toAttemptProto(recorded.attempt),
  };
}
