import { randomUUID } from 'node:crypto';
import { openMigratedDatabase, type MikroORM } from '@corridor/db';
import { createTestDatabase, query, type TestDatabase } from '@corridor/testing';
import { customerKybDatabase } from '../database.js';
import { listCustomers, UNPAGINATED_LIMIT } from './list-customers.js';

// GET /customer without paginate (seed 4.4, decision 0008): the newest 500, and whether more match,
// against real PostgreSQL with a cap's worth of customers.

const NOW = new Date('2026-11-24T10:00:00.000Z');

/** `count` customers of `businessId`, customer n created n seconds before NOW: even n individuals, odd n businesses. */
async function insertCustomers(url: string, businessId: string, count: number): Promise<void> {
  await query(
    url,
    `insert into customer (id, business_id, type, kyb_scope, verification_status, fields, created_at, updated_at)
     select gen_random_uuid(), $1::uuid,
       case when n % 2 = 0 then 'individual' else 'business' end,
       case when n % 2 = 0 then null else 'FULL' end,
       'PENDING',
       case when n % 2 = 0
         then jsonb_build_object('first_name', 'Ada', 'last_name', 'Obi', 'country', 'NG', 'email', 'customer-' || n || '@example.com')
         else jsonb_build_object('business_name', 'Acme ' || n, 'registration_number', 'RC-' || n,
                                 'incorporation_country', 'NG', 'country', 'NG', 'email', 'customer-' || n || '@example.com')
       end,
       $2::timestamptz - make_interval(secs => n), $2::timestamptz
     from generate_series(1, $3::int) as n`,
    [businessId, NOW.toISOString(), count],
  );
}

const emailOf = (customer: { fields?: { [field: string]: unknown } }) => customer.fields?.email;

describe('customer-kyb: the unpaginated customer list says when it was cut (real PostgreSQL)', () => {
  let db: TestDatabase | undefined;
  let orm: MikroORM | undefined;
  const overCap = randomUUID();
  const atCap = randomUUID();

  const list = (businessId: string, filters = {}) => {
    if (!orm) throw new Error('the database is not open');
    return listCustomers(
      orm.em.fork(),
      { businessId, name: 'credential:list-spec', requestId: undefined },
      filters,
      undefined,
    );
  };

  beforeAll(async () => {
    db = await createTestDatabase('customer_list_cap');
    orm = await openMigratedDatabase(customerKybDatabase(db.url));
    await insertCustomers(db.url, overCap, UNPAGINATED_LIMIT + 1);
    await insertCustomers(db.url, atCap, UNPAGINATED_LIMIT);
  });
  afterAll(async () => {
    await orm?.close();
    await db?.drop();
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
});
