import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { openMigratedDatabase, type MikroORM } from '../../packages/db/dist/index.js';
import { createTestDatabase, query } from '../../packages/testing/dist/index.js';
import { customerKybDatabase } from '../../services/customer-kyb/dist/database.js';
import { listCustomers, type ListFilters } from '../../services/customer-kyb/dist/customers/list-customers.js';
import { insertCustomers } from './customer-rows.js';

/**
 * seed 4.4 with 100,000 customers: how long one filtered page of GET /customer takes through the
 * real use case (listCustomers: the page, its count, owners and documents), with the migration's
 * indexes and, as the baseline in the same run, with those indexes dropped.
 */
const CUSTOMERS = 100_000;
const OTHER_BUSINESSES_CUSTOMERS = 100_000;
const RUNS = 30;

interface Case {
  name: string;
  filters: ListFilters;
  page?: number;
}

const CASES: Case[] = [
  { name: 'page 1, no filter', filters: {} },
  { name: 'email', filters: { email: 'customer-77777@example.com' } },
  { name: 'registration_number', filters: { registrationNumber: 'RC-55555' } },
  { name: 'id_number', filters: { idNumber: 'ID-44445' } },
  { name: 'verification_status=PROCESSING', filters: { verificationStatus: 'PROCESSING' } },
  { name: 'type=business & status=REJECTED', filters: { type: 'business', verificationStatus: 'REJECTED' } },
  { name: 'page 100, no filter', filters: {}, page: 100 },
];

async function seed(url: string, businessId: string): Promise<void> {
  await insertCustomers(url, { businessId, first: 1, count: CUSTOMERS });
  for (let i = 0; i < 10; i++) {
    const first = CUSTOMERS + 1 + i * 10_000;
    await insertCustomers(url, { businessId: randomUUID(), first, count: OTHER_BUSINESSES_CUSTOMERS / 10 });
  }
  await query(url, 'vacuum analyze customer'); // what autovacuum does to a table this size
}

async function measure(orm: MikroORM, businessId: string, item: Case): Promise<{ p50: number; rows: number }> {
  const actor = { businessId, name: 'bench', requestId: undefined };
  const times: number[] = [];
  let rows = 0;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const list = await listCustomers(orm.em.fork(), actor, item.filters, {
      kind: 'numbered',
      page: item.page ?? 1,
    });
    times.push(performance.now() - started);
    rows = list.customers.length;
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)] ?? 0, rows };
}

const database = await createTestDatabase('bench_customer_list');
const orm = await openMigratedDatabase(customerKybDatabase(database.url));
try {
  const businessId = randomUUID();
  const seeded = performance.now();
  await seed(database.url, businessId);
  console.log(
    `seeded ${CUSTOMERS} customers of one business and ${OTHER_BUSINESSES_CUSTOMERS} of ten others in ${Math.round(performance.now() - seeded)} ms\n`,
  );

  const indexed = new Map<string, { p50: number; rows: number }>();
  for (const item of CASES) indexed.set(item.name, await measure(orm, businessId, item));

  const indexes = await query<{ indexname: string }>(
    database.url,
    `select indexname from pg_indexes where tablename = 'customer' and indexname like 'customer\\_%\\_idx'`,
  );
  for (const { indexname } of indexes) await query(database.url, `drop index ${indexname}`);
  await query(database.url, 'analyze customer');

  console.log(
    '| filtered page (15 per page, newest first) | rows | p50 with indexes | p50 without (baseline) | speed-up |',
  );
  console.log('|---|---|---|---|---|');
  for (const item of CASES) {
    const baseline = await measure(orm, businessId, item);
    const fast = indexed.get(item.name) ?? baseline;
    console.log(
      `| ${item.name} | ${fast.rows} | ${fast.p50.toFixed(1)} ms | ${baseline.p50.toFixed(1)} ms | ${(baseline.p50 / fast.p50).toFixed(1)}× |`,
    );
  }
} finally {
  await orm.close();
  await database.drop();
}
