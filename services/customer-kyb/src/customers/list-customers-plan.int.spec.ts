import { CustomerTypeSchema, VerificationStatusSchema } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { enumOf } from '../customer-input.js';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { MikroORM, ormOptions } from '@corridor/db';
import { DEFAULT_PAGE_SIZE as PAGE_SIZE, encodeCursor, TOTAL_CAP } from '@corridor/pagination';
import { itReadsOnePage, listPlanDatabase } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { customerKybDatabase } from '../database.js';
import { insertCustomers } from '../../test/customers/customer-rows.fixture.js';
import { listCustomers, type ListFilters, type ListPage } from './list-customers.js';

// Issue 17: GET /customer costs the same with 60,000 customers as with 100, on the first cursor
// page, 30,000 rows deep, and for a numbered page (whose count stops at TOTAL_CAP + 1 rows). Each
// filter is explained as listCustomers itself sends it (recorded through MikroORM's onQuery hook),
// against real PostgreSQL (decision 0018).

const NOW = new Date('2026-11-24T12:00:00.000Z');
const BIG_BUSINESS_CUSTOMERS = 60_000;

/** Every filter GET /customer accepts, alone and in the combinations a platform sends. */
const FIRST_PAGES: [string, ListFilters, number][] = [
  ['no filter', {}, PAGE_SIZE],
  ['type=business', { type: 'business' }, PAGE_SIZE],
  ['type=individual', { type: 'individual' }, PAGE_SIZE],
  ['verification_status=PENDING', { verificationStatus: 'PENDING' }, PAGE_SIZE],
  ['verification_status=REJECTED (2%)', { verificationStatus: 'REJECTED' }, PAGE_SIZE],
  ['type=business & verification_status=REJECTED', { type: 'business', verificationStatus: 'REJECTED' }, PAGE_SIZE],
  ['email', { email: 'customer-40001@example.com' }, 1],
  ['id_number', { idNumber: 'ID-30000' }, 1],
  ['registration_number', { registrationNumber: 'RC-777' }, 1],
  ['email & type (no match)', { email: 'customer-40001@example.com', type: 'individual' }, 0],
];

/** Deep cursors, read both ways. */
const DEEP_PAGES: [string, ListFilters, number][] = [
  ['no filter', {}, 30_000],
  ['verification_status=PENDING', { verificationStatus: 'PENDING' }, 3_000],
  ['type=business & verification_status=REJECTED', { type: 'business', verificationStatus: 'REJECTED' }, 300],
];

describe('customer-kyb: the customer list reads one page, not the business (issue 17, real PostgreSQL)', () => {
  const bigBusiness = randomUUID();
  const plan = listPlanDatabase({
    name: 'customer_list_plan',
    table: 'customer',
    pageSize: PAGE_SIZE,
    open: (url, onQuery) =>
      MikroORM.init({ ...ormOptions({ ...customerKybDatabase(url), logger: () => undefined }), onQuery }),
    seed: async (url) => {
      await insertCustomers(url, bigBusiness, BIG_BUSINESS_CUSTOMERS, NOW);
      await insertCustomers(url, randomUUID(), 100, NOW);
    },
  });
  /** Runs listCustomers as the gRPC handler does. */
  const list = (filters: ListFilters, page: ListPage) =>
    plan.list((orm) =>
      listCustomers(
        orm.em.fork(),
        { businessId: bigBusiness, name: 'credential:plan-spec', requestId: undefined },
        filters,
        page,
      ),
    );

  itReadsOnePage(plan, {
    firstPages: FIRST_PAGES,
    deepPages: DEEP_PAGES,
    async page(filters, cursor) {
      const { result, statement } = await list(filters, {
        kind: 'cursor',
        cursor: cursor ? encodeCursor(cursor) : '',
        limit: 0,
      });
      for (const customer of result.customers) {
        expect(customer.businessId).toBe(bigBusiness);
        if (filters.type) expect(customer.type).toBe(enumOf(CustomerTypeSchema, filters.type));
        if (filters.verificationStatus) {
          expect(customer.verificationStatus).toBe(enumOf(VerificationStatusSchema, filters.verificationStatus));
        }
      }
      const createdAt = result.customers.map((customer) =>
        customer.createdAt ? timestampDate(customer.createdAt) : new Date(Number.NaN),
      );
      return { createdAt, nextCursor: result.cursorPage?.nextCursor, statement };
    },
    tests: (filters) => [
      ['business_id =', bigBusiness],
      ['email =', filters.email],
      ['id_number =', filters.idNumber],
      ['registration_number =', filters.registrationNumber],
      ['verification_status =', filters.verificationStatus],
      ['type =', filters.type],
    ],
  });

  it.each([
    ['no filter', {}],
    ['type=business', { type: 'business' }],
  ] as const)('%s: numbered page 100 counts no further than its cap and says so', async (_name, filters) => {
    const { result, statement, count } = await list(filters, { kind: 'numbered', page: 100 });
    expect(result.customers).toHaveLength(PAGE_SIZE);
    expect(result.page).toMatchObject({ currentPage: 100, total: BigInt(TOTAL_CAP), totalCapped: true, lastPage: 100 });
    if (!count) throw new Error('a numbered page sent no count');
    // Any plan will do that stops at the cap: the rows read, kept or filtered out, are what it costs.
    const counted = await plan.readsOf(count);
    expect(counted.rowsRead).toBeGreaterThan(TOTAL_CAP);
    expect(counted.rowsRead).toBeLessThanOrEqual(TOTAL_CAP + 1);
    // The page skips 1,485 ids through the list's index; it reads the 15 rows it answers.
    expect(await plan.problemsOf(statement, 100 * PAGE_SIZE + 2 * PAGE_SIZE)).toEqual([]);
  });
});
