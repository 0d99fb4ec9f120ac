import {
  PAGE_PARAMETERS,
  readPageQuery,
  readQuery,
  refuseProblems,
  type PageQuery,
  type QueryProblems,
} from '../../floor/pages/page-query.js';
import { parseDateTime } from '../../floor/times.js';
import { DELIVERY_STATUSES, HISTORY_EVENTS, WEBHOOK_EVENTS } from '@corridor/grpc/notification-words';

/**
 * The queries of GET /webhook/deliveries (decisions 0010, 0018) and GET /event (decision 0066): the
 * filters and the page, checked at the gateway.
 */

const DELIVERY_LIST_PARAMETERS: readonly string[] = ['status', 'event', 'from', 'to', ...PAGE_PARAMETERS];
/** The history is read in cursor pages only. */
const EVENT_LIST_PARAMETERS: readonly string[] = ['type', 'from', 'to', 'cursor', 'per_page'];

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

/** `from` and `to`, from before to: created_at in [from, to). */
function readWindow(values: Map<string, string>, problems: QueryProblems): { from?: Date; to?: Date } {
  const from = readDateTime(values, 'from', problems);
  const to = readDateTime(values, 'to', problems);
  if (from && to && from.getTime() >= to.getTime()) {
    problems.set('from', [`must be before to (${to.toISOString()}), got ${from.toISOString()}`]);
  }
  return { from, to };
}

/** Every problem of the query at once (422 naming each parameter), else the query. */
export function parseDeliveryListQuery(params: URLSearchParams): DeliveryListQuery {
  const problems: QueryProblems = new Map();
  const values = readQuery(params, DELIVERY_LIST_PARAMETERS, problems);
  const status = readWord(values, 'status', DELIVERY_STATUSES.words, problems);
  const event = readWord(values, 'event', WEBHOOK_EVENTS, problems);
  const { from, to } = readWindow(values, problems);
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

export interface EventListQuery {
  /** One of HISTORY_EVENTS: the webhook events and the notice of decision 0068. */
  type?: string;
  /** created_at in [from, to). */
  from?: Date;
  to?: Date;
  /** The cursor page. */
  page: PageQuery;
}

/** GET /event's query: every problem at once (422 naming each parameter), else the query. */
export function parseEventListQuery(params: URLSearchParams): EventListQuery {
  const problems: QueryProblems = new Map();
  const values = readQuery(params, EVENT_LIST_PARAMETERS, problems);
  const type = readWord(values, 'type', HISTORY_EVENTS, problems);
  const { from, to } = readWindow(values, problems);
  const page = readPageQuery(values, problems);
  refuseProblems(problems);
  return { type, from, to, page };
}
