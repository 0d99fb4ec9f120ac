import { create } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  HistoryEventSchema,
  type HistoryEvent as HistoryEventProto,
  type GetEventRequest,
  type ListEventsRequest,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { notFound } from '@corridor/grpc';
import { keysetRead } from '@corridor/pagination';
import { FieldProblems, isUuid } from '@corridor/validation';
import type { EntityManager } from '@mikro-orm/core';
import { invalid, wordOf } from '../deliveries/delivery-api.js';
import { EVENT_WORDS } from '../deliveries/delivery-proto.js';
import { ENDPOINT_DISABLED_EVENT } from '../events/webhook-events.js';
import { EventHistoryRepository, type HistoryEvent } from './event-history-repository.js';

const noEvent = (id: string) => notFound('EVENT_NOT_FOUND', `event ${id} not found`);

/** What a caller that cannot name the notices (an older gateway) is not shown (decision 0068, skew). */
const unnamed = (includeNotices: boolean) => (includeNotices ? undefined : ENDPOINT_DISABLED_EVENT);

function toHistoryEventProto(event: HistoryEvent): HistoryEventProto {
  return create(HistoryEventSchema, {
    id: event.id,
    eventType: EVENT_WORDS.toProto(event.eventType),
    sequence: BigInt(event.sequence),
    body: event.body,
    occurredAt: timestampFromDate(event.occurredAt),
    createdAt: timestampFromDate(event.createdAt),
  });
}

/** GET /event (decision 0066): the business's history, newest first, a cursor page; never another business's. */
export async function listEvents(
  em: EntityManager,
  businessId: string,
  request: ListEventsRequest,
): Promise<{
  events: HistoryEventProto[];
  cursorPage: { nextCursor?: string; previousCursor?: string; limit: number };
}> {
  const problems = new FieldProblems();
  const eventType = wordOf(EVENT_WORDS, request.eventType, 'type', problems);
  const from = request.createdFrom ? timestampDate(request.createdFrom) : undefined;
  const to = request.createdTo ? timestampDate(request.createdTo) : undefined;
  if (from && to && from >= to) problems.add('from', 'must be before to');
  if (!problems.isEmpty) invalid(problems);

  const page = await new EventHistoryRepository(em).list({
    filter: {
      businessId,
      eventType,
      createdFrom: from,
      createdBefore: to,
      withoutType: unnamed(request.includeNotices),
    },
    read: keysetRead(request.cursorPage),
  });
  return {
    events: page.rows.map(toHistoryEventProto),
    cursorPage: { nextCursor: page.nextCursor, previousCursor: page.previousCursor, limit: page.limit },
  };
}

/** GET /event/{id}: one event of the business's history; another business's is not found. */
export async function getEvent(
  em: EntityManager,
  businessId: string,
  { eventId, includeNotices }: GetEventRequest,
): Promise<HistoryEventProto> {
  if (!isUuid(eventId)) throw noEvent(eventId);
  const event = await new EventHistoryRepository(em).find({
    businessId,
    eventId,
    withoutType: unnamed(includeNotices),
  });
  if (!event) throw noEvent(eventId);
  return toHistoryEventProto(event);
}
