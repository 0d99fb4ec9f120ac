import type {
  AuditEntry as AuditEntryMessage,
  Customer as CustomerMessage,
  PageInfo,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { dateOf, sql } from '@corridor/db';
import {
  cappedCountSql,
  keysetPage,
  keysetRead,
  numberedPage,
  numberedPageSql,
  numberedRead,
} from '@corridor/pagination';
import type { EntityManager } from '@mikro-orm/core';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { AuditEntry } from '../audit/audit-entry.entity.js';
import { storedChanges } from '../audit/stored-changes.js';
import type { Actor } from '../context.js';
import { customerNotFound, findCustomer, validationFailed } from './aggregate.js';
import { VERIFICATION_STATUSES } from './customer.entity.js';
import { toCustomerMessage } from './customer-message.js';
import { readCustomer, readCustomers } from './customer-view.js';
import { CUSTOMER_TYPES } from './rules/index.js';
import { FieldProblems, isUuid } from '@corridor/validation';

/**
 * Without paginate the seed's default shape returns a plain array; it is bounded so a platform
 * with 100,000 customers gets an answer, not a failure, and says when it was cut (decision 0008).
 */
export const UNPAGINATED_LIMIT = 500;

export interface ListFilters {
  email?: string;
  idNumber?: string;
  registrationNumber?: string;
  verificationStatus?: string;
  type?: string;
}

/** Which page of a list: the capped unpaginated list, a cursor page, or a numbered page (decision 0018). */
export type ListPage =
  { kind: 'unpaginated' } | { kind: 'cursor'; cursor: string; limit: number } | { kind: 'numbered'; page: number };

export interface CustomerList {
  customers: CustomerMessage[];
  page?: Omit<PageInfo, '$typeName'>;
  cursorPage?: { nextCursor?: string; previousCursor?: string; limit: number };
  /** Unpaginated only: more customers match than UNPAGINATED_LIMIT. */
  truncated?: boolean;
}

function checkEnum(value: string | undefined, allowed: readonly string[], name: string, problems: FieldProblems) {
  if (value !== undefined && !allowed.includes(value)) problems.add(name, `must be one of ${allowed.join(', ')}`);
}

/** A list's filter as SQL over the customer table: `?` placeholders, one value each. */
interface Filter {
  where: string;
  params: unknown[];
}

function filterOf(conditions: [column: string, value: string | undefined][]): Filter {
  const given = conditions.filter((condition): condition is [string, string] => condition[1] !== undefined);
  return {
    where: given.length > 0 ? given.map(([column]) => `${column} = ?`).join(' and ') : 'true',
    params: given.map(([, value]) => value),
  };
}

/** A page's customers, read in one more statement whatever the page's size. */
const messagesOf = async (em: EntityManager, rows: Record<string, unknown>[]) =>
  (
    await readCustomers(
      em,
      rows.map((row) => String(row.id)),
    )
  ).map(toCustomerMessage);

async function countCapped(em: EntityManager, filter: Filter): Promise<number> {
  const [row] = await sql<{ counted: number }>(em, cappedCountSql('customer', filter.where), filter.params);
  return Number(row?.counted ?? 0);
}

/** A numbered page of `filter` in `order`: OFFSET at most 1,485 ids, the count capped. */
async function numbered(em: EntityManager, filter: Filter, order: string, page: number): Promise<CustomerList> {
  const read = numberedRead(page);
  const [counted, rows] = await Promise.all([
    countCapped(em, filter),
    sql(em, numberedPageSql('customer', filter.where, order), [...filter.params, read.perPage, read.offset]),
  ]);
  return { customers: await messagesOf(em, rows), page: numberedPage(read, counted) };
}

async function listPage(em: EntityManager, filter: Filter, page: ListPage): Promise<CustomerList> {
  const newestFirst = 'created_at desc, id desc';
  if (page.kind === 'numbered') return numbered(em, filter, newestFirst, page.page);
  if (page.kind === 'unpaginated') {
    // One row past the cap tells whether more exist, without a count(*) (DESIGN.md: lists stay flat).
    const found = await sql(
      em,
      `select id, created_at from customer where ${filter.where} order by ${newestFirst} limit ?`,
      [...filter.params, UNPAGINATED_LIMIT + 1],
    );
    return {
      customers: await messagesOf(em, found.slice(0, UNPAGINATED_LIMIT)),
      truncated: found.length > UNPAGINATED_LIMIT,
    };
  }
  const read = keysetRead(page);
  const rows = await sql(
    em,
    `select id, created_at from customer where ${filter.where}${read.seek ? ` and ${read.seek}` : ''} order by ${read.order} limit ?`,
    [...filter.params, ...read.seekParams, read.limit + 1],
  );
  const found = keysetPage(rows, read, (row) => ({ createdAt: dateOf(row.created_at), id: String(row.id) }));
  return {
    customers: await messagesOf(em, found.rows),
    cursorPage: { nextCursor: found.nextCursor, previousCursor: found.previousCursor, limit: found.limit },
  };
}

/**
 * GET /customer (seed 4.4): exact-match filters, combinable, always within the caller's business;
 * newest first. Each filter is served by an index ending in (created_at, id), so a page costs the
 * same with 200,000 customers as with 100 (bench/scale-lists.ts).
 */
export async function listCustomers(
  em: EntityManager,
  actor: Actor & { businessId: string },
  filters: ListFilters,
  page: ListPage,
): Promise<CustomerList> {
  const problems = new FieldProblems();
  checkEnum(filters.verificationStatus, VERIFICATION_STATUSES, 'verification_status', problems);
  checkEnum(filters.type, CUSTOMER_TYPES, 'type', problems);
  if (!problems.isEmpty) throw validationFailed(problems.errors);
  const filter = filterOf([
    ['business_id', actor.businessId],
    ['email', filters.email],
    ['id_number', filters.idNumber],
    ['registration_number', filters.registrationNumber],
    ['verification_status', filters.verificationStatus],
    ['type', filters.type],
  ]);
  return listPage(em, filter, page);
}

/** The back office's queue: any business, oldest submission first (a review queue is first come, first served). */
export async function adminListCustomers(
  em: EntityManager,
  filters: { verificationStatus?: string; businessId?: string },
  pageNumber: number,
): Promise<CustomerList> {
  const problems = new FieldProblems();
  checkEnum(filters.verificationStatus, VERIFICATION_STATUSES, 'verification_status', problems);
  if (filters.businessId !== undefined && !isUuid(filters.businessId)) problems.add('business_id', 'must be a uuid');
  if (!problems.isEmpty) throw validationFailed(problems.errors);
  const filter = filterOf([
    ['verification_status', filters.verificationStatus],
    ['business_id', filters.businessId],
  ]);
  return numbered(em, filter, 'submitted_at asc nulls last, created_at asc, id asc', pageNumber);
}

/** GET /customer/{id}: one statement; another business's customer is not found, like a missing one. */
export async function getCustomer(em: EntityManager, actor: Actor, customerId: string): Promise<CustomerMessage> {
  const view = isUuid(customerId) ? await readCustomer(em, customerId.toLowerCase(), actor.businessId) : undefined;
  if (!view) throw customerNotFound(customerId);
  return toCustomerMessage(view);
}

/** The audit trail of one customer, oldest first (back office). */
export async function listAuditEntries(
  em: EntityManager,
  actor: Actor,
  customerId: string,
): Promise<AuditEntryMessage[]> {
  const customer = await findCustomer(em, actor, customerId);
  const entries = await em.find(AuditEntry, { customerId: customer.id }, { orderBy: { occurredAt: 'asc', id: 'asc' } });
  return entries.map((entry) => ({
    $typeName: 'corridor.customer.v1.AuditEntry',
    id: entry.id,
    customerId: entry.customerId,
    action: entry.action,
    actor: entry.actor,
    requestId: entry.requestId ?? '',
    occurredAt: timestampFromDate(entry.occurredAt),
    whatChanged: storedChanges(entry.action, entry.changes, customer.type),
  }));
}
