import { timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type {
  DeliveryStatus,
  WebhookEvent,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { DELIVERY_STATUSES, EVENT_WORDS } from '@corridor/grpc/notification-words';
import { isWord } from './vocabulary.js';

/** A field's problem by input name, shown next to the input and in the error summary. */
export type Problems = Partial<Record<string, string>>;

// What a datetime-local input sends (seconds optional), or a date alone; read as UTC, as every
// time on the dashboard is shown. A trailing Z is accepted for those who paste an API time.
const UTC_INPUT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?)?Z?$/;

export const TIME_HINT = 'UTC, as 2026-11-21T09:00 or 2026-11-21';

/** A date and time typed in a form, as the instant it names in UTC; undefined when it names none. */
export function parseUtcInput(value: string): Date | undefined {
  const match = UTC_INPUT.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Date.UTC rolls 30 February over into March and 25:00 into the next day: those name no time.
  const same =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return same ? date : undefined;
}

/** A time field of a form: absent ('') is undefined; anything unreadable is a problem naming the field. */
export function readTime(value: string, name: string, label: string, problems: Problems): Date | undefined {
  if (value === '') return undefined;
  const date = parseUtcInput(value);
  if (!date) problems[name] = `${label} must be a date and time (${TIME_HINT}).`;
  return date;
}

/** The delivery log's filters as typed (kept to fill the form again and to carry in page links). */
export interface DeliveryFilters {
  status: string;
  event: string;
  from: string;
  to: string;
}

export interface DeliveryQuery {
  status?: DeliveryStatus;
  eventType?: WebhookEvent;
  createdFrom?: Timestamp;
  createdTo?: Timestamp;
}

/** Every filter ListDeliveries takes, checked before notification is asked: each problem names its field. */
export function readDeliveryFilters(filters: DeliveryFilters): { query: DeliveryQuery; problems: Problems } {
  const problems: Problems = {};
  const query: DeliveryQuery = {};
  if (filters.status !== '') {
    if (isWord(DELIVERY_STATUSES.words, filters.status)) query.status = DELIVERY_STATUSES.toProto(filters.status);
    else problems.status = `Status must be one of ${DELIVERY_STATUSES.words.join(', ')}.`;
  }
  if (filters.event !== '') {
    if (isWord(EVENT_WORDS.words, filters.event)) query.eventType = EVENT_WORDS.toProto(filters.event);
    else problems.event = 'Event must be one of the events listed.';
  }
  const from = readTime(filters.from, 'from', 'Created from', problems);
  const to = readTime(filters.to, 'to', 'Created before', problems);
  if (from && to && from.getTime() >= to.getTime()) problems.from = 'Created from must be before Created before.';
  if (from) query.createdFrom = timestampFromDate(from);
  if (to) query.createdTo = timestampFromDate(to);
  return { query, problems };
}

/** The log's address with these filters and, for another page, its cursor. */
export function deliveriesHref(filters: DeliveryFilters, cursor?: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value !== '') params.set(name, value);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return query ? `/webhooks/deliveries?${query}` : '/webhooks/deliveries';
}

/** The first problem of a form, for the error summary that is announced when the page loads. */
export const firstProblem = (problems: Problems): string | undefined => Object.values(problems).find(Boolean);
