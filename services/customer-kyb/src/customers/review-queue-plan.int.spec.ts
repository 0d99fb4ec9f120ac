import { VerificationStatusSchema } from '@corridor/contracts/corridor/customer/v1/customer_pb';
import { enumOf } from '../customer-input.js';
import { MikroORM, ormOptions } from '@corridor/db';
import { createTestDatabase, isIndexScan, planOf, query, readsOf, type TestDatabase } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { customerKybDatabase } from '../database.js';
import { VERIFICATION_STATUSES } from './customer.entity.js';
import { DEFAULT_PAGE_SIZE as PAGE_SIZE } from '@corridor/pagination';
import { adminListCustomers } from './list-customers.js';

// Issue 17: the back office's review queue (GET /admin/customers) costs the same with 60,000
// customers as with 100. Each filter combination is explained as adminListCustomers itself sends
// it (recorded through MikroORM's onQuery hook), against real PostgreSQL.

const NOW = new Date('2026-11-24T12:00:00.000Z');
const BIG_BUSINESS_CUSTOMERS = 60_000;
/** Enough for a full page of each status (a tenth of them are PENDING, a tenth REJECTED). */
const SMALL_BUSINESS_CUSTOMERS = 200;
/** A page and a few more: a plan that sorts the whole table to find page 1 reads thousands. */
const MAX_ROWS_READ = 4 * PAGE_SIZE;

interface Statement {
  sql: string;
  params: unknown[];
}

interface QueueFilters {
  verificationStatus?: string;
  businessId?: string;
}

/**
 * `count` customers of one business, customer n created n seconds before NOW: a tenth PENDING (never
 * submitted), the rest submitted a minute after creation and PROCESSING, VERIFIED or REJECTED.
 */
async function insertCustomers(url: string, businessId: string, count: number): Promise<void> {
  await query(
    url,
    `insert into customer (id, business_id, type, verification_status, fields, created_at, updated_at, submitted_at)
     select gen_random_uuid(), $1::uuid, 'individual', status,
       jsonb_build_object('first_name', 'Ada', 'last_name', 'Obi', 'country', 'NG', 'email', 'customer-' || n || '@example.com'),
       created, created, case when status = 'PENDING' then null else created + interval '1 minute' end
     from generate_series(1, $2::int) as n,
       lateral (select $3::timestamptz - make_interval(secs => n) as created,
                       case when n % 10 = 0 then 'PENDING' when n % 10 <= 3 then 'PROCESSING'
                            when n % 10 <= 8 then 'VERIFIED' else 'REJECTED' end as status) as customer`,
    [businessId, count, NOW.toISOString()],
  );
}

describe('customer-kyb: the review queue reads one page, not every customer (issue 17, real PostgreSQL)', () => {
  let db: TestDatabase | undefined;
  let orm: MikroORM | undefined;
  const bigBusiness = randomUUID();
  const smallBusiness = randomUUID();
  const recorded: Statement[] = [];
  let recording = false;

  /** Every combination GET /admin/customers accepts: any status or none, all businesses, a large one or a small one. */
  const combinations: [string, QueueFilters][] = [undefined, ...VERIFICATION_STATUSES].flatMap((verificationStatus) =>
    [undefined, bigBusiness, smallBusiness].map((businessId): [string, QueueFilters] => [
      [
        verificationStatus && `verification_status=${verificationStatus}`,
        businessId && `business_id (${businessId === bigBusiness ? 'large' : 'small'})`,
      ]
        .filter(Boolean)
        .join(' & ') || 'no filter',
      { verificationStatus, businessId },
    ]),
  );

  const open = () => {
    if (!orm) throw new Error('the database is not open');
    return orm;
  };

  /** Runs adminListCustomers as the gRPC handler does and returns its answer and the page query it sent. */
  async function queuePageOne(filters: QueueFilters) {
    recorded.length = 0;
    recording = true;
    try {
      const answer = await adminListCustomers(open().em.fork(), filters, 1);
      const list = recorded.find(({ sql }) => /from "?customer"? .*order by/s.test(sql));
      if (!list) throw new Error(`adminListCustomers sent no page query: ${JSON.stringify(recorded)}`);
      return { answer, list };
    } finally {
      recording = false;
    }
  }

  async function explainAnalyze({ sql, params }: Statement) {
    const rows = await open().em.fork().getConnection().execute(`explain (analyze, format json) ${sql}`, params);
    return readsOf(planOf(rows), 'customer');
  }

  beforeAll(async () => {
    db = await createTestDatabase('review_queue_plan');
    orm = await MikroORM.init({
      ...ormOptions({ ...customerKybDatabase(db.url), logger: () => undefined }),
      onQuery: (sql, params) => {
        if (recording) recorded.push({ sql, params: [...params] });
        return sql;
      },
    });
    await orm.migrator.up();
    await insertCustomers(db.url, bigBusiness, BIG_BUSINESS_CUSTOMERS);
    await insertCustomers(db.url, smallBusiness, SMALL_BUSINESS_CUSTOMERS);
    await query(db.url, 'vacuum analyze customer');
  });
  afterAll(async () => {
    await orm?.close();
    await db?.drop();
  });

  it.each(combinations)(
    '%s: page 1 is a full page of matches, read through an index, never a sort of every customer',
    async (_name, filters) => {
      const { answer, list } = await queuePageOne(filters);
      // A full page of real matches: a plan that found nothing would read nothing and prove nothing.
      expect(answer.customers).toHaveLength(PAGE_SIZE);
      for (const customer of answer.customers) {
        if (filters.verificationStatus) {
          expect(customer.verificationStatus).toBe(enumOf(VerificationStatusSchema, filters.verificationStatus));
        }
        if (filters.businessId) expect(customer.businessId).toBe(filters.businessId);
      }

      const reads = await explainAnalyze(list);
      expect(reads.scans).not.toHaveLength(0);
      expect(reads.scans.filter((scan) => !isIndexScan(scan))).toEqual([]);
      expect(reads.rowsRead).toBeLessThanOrEqual(MAX_ROWS_READ);
    },
  );
});
