import { timestampDate } from '@bufbuild/protobuf/wkt';
import { MikroORM, ormOptions } from '@corridor/db';
import { DEFAULT_PAGE_SIZE, encodeCursor } from '@corridor/pagination';
import { itReadsOnePage, listPlanDatabase, query } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { paymentsDatabase } from '../database.js';
import { listBeneficiaries } from './destinations.js';

// Issue 17: a page of GET /beneficiary costs the same with 60,000 saved beneficiaries as with 100,
// on the first page and 30,000 rows deep, in either direction. The list has no filter but the
// business. Each page is explained as listBeneficiaries itself sends it (recorded through
// MikroORM's onQuery hook), against real PostgreSQL.

const NOW = new Date('2026-11-24T12:00:00.000Z');
const BIG_BUSINESS_BENEFICIARIES = 60_000;

/**
 * `count` beneficiaries of one business, beneficiary n saved n seconds before NOW and paid again
 * since: account n at one of four sandbox banks, in naira mostly, a tenth in dollars.
 */
async function insertBeneficiaries(url: string, businessId: string, count: number): Promise<void> {
  await query(
    url,
    `insert into beneficiary (id, business_id, bank_code, bank_name, account_number, account_name, currency,
       created_at, last_used_at)
     select gen_random_uuid(), $1::uuid, '00' || (n % 4), 'Sandbox Bank ' || (n % 4), lpad(n::text, 10, '0'),
       'Account Holder ' || n, case when n % 10 = 0 then 'USD' else 'NGN' end,
       created, least(created + make_interval(days => n % 30), $3::timestamptz)
     from generate_series(1, $2::int) as n,
       lateral (select $3::timestamptz - make_interval(secs => n) as created) as saved`,
    [businessId, count, NOW.toISOString()],
  );
}

describe('payments: the beneficiary list reads one page, not the business (issue 17, real PostgreSQL)', () => {
  const bigBusiness = randomUUID();
  const plan = listPlanDatabase({
    name: 'beneficiary_list_plan',
    table: 'beneficiary',
    pageSize: DEFAULT_PAGE_SIZE,
    open: (url, onQuery) =>
      MikroORM.init({ ...ormOptions({ ...paymentsDatabase(url), logger: () => undefined }), onQuery }),
    seed: async (url) => {
      await insertBeneficiaries(url, bigBusiness, BIG_BUSINESS_BENEFICIARIES);
      await insertBeneficiaries(url, randomUUID(), 100);
    },
  });

  itReadsOnePage(plan, {
    // The list has no filter but the business.
    firstPages: [['no filter', {}, DEFAULT_PAGE_SIZE]],
    deepPages: [['no filter', {}, 30_000]],
    /** Runs listBeneficiaries as the gRPC handler does. */
    async page(_filters, cursor) {
      const { result, statement } = await plan.list((orm) =>
        listBeneficiaries(orm.em.fork(), bigBusiness, { cursor: cursor ? encodeCursor(cursor) : '', limit: 0 }),
      );
      const createdAt = result.beneficiaries.map((beneficiary) =>
        beneficiary.createdAt ? timestampDate(beneficiary.createdAt) : new Date(Number.NaN),
      );
      return { createdAt, nextCursor: result.nextCursor, statement };
    },
    tests: () => [['business_id =', bigBusiness]],
  });
});
