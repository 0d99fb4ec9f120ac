import type {
  ListDeliveriesRequest,
  ReplayFailedDeliveriesRequest,
  TriggerMockWebhookRequest,
  WebhookAttempt,
  WebhookDelivery,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { invalidArgument, notFound, permissionDenied, type ProtoVocabulary } from '@corridor/grpc';
import { FieldProblems, firstProblemMessage, isUuid } from '@corridor/validation';
import { keysetRead, numberedPage, numberedRead } from '@corridor/pagination';
import type { EntityManager } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { NotificationContext } from '../context.js';
import {
  destinationOf,
  isWebhookEventType,
  mockWebhookData,
  webhookBody,
  WEBHOOK_EVENTS,
  type WebhookData,
} from '../events/webhook-events.js';
import { WebhookEndpoint } from '../webhooks/webhook-endpoint.entity.js';
import { attemptDelivery, observeAttempt, requestFor, type DeliveryRuntime } from './attempt-delivery.js';
import { DELIVERY_STATUS_WORDS, EVENT_WORDS, toAttemptProto, toDeliveryProto } from './delivery-proto.js';
import { DeliveryRepository, type DeliveryFilter } from './delivery-repository.js';
import { isDeliveryStatus, type Delivery } from './delivery.js';

/** One bulk replay queues at most this many; the answer's count tells the platform to call again. */
const BULK_REPLAY_LIMIT = 1_000;

const noRegistration = () =>
  notFound(
    'WEBHOOK_NOT_FOUND',
    'this business has no webhook configuration; register one with POST /api/external/webhook',
  );
const noDelivery = (id: string) => notFound('DELIVERY_NOT_FOUND', `webhook delivery ${id} not found`);

export function invalid(problems: FieldProblems): never {
  const errors = problems.errors;
  throw invalidArgument(firstProblemMessage(errors), errors);
}

/**
 * A request's enum as the word notification stores, or undefined (absent); UNSPECIFIED or a value
 * this build does not know is a problem naming the public field.
 */
export function wordOf<E extends number>(
  vocabulary: ProtoVocabulary<E>,
  value: E | undefined,
  field: string,
  problems: FieldProblems,
): string | undefined {
  if (value === undefined) return undefined;
  try {
    return vocabulary.toWord(value, field);
  } catch {
    problems.add(field, `must be one of ${vocabulary.words.join(', ')}`);
    return undefined;
  }
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
  const statusWord = wordOf(DELIVERY_STATUS_WORDS, request.status, 'status', problems);
  const status = statusWord !== undefined && isDeliveryStatus(statusWord) ? statusWord : undefined;
  const eventType = wordOf(EVENT_WORDS, request.eventType, 'event', problems);
  const from = request.createdFrom ? timestampDate(request.createdFrom) : undefined;
  const to = request.createdTo ? timestampDate(request.createdTo) : undefined;
  if (from && to && from >= to) problems.add('from', 'must be before to');
  if (!problems.isEmpty) invalid(problems);

  const filter: DeliveryFilter = {
    businessId,
    status,
    eventType,
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

/** POST /webhook/deliveries/replay: queues one more attempt of each failed delivery created in [since, until). */
export async function replayFailedDeliveries(
  em: EntityManager,
  context: NotificationContext,
  businessId: string,
  request: Pick<ReplayFailedDeliveriesRequest, 'since' | 'until'>,
): Promise<number> {
  const problems = new FieldProblems();
  const since = request.since ? timestampDate(request.since) : undefined;
  const until = request.until ? timestampDate(request.until) : undefined;
  if (!since) problems.add('since', 'is required');
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

/** POST /webhook/mock (sandbox only): one signed example of the event, sent now, logged as a mock delivery. */
export async function triggerMockWebhook(
  em: EntityManager,
  context: NotificationContext,
  businessId: string,
  request: Pick<TriggerMockWebhookRequest, 'event' | 'data'>,
): Promise<{ delivery: WebhookDelivery; attempt: WebhookAttempt }> {
  if (context.environment !== 'sandbox') {
    throw permissionDenied('SANDBOX_ONLY', 'the mock webhook trigger is a sandbox simulation; production has none');
  }
  const problems = new FieldProblems();
  const event = request.event === 0 ? undefined : wordOf(EVENT_WORDS, request.event, 'event', problems);
  if (request.event === 0) problems.add('event', 'is required');
  if (event !== undefined && !isWebhookEventType(event)) {
    problems.add('event', `${event} is a notice of the event history, not a webhook: it has no mock`);
  }
  if (event === undefined || !isWebhookEventType(event)) invalid(problems);
  // data is free-form (a Struct): only the example's own members may be replaced.
  const overrides = request.data ?? {};
  const example: WebhookData = WEBHOOK_EVENTS[event].example;
  for (const key of Object.keys(overrides)) {
    if (!Object.hasOwn(example, key)) problems.add(`data.${key}`, `is not a field of ${event}`);
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

  const data = mockWebhookData(event, businessId, overrides);
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
    sequence: null,
    skippedReason: null,
    traceContext: {},
    eventOccurredAt: now,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
  };
  const signedFor = await requestFor(em, runtime.secrets, draft, now);
  if (!signedFor) throw noRegistration();
  // Sent before it is stored: a mock is never retried, so there is nothing to resume if this call dies.
  const result = await runtime.sender.send({ ...signedFor, body: draft.body, webhookId: draft.id });
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
