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
import { keysetRead, numberedPage, numberedRead } from '@corridor/pagination';
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
import { DeliveryRepository, type DeliveryFilter } from './delivery-repository.js';
import { DELIVERY_STATUSES, isDeliveryStatus, type Delivery } from './delivery.js';

/** One bulk replay queues at most this many; the answer's count tells the platform to call again. */
const BULK_REPLAY_LIMIT = 1_000;

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
  const status = request.status !== undefined && isDeliveryStatus(request.status) ? request.status : undefined;
  if (request.status !== undefined && !status) {
    problems.add('status', `must be one of ${DELIVERY_STATUSES.join(', ')}`);
  }
  if (request.eventType !== undefined && !isWebhookEventType(request.eventType)) {
    problems.add('event', `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}, got ${JSON.stringify(request.eventType)}`);
  }
  const from = request.createdFrom ? timestampDate(request.createdFrom) : undefined;
  const to = request.createdTo ? timestampDate(request.createdTo) : undefined;
  if (from && to && from >= to) problems.add('from', 'must be before to');
  if (!problems.isEmpty) invalid(problems);

  const filter: DeliveryFilter = {
    businessId,
    status,
    eventType: request.eventType,
    createdFrom: from,
    createdBefore: to,
  };
  const deliveries = new DeliveryRepository(em);
  const render = async (rows: Delivery[]) => {
    const endpoint = await em.findOne(WebhookEndpoint, { businessId });
    return endpoint ? rows.map((delivery) => toDeliveryProto(delivery, endpoint)) : [];
  };

  if (request.page > 0) {
    const read = numberedRead(request.page);
    const listed = await deliveries.listNumbered({ filter, read });
    return { deliveries: await render(listed.deliveries), page: numberedPage(read, listed.counted) };
  }
  const page = await deliveries.listDeliveries({ filter, read: keysetRead(request.cursorPage) });
  return {
    deliveries: await render(page.rows),
    cursorPage: { nextCursor: page.nextCursor, previousCursor: page.previousCursor, limit: page.limit },
  };
}

async function findDelivery(em: EntityManager, businessId: string, deliveryId: string): Promise<Delivery> {
  if (!isUuid(deliveryId)) throw noDelivery(deliveryId);
  const delivery = await new DeliveryRepository(em).findDelivery({ businessId, deliveryId });
  if (!delivery) throw noDelivery(deliveryId);
  return delivery;
}

/** GET /webhook/deliveries/{id}: the delivery with every attempt, oldest first. */
export async function getDelivery(em: EntityManager, businessId: string, deliveryId: string): Promise<WebhookDelivery> {
  const delivery = await findDelivery(em, businessId, deliveryId);
  const endpoint = await registrationOf(em, businessId);
  return toDeliveryProto(delivery, endpoint, await new DeliveryRepository(em).attemptsOf(delivery.id));
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
    delivery: toDeliveryProto(replayed.delivery, endpoint, await new DeliveryRepository(em).attemptsOf(delivery.id)),
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

  const queued = await new DeliveryRepository(em).queueFailedForReplay({
    businessId,
    createdFrom: since,
    createdBefore: until,
    limit: BULK_REPLAY_LIMIT,
    now: context.now(),
  });
  if (queued > 0) context.wakeWorker?.();
  return queued;
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
    const deliveries = new DeliveryRepository(tx);
    await deliveries.insert({ ...draft, nextAttemptAt: null, mock: true, now });
    return deliveries.recordAttempt({
      deliveryId: draft.id,
      trigger: 'mock',
      result,
      nextAttemptAt: null,
      now: context.now(),
    });
  });
  observeAttempt(draft, 'mock', result);
  return {
    delivery: toDeliveryProto(recorded.delivery, endpoint, [recorded.attempt]),
    attempt: toAttemptProto(recorded.attempt),
  };
}
