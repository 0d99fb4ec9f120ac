import {
  PAGE_PARAMETERS,
  readPageQuery,
  readQuery,
  refuseProblems,
  type PageQuery,
  type QueryProblems,
} from '../pages/page-query.js';
import { DELIVERY_STATUSES, WEBHOOK_EVENTS } from '@corridor/grpc/notification-words';

/** GET /webhook/deliveries' query (decisions 0010, 0018): the filters and the page, checked at the gateway. */

const DELIVERY_LIST_PARAMETERS: readonly string[] = ['status', 'event', 'from', 'to', ...PAGE_PARAMETERS];

export interface DeliveryListQuery {
  /** A word of DELIVERY_STATUSES. */
  status?: string;
  /** One of WEBHOOK_EVENTS. */
  event?: string;
  /** created_at in [from, to). */
  from?: Date;
  to?: Date;
  /** The cursor page, or the numbered page (decision 0018). */
  page: PageQuery;
}

// RFC 3339's date-time (the OpenAPI `date-time` format): a time zone is required, so the same query
// means the same instant wherever it is sent from.
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/i;

/**
 * An RFC 3339 date-time as a Date, or undefined. Stricter than `new Date()`, which reads
 * 2026-02-30 as 2 March and accepts forms no other client would send.
 */
export function parseDateTime(value: string): Date | undefined {
  const match = DATE_TIME.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [offsetHours, offsetMinutes] = [Number(match[9] ?? 0), Number(match[10] ?? 0)];
  // A calendar day that exists (Date.UTC rolls 30 February over into March) and a real clock time.
  const midnight = new Date(Date.UTC(year, month - 1, day));
  if (midnight.getUTCFullYear() !== year || midnight.getUTCMonth() !== month - 1 || midnight.getUTCDate() !== day) {
    return undefined;
  }
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function readDateTime(values: Map<string, string>, name: string, problems: QueryProblems): Date | undefined {
  const value = values.get(name);
  if (value === undefined) return undefined;
  const date = parseDateTime(value);
  if (date === undefined && !problems.has(name)) {
    // URLSearchParams reads an unencoded "+" as a space: say so rather than only "not a date-time".
    const plus = /\s\d{2}:?\d{2}$/.test(value) ? ' (send the + of a time zone offset as %2B)' : '';
    problems.set(name, [
      `must be an ISO 8601 date-time with a time zone, e.g. 2026-11-21T09:00:00Z, got ${JSON.stringify(value)}${plus}`,
    ]);
  }
  return date;
}

/** A closed vocabulary's value, or a problem naming the parameter (proto enums cross, decision 0026). */
function readWord(values: Map<string, string>, name: string, words: readonly string[], problems: QueryProblems) {
  const value = values.get(name);
  if (value === undefined || words.includes(value)) return value;
  if (!problems.has(name)) problems.set(name, [`must be one of ${words.join(', ')}, got ${JSON.stringify(value)}`]);
  return undefined;
}

/** Every problem of the query at once (422 naming each parameter), else the query. */
export function parseDeliveryListQuery(params: URLSearchParams): DeliveryListQuery {
  const problems: QueryProblems = new Map();
  const values = readQuery(params, DELIVERY_LIST_PARAMETERS, problems);
  const status = readWord(values, 'status', DELIVERY_STATUSES.words, problems);
  const event = readWord(values, 'event', WEBHOOK_EVENTS, problems);
  const from = readDateTime(values, 'from', problems);
  const to = readDateTime(values, 'to', problems);
  if (from && to && from.getTime() >= to.getTime()) {
    problems.set('from', [`must be before to (${to.toISOString()}), got ${from.toISOString()}`]);
  }
  const page = readPageQuery(values, problems);
  refuseProblems(problems);
  return {
    status,
    event,
    from,
    to,
    page,
  };
}
