import { randomUUID } from 'node:crypto';
import { CustomerType, type Customer as CustomerMessage } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { TOTAL_CAP } from '@corridor/pagination';
import { integrationDatabase } from '@corridor/testing';
import { customerKybDatabase } from '../database.js';
import { insertCustomers } from '../../test/customers/customer-rows.fixture.js';
import { listCustomers, UNPAGINATED_LIMIT, type ListPage } from './list-customers.js';
import { fieldOf } from '../../test/customers/customer-spec-kit.js';

// GET /customer (seed 4.4) against real PostgreSQL with a cap's worth of customers: without
// paginate the newest 500 and whether more match (decision 0008); with it cursor pages that visit
// every match once, and numbered pages whose count stops at its cap (decision 0018).

const NOW = new Date('2026-11-24T10:00:00.000Z');

const emailOf = (customer: CustomerMessage) => fieldOf(customer, 'email');

describe('customer-kyb: the unpaginated customer list says when it was cut (real PostgreSQL)', () => {
  const database = integrationDatabase('customer-kyb', customerKybDatabase);
  const overCap = randomUUID();
  const atCap = randomUUID();

  const list = (businessId: string, filters = {}, page: ListPage = { kind: 'unpaginated' }) => {
    return listCustomers(
      database.em(),
      { businessId, name: 'credential:list-spec', requestId: undefined },
      filters,
      page,
    );
  };
  const cursorPage = (businessId: string, cursor = '', limit = 100) =>
    list(businessId, {}, { kind: 'cursor', cursor, limit });

  beforeAll(async () => {
    await insertCustomers(database.url, overCap, UNPAGINATED_LIMIT + 1, NOW);
    await insertCustomers(database.url, atCap, UNPAGINATED_LIMIT, NOW);
  });

  it('501 matches: the newest 500, newest first, marked truncated', async () => {
    const { customers, truncated, page } = await list(overCap);
    expect(UNPAGINATED_LIMIT).toBe(500);
    expect(truncated).toBe(true);
    expect(page).toBeUndefined();
    expect(customers).toHaveLength(500);
    expect(customers.map(emailOf)).toEqual(Array.from({ length: 500 }, (_, i) => `customer-${i + 1}@example.com`));
  });

  it('exactly 500 matches: all of them, not truncated', async () => {
    const { customers, truncated } = await list(atCap);
    expect(customers).toHaveLength(500);
    expect(truncated).toBe(false);
  });

  it('a filter under the cap on a business over it: every match, not truncated', async () => {
    const { customers, truncated } = await list(overCap, { type: 'business' });
    expect(customers).toHaveLength(251);
    expect(truncated).toBe(false);
  });

  it('cursor pages: every match once, newest first, and back again from the last page', async () => {
    const emails: unknown[] = [];
    let cursor = '';
    let pages = 0;
    for (;;) {
      const { customers, cursorPage: page } = await cursorPage(overCap, cursor);
      pages += 1;
      emails.push(...customers.map(emailOf));
      if (!page?.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(pages).toBe(6);
    expect(emails).toEqual(Array.from({ length: 501 }, (_, i) => `customer-${i + 1}@example.com`));

    const last = await cursorPage(overCap, cursor);
    const before = await cursorPage(overCap, last.cursorPage?.previousCursor ?? '');
    expect(before.customers.map(emailOf)).toEqual(emails.slice(400, 500));
  });

  it('the first cursor page has no previous page; a filter narrows every page', async () => {
    const first = await cursorPage(overCap, '', 15);
    expect(first.customers).toHaveLength(15);
    expect(first.cursorPage?.previousCursor).toBeUndefined();
    const businesses = await list(overCap, { type: 'business' }, { kind: 'cursor', cursor: '', limit: 100 });
    expect(businesses.customers.every((customer) => customer.type === CustomerType.BUSINESS)).toBe(true);
  });

  it('numbered pages: 15 a page with an exact total under the cap, and nothing past page 100', async () => {
    const { customers, page } = await list(overCap, {}, { kind: 'numbered', page: 3 });
    expect(customers.map(emailOf)).toEqual(Array.from({ length: 15 }, (_, i) => `customer-${i + 31}@example.com`));
    expect(page).toMatchObject({ currentPage: 3, perPage: 15, lastPage: 34, total: 501n, totalCapped: false });
    expect(TOTAL_CAP).toBe(10_000);
    await expect(list(overCap, {}, { kind: 'numbered', page: 101 })).rejects.toMatchObject({
      message: expect.stringMatching(/page must be at most 100/),
    });
  });
});
