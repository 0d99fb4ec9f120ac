import type {
  AuditEntry as AuditEntryMessage,
  Customer as CustomerMessage,
  PageInfo,
} from '@corridor/contracts/corridor/customer/v1/customer_pb';
import type { EntityManager, FilterQuery } from '@mikro-orm/core';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { JsonObject } from '@bufbuild/protobuf';
import { AuditEntry } from '../audit/audit-entry.entity.js';
import type { Actor } from '../context.js';
import { findCustomer, loadAggregate, loadAggregates, validationFailed } from './aggregate.js';
import { Customer, VERIFICATION_STATUSES } from './customer.entity.js';
import { toCustomerMessage } from './customer-message.js';
import { CUSTOMER_TYPES, FieldProblems, isUuid } from './rules/index.js';

/** seed 4.4 and seed 8: 15 customers per page. */
export const PAGE_SIZE = 15;

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

export interface CustomerList {
  customers: CustomerMessage[];
  page?: Omit<PageInfo, '$typeName'>;
  /** Unpaginated only: more customers match than UNPAGINATED_LIMIT. */
  truncated?: boolean;
}

function checkEnum(value: string | undefined, allowed: readonly string[], name: string, problems: FieldProblems) {
  if (value !== undefined && !allowed.includes(value)) problems.add(name, `must be one of ${allowed.join(', ')}`);
}

async function page(
  em: EntityManager,
  where: FilterQuery<Customer>,
  orderBy: Record<string, 'asc' | 'desc' | 'asc nulls last'>,
  paginate: { page: number } | undefined,
): Promise<CustomerList> {
  if (!paginate) {
    // One row past the cap tells whether more exist, without a count(*) (DESIGN.md: lists stay flat).
    const found = await em.find(Customer, where, { orderBy, limit: UNPAGINATED_LIMIT + 1 });
    const customers = found.slice(0, UNPAGINATED_LIMIT);
    return {
      customers: (await loadAggregates(em, customers)).map(toCustomerMessage),
      truncated: found.length > UNPAGINATED_LIMIT,
    };
  }
  const current = Math.max(1, paginate.page);
  const [customers, total] = await em.findAndCount(Customer, where, {
    orderBy,
    limit: PAGE_SIZE,
    offset: (current - 1) * PAGE_SIZE,
  });
  return {
    customers: (await loadAggregates(em, customers)).map(toCustomerMessage),
    page: {
      currentPage: current,
      perPage: PAGE_SIZE,
      lastPage: Math.max(1, Math.ceil(total / PAGE_SIZE)),
      total: BigInt(total),
    },
  };
}

/**
 * GET /customer (seed 4.4): exact-match filters, combinable, always within the caller's business;
 * newest first. Each filter is served by an index ending in (created_at, id), so a page stays fast
 * with 100,000 customers (bench/customer-list.ts).
 */
export async function listCustomers(
  em: EntityManager,
  actor: Actor & { businessId: string },
  filters: ListFilters,
  paginate: { page: number } | undefined,
): Promise<CustomerList> {
  const problems = new FieldProblems();
  checkEnum(filters.verificationStatus, VERIFICATION_STATUSES, 'verification_status', problems);
  checkEnum(filters.type, CUSTOMER_TYPES, 'type', problems);
  if (!problems.isEmpty) throw validationFailed(problems.errors);
  const where: FilterQuery<Customer> = {
    businessId: actor.businessId,
    ...(filters.email !== undefined ? { email: filters.email } : {}),
    ...(filters.idNumber !== undefined ? { idNumber: filters.idNumber } : {}),
    ...(filters.registrationNumber !== undefined ? { registrationNumber: filters.registrationNumber } : {}),
    ...(filters.verificationStatus !== undefined
      ? { verificationStatus: filters.verificationStatus as Customer['verificationStatus'] }
      : {}),
    ...(filters.type !== undefined ? { type: filters.type as Customer['type'] } : {}),
  };
  return page(em, where, { createdAt: 'desc', id: 'desc' }, paginate);
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
  const where: FilterQuery<Customer> = {
    ...(filters.verificationStatus !== undefined
      ? { verificationStatus: filters.verificationStatus as Customer['verificationStatus'] }
      : {}),
    ...(filters.businessId !== undefined ? { businessId: filters.businessId } : {}),
  };
  return page(em, where, { submittedAt: 'asc nulls last', createdAt: 'asc', id: 'asc' }, { page: pageNumber });
}

export async function getCustomer(em: EntityManager, actor: Actor, customerId: string): Promise<CustomerMessage> {
  return toCustomerMessage(await loadAggregate(em, actor, customerId));
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
    changes: entry.changes as JsonObject,
    occurredAt: timestampFromDate(entry.occurredAt),
  }));
}
