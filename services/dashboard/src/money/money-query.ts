import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type {
  ListTransactionsRequestSchema,
  ListVirtualAccountsRequestSchema,
} from '@corridor/contracts/corridor/payments/v1/payments_service_pb';
import { isUuid } from '@corridor/validation';
import type { Request } from 'express';
import { queryText } from '../http/form.js';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES, VIRTUAL_ACCOUNT_STATUSES } from './vocabulary.js';

/**
 * The lists' filters from the query string, checked as the API checks them (the gateway's
 * request-schemas.ts): each problem is named so the page answers 422 with the form as sent, and
 * payments is never asked with a filter it would refuse.
 */

export const TRANSACTION_FILTERS = ['type', 'status', 'currency', 'reference', 'from', 'to', 'per_page'] as const;
export const VIRTUAL_ACCOUNT_FILTERS = ['customer_id', 'currency', 'status', 'per_page'] as const;
export type TransactionFilterName = (typeof TRANSACTION_FILTERS)[number];
export type VirtualAccountFilterName = (typeof VIRTUAL_ACCOUNT_FILTERS)[number];

/** What the member typed, as sent, to fill the filter form again. */
export type FilterValues<Name extends string> = Partial<Record<Name, string>>;

/** The API's page sizes are 1..100 (per_page); a dashboard page shows 50 unless asked. */
export const DEFAULT_PER_PAGE = 50;
const REFERENCE_MAX = 100;

export interface ReadQuery<Name extends string, Request> {
  values: FilterValues<Name>;
  cursor: string;
  /** Set when every filter is valid. */
  request?: Request;
  problems: string[];
}

function valuesOf<Name extends string>(req: Request, names: readonly Name[]): FilterValues<Name> {
  const values: FilterValues<Name> = {};
  for (const name of names) {
    const value = queryText(req, name).trim();
    if (value !== '') values[name] = value;
  }
  return values;
}

function perPageOf(text: string | undefined, problems: string[]): number {
  if (text === undefined) return DEFAULT_PER_PAGE;
  if (!/^\d{1,3}$/.test(text) || Number(text) < 1 || Number(text) > 100) {
    problems.push(`Per page must be a whole number from 1 to 100, not “${text}”.`);
  }
  return Number(text);
}

function currencyOf(text: string | undefined, problems: string[]): string | undefined {
  if (text === undefined) return undefined;
  const code = text.toUpperCase();
  if (!/^[A-Z]{3}$/.test(code))
    problems.push(`Currency must be a three-letter ISO 4217 code such as NGN, not “${text}”.`);
  return code;
}

function wordOf<E extends number>(
  vocabulary: { words: readonly string[]; toProto(word: string): E },
  text: string | undefined,
  label: string,
  problems: string[],
): E | undefined {
  if (text === undefined) return undefined;
  if (!vocabulary.words.includes(text)) {
    problems.push(`${label} must be one of ${vocabulary.words.join(', ')}, not “${text}”.`);
    return undefined;
  }
  return vocabulary.toProto(text);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A day (midnight UTC) or an ISO 8601 date-time with its zone, as the API's from and to; undefined when neither. */
export function parseMoment(text: string): Date | undefined {
  if (DATE.test(text)) {
    const day = new Date(`${text}T00:00:00.000Z`);
    // 2026-02-31 parses as March; the round trip refuses it.
    return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text) ? day : undefined;
  }
  if (!DATE_TIME.test(text)) return undefined;
  const moment = new Date(text);
  return Number.isNaN(moment.getTime()) ? undefined : moment;
}

function momentOf(text: string | undefined, label: string, problems: string[]): Date | undefined {
  if (text === undefined) return undefined;
  const moment = parseMoment(text);
  if (!moment) problems.push(`${label} must be a date (2026-11-21) or a date-time with its zone, not “${text}”.`);
  return moment;
}

type TransactionsRequest = MessageInitShape<typeof ListTransactionsRequestSchema>;
type VirtualAccountsRequest = MessageInitShape<typeof ListVirtualAccountsRequestSchema>;

export function readTransactionQuery(req: Request): ReadQuery<TransactionFilterName, TransactionsRequest> {
  const values = valuesOf(req, TRANSACTION_FILTERS);
  const cursor = queryText(req, 'cursor');
  const problems: string[] = [];
  const type = wordOf(TRANSACTION_TYPES, values.type, 'Type', problems);
  const status = wordOf(TRANSACTION_STATUSES, values.status, 'Status', problems);
  const currency = currencyOf(values.currency, problems);
  const reference = values.reference;
  if (reference !== undefined && reference.length > REFERENCE_MAX) {
    problems.push(`Reference is at most ${REFERENCE_MAX} characters; this one has ${reference.length}.`);
  }
  const from = momentOf(values.from, 'Created from', problems);
  const to = momentOf(values.to, 'Created before', problems);
  if (from && to && from.getTime() >= to.getTime()) {
    problems.push(`Created from (${from.toISOString()}) must be before Created before (${to.toISOString()}).`);
  }
  const limit = perPageOf(values.per_page, problems);
  if (problems.length > 0) return { values, cursor, problems };
  return {
    values,
    cursor,
    problems,
    request: {
      type,
      status,
      currency,
      reference,
      from: from && timestampFromDate(from),
      to: to && timestampFromDate(to),
      page: { cursor, limit },
    },
  };
}

export function readVirtualAccountQuery(req: Request): ReadQuery<VirtualAccountFilterName, VirtualAccountsRequest> {
  const values = valuesOf(req, VIRTUAL_ACCOUNT_FILTERS);
  const cursor = queryText(req, 'cursor');
  const problems: string[] = [];
  const customerId = values.customer_id;
  if (customerId !== undefined && !isUuid(customerId)) {
    problems.push(`Customer id must be a customer’s id (a UUID), not “${customerId}”.`);
  }
  const currency = currencyOf(values.currency, problems);
  const status = wordOf(VIRTUAL_ACCOUNT_STATUSES, values.status, 'Status', problems);
  const limit = perPageOf(values.per_page, problems);
  if (problems.length > 0) return { values, cursor, problems };
  return { values, cursor, problems, request: { customerId, currency, status, page: { cursor, limit } } };
}

/** A list's address with its filters kept and the cursor of another page. */
export function pageHref(path: string, values: Record<string, string | undefined>, cursor: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== '') params.set(name, value);
  if (cursor !== '') params.set('cursor', cursor);
  const query = params.toString();
  return query === '' ? path : `${path}?${query}`;
}
