import { performance } from 'node:perf_hooks';
import { query, type ServiceProcess, type TestDatabase } from '../../packages/testing/dist/index.js';
import { jsonOf } from '../../test/dist/support/customers.js';
import { Platform } from '../../test/dist/support/platform.js';
import { describeWalk, walk, type Walk } from './cursor-walk.js';
import { insertCustomers } from './customer-rows.js';
import { insertAttempts, insertDeliveries } from './delivery-rows.js';
import { numberFromEnv } from './env.js';
import { runBench } from './lifecycle.js';
import { measure, warmUp, type LoadSettings, type Measurement, type Target } from './load.js';
import { machine } from './report.js';
import { createTenant, LOOPBACK_WEBHOOKS_ENV, startSmallCustomerPlatform, type Tenant } from './scale-platform.js';

/**
 * Issue 17's baseline: every list route through the gateway for a BIG business (200,000 customers,
 * 500,000 webhook deliveries) next to a SMALL one (100 of each) on the same platform, phases
 * interleaved big, small, big, small… so the machine's drift hits both. A list whose cost stays flat
 * as data grows answers both alike: a big/small p50 ratio above 1.5× is marked.
 */

/** Below 1 only for a quick trial of the bench itself: the figures are of the full scale. */
const SCALE = numberFromEnv('BENCH_SCALE', 1, 0.001, 1, false);
const settings: LoadSettings = {
  seconds: numberFromEnv('BENCH_SECONDS', 3, 1, 60),
  connections: numberFromEnv('BENCH_CONNECTIONS', 16, 1, 256),
};
const WARM_UP_SECONDS = 1;
/**
 * The small platform's customer-kyb and gateway have served nothing before the admin cases, the
 * platform's every case before them: a longer warm-up, so a cold process is not what is measured.
 */
const COLD_WARM_UP_SECONDS = 5;
/** Ends a stalled run: a whole run took 5.5 minutes on the idle 2-CPU machine. */
const RUN_LIMIT_MS = 20 * 60_000;
const FLAT = 1.5;

const BIG = { customers: Math.round(200_000 * SCALE), deliveries: Math.round(500_000 * SCALE) };
const SMALL = { customers: 100, deliveries: 100 };
/** Customer numbers (emails customer-<n>@example.com) of the small business: after the big one's. */
const SMALL_FIRST_CUSTOMER = 1_000_001;
/**
 * The unpaginated list answers up to 500 whole customers (decision 0008): next to 100 it would
 * measure the answer's size, not the table's. Its small side is a business just past the cap.
 */
const AT_CAP = { customers: 600, first: 2_000_001 };
/** Mostly verified, as a live platform's customers are; 9 long, so each status has both types. */
const REALISTIC_STATUSES = [...Array<string>(6).fill('VERIFIED'), 'PENDING', 'PROCESSING', 'REJECTED'];
/** 200,000 customers over about two years; 500,000 deliveries within notification's 30 days' retention. */
const CUSTOMER_SPACING_SECONDS = 300;
const DELIVERY_SPACING_SECONDS = 4;
const PER_PAGE = 15;
/** Numbered pages stop at 100 (decision 0018); the small lists end before it. */
const DEEPEST_PAGE = 100;
const pageAtDepth = (count: number) => Math.min(DEEPEST_PAGE, Math.max(1, Math.ceil(count / PER_PAGE)));
/** The cursor walks read pages of 100, the most per_page allows: 500 of them reach row 50,000. */
const WALK_PER_PAGE = 100;
const DEEP_PAGES = Math.max(1, Math.round(500 * SCALE));
/** A ninth of the customers are PENDING (about 22,000): the filtered walk goes 10,000 rows in. */
const PENDING_PAGES = Math.max(1, Math.round(100 * SCALE));
/** An event the seeding never writes (delivery-rows.ts), so `?event=` matches none of the failed rows. */
const UNSEEDED_EVENT = 'payout.reversed';

interface Case {
  route: string;
  big: Target;
  small: Target;
  /** Each side's warm-up, when WARM_UP_SECONDS is not enough. */
  warmUpSeconds?: number;
}

/** The answer tried before load: items in `data`, the capped `meta.total` of a numbered page, a cut list. */
interface Tried {
  rows: number;
  total: number | undefined;
  totalCapped: boolean;
  truncated: boolean;
}

interface Side extends Tried {
  measurement: Measurement;
}

const platform = new Platform({ payments: false, notificationEnv: LOOPBACK_WEBHOOKS_ENV });
let smallDb: TestDatabase | undefined;
let smallCustomerKyb: ServiceProcess | undefined;
let stopping: Promise<unknown> | undefined;
// The database last: its customer-kyb must be gone first.
const cleanUp = () =>
  (stopping ??= (async () => {
    await Promise.allSettled([platform.stop(), smallCustomerKyb?.kill()]);
    await smallDb?.drop().catch(() => undefined);
  })());

async function timed(what: string, work: () => Promise<void>): Promise<string> {
  const started = performance.now();
  await work();
  return `${what} ${((performance.now() - started) / 1000).toFixed(1)} s`;
}

/** Bulk SQL straight into the platforms' databases; customers and deliveries side by side. */
async function seed(
  urls: { customers: string; notification: string; smallPlatform: string },
  big: Tenant,
  small: Tenant,
  atCap: Tenant,
): Promise<string[]> {
  const customers = (businessId: string, first: number, count: number) => ({
    businessId,
    first,
    count,
    statuses: REALISTIC_STATUSES,
    spacingSeconds: CUSTOMER_SPACING_SECONDS,
  });
  const deliveries = (tenant: Tenant, count: number) => ({
    businessId: tenant.businessId,
    endpointId: tenant.endpointId,
    count,
    spacingSeconds: DELIVERY_SPACING_SECONDS,
  });
  return Promise.all([
    timed(`${BIG.customers + SMALL.customers + AT_CAP.customers} customers`, async () => {
      await insertCustomers(urls.customers, customers(big.businessId, 1, BIG.customers));
      await insertCustomers(urls.customers, customers(small.businessId, SMALL_FIRST_CUSTOMER, SMALL.customers));
      await insertCustomers(urls.customers, customers(atCap.businessId, AT_CAP.first, AT_CAP.customers));
      await query(urls.customers, 'vacuum analyze customer'); // what autovacuum does to a table this size
    }),
    timed(`${BIG.deliveries + SMALL.deliveries} deliveries and their attempts`, async () => {
      await insertDeliveries(urls.notification, deliveries(big, BIG.deliveries));
      await insertDeliveries(urls.notification, deliveries(small, SMALL.deliveries));
      await insertAttempts(urls.notification, big.businessId);
      await insertAttempts(urls.notification, small.businessId);
      await query(urls.notification, 'vacuum analyze webhook_delivery, webhook_attempt');
    }),
    timed('the small platform', async () => {
      await insertCustomers(urls.smallPlatform, customers(small.businessId, SMALL_FIRST_CUSTOMER, SMALL.customers));
      await query(urls.smallPlatform, 'vacuum analyze customer');
    }),
  ]);
}

/** What the tables hold once seeded: the seeding is checked, not assumed. */
async function counts(customerUrl: string, notificationUrl: string): Promise<string> {
  const count = async (url: string, table: string) =>
    Number((await query<{ n: string }>(url, `select count(*) as n from ${table}`))[0]?.n ?? 0).toLocaleString('en');
  const customers = await count(customerUrl, 'customer');
  const deliveries = await count(notificationUrl, 'webhook_delivery');
  const attempts = await count(notificationUrl, 'webhook_attempt');
  return `${customers} customers, ${deliveries} deliveries, ${attempts} attempts`;
}

const api = (tenant: Tenant, path: string): Target => ({
  url: `${platform.publicUrl}/api/external${path}`,
  headers: { authorization: `Bearer ${tenant.token}` },
});

/** Where each deep cursor case starts: a cursor some rows in, reached as a client reaches it. */
interface Depths {
  customers: { big: Walk; small: Walk };
  pending: { big: Walk; small: Walk };
  deliveries: { big: Walk; small: Walk };
}

/**
 * Big: pages of 100 from the first page. Small: one page of 15 (5 of PENDING, of which it has
 * about 11), so its cursor is its page 2's.
 */
async function walkToDepth(big: Tenant, small: Tenant): Promise<Depths> {
  const pending = '/customer?paginate=true&verification_status=PENDING';
  return {
    customers: {
      big: await walk(api(big, `/customer?paginate=true&per_page=${WALK_PER_PAGE}`), DEEP_PAGES),
      small: await walk(api(small, '/customer?paginate=true'), 1),
    },
    pending: {
      big: await walk(api(big, `${pending}&per_page=${WALK_PER_PAGE}`), PENDING_PAGES),
      small: await walk(api(small, `${pending}&per_page=5`), 1),
    },
    deliveries: {
      big: await walk(api(big, `/webhook/deliveries?per_page=${WALK_PER_PAGE}`), DEEP_PAGES),
      small: await walk(api(small, '/webhook/deliveries'), 1),
    },
  };
}

function cases(big: Tenant, small: Tenant, atCap: Tenant, depths: Depths, smallAdminUrl: string): Case[] {
  const both = (route: string, bigPath: string, smallPath = bigPath): Case => ({
    route,
    big: api(big, bigPath),
    small: api(small, smallPath),
  });
  /** The same list at each side's walked cursor, 15 per page. */
  const deep = (route: string, path: string, walked: { big: Walk; small: Walk }): Case =>
    both(
      `${route} (after ${walked.big.rows.toLocaleString('en')} rows; small: after ${walked.small.rows})`,
      `${path}cursor=${walked.big.cursor}`,
      `${path}cursor=${walked.small.cursor}`,
    );
  /** Page 100, or the small list's last page. */
  const numbered = (route: string, path: string, bigCount: number, smallCount: number): Case =>
    both(
      `${route}page=${pageAtDepth(bigCount)} (small: last, ${pageAtDepth(smallCount)})`,
      `${path}page=${pageAtDepth(bigCount)}`,
      `${path}page=${pageAtDepth(smallCount)}`,
    );
  const admin = (url: string, page: number): Target => ({
    url: `${url}/admin/customers?page=${page}`,
    headers: { authorization: `Bearer ${platform.adminToken}` },
  });
  const email = (n: number) => encodeURIComponent(`customer-${n}@example.com`);
  const pending = 'verification_status=PENDING';
  return [
    both('GET /customer?paginate=true', '/customer?paginate=true'),
    deep('GET /customer?paginate=true&cursor=…', '/customer?paginate=true&', depths.customers),
    both(`GET /customer?paginate=true&${pending}`, `/customer?paginate=true&${pending}`),
    deep(`GET /customer?paginate=true&${pending}&cursor=…`, `/customer?paginate=true&${pending}&`, depths.pending),
    both('GET /customer?paginate=true&page=1', '/customer?paginate=true&page=1'),
    numbered('GET /customer?paginate=true&', '/customer?paginate=true&', BIG.customers, SMALL.customers),
    both(
      'GET /customer?email=<one that exists>',
      `/customer?email=${email(Math.min(77_777, BIG.customers))}`,
      `/customer?email=${email(SMALL_FIRST_CUSTOMER + 37)}`,
    ),
    {
      route: `GET /customer (no paginate; small: a business of ${AT_CAP.customers}, both cut at 500)`,
      big: api(big, '/customer'),
      small: api(atCap, '/customer'),
    },
    both('GET /webhook/deliveries', '/webhook/deliveries'),
    deep('GET /webhook/deliveries?cursor=…', '/webhook/deliveries?', depths.deliveries),
    both('GET /webhook/deliveries?page=1', '/webhook/deliveries?page=1'),
    numbered('GET /webhook/deliveries?', '/webhook/deliveries?', BIG.deliveries, SMALL.deliveries),
    both('GET /webhook/deliveries?status=failed', '/webhook/deliveries?status=failed'),
    both('GET /webhook/deliveries?status=failed&event=refund', '/webhook/deliveries?status=failed&event=refund'),
    both(
      `GET /webhook/deliveries?status=failed&event=${UNSEEDED_EVENT} (none)`,
      `/webhook/deliveries?status=failed&event=${UNSEEDED_EVENT}`,
    ),
    {
      route: 'GET /admin/customers (admin port; all businesses)',
      big: admin(platform.adminUrl, 1),
      small: admin(smallAdminUrl, 1),
      warmUpSeconds: COLD_WARM_UP_SECONDS,
    },
    {
      route: `GET /admin/customers?page=${DEEPEST_PAGE} (small: last, ${pageAtDepth(SMALL.customers)})`,
      big: admin(platform.adminUrl, DEEPEST_PAGE),
      small: admin(smallAdminUrl, pageAtDepth(SMALL.customers)),
    },
  ];
}

/** One try before any load: a phase that measured 401s or 422s would be a fast, meaningless figure. */
async function tryOnce(target: Target): Promise<Tried> {
  const response = await fetch(target.url, { headers: target.headers });
  const truncated = response.headers.get('x-corridor-truncated') === 'true';
  // Either envelope: a cursor page's meta has no total, a numbered page's a capped one.
  const body = await jsonOf<{ data?: unknown; meta?: { total?: number; total_capped?: boolean } }>(
    response,
    200,
    target.url,
  );
  if (!Array.isArray(body.data)) throw new Error(`${target.url} answered without a data list`);
  return { rows: body.data.length, total: body.meta?.total, totalCapped: body.meta?.total_capped === true, truncated };
}

/** Rounds of each case, big and small alternating, so a burst of noise on the machine hits one round of each. */
const ROUNDS = numberFromEnv('BENCH_ROUNDS', 3, 1, 9);

/** The round whose p50 is the median of the rounds' (the upper one of an even count). */
const medianRound = (rounds: Measurement[]): Measurement => {
  const sorted = [...rounds].sort((a, b) => a.latencyP50Ms - b.latencyP50Ms);
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (!middle) throw new Error('no round was measured');
  return middle;
};

/**
 * A case's two sides: each tried once and warmed up, then ROUNDS rounds of big then small, each
 * side's figures those of its median round; non-2xx answers and errors summed over every round.
 */
async function measureCase(item: Case, warmUpSeconds: number): Promise<{ big: Side; small: Side }> {
  const [bigTried, smallTried] = [await tryOnce(item.big), await tryOnce(item.small)];
  await warmUp(item.big, warmUpSeconds);
  await warmUp(item.small, warmUpSeconds);
  const rounds: { big: Measurement[]; small: Measurement[] } = { big: [], small: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    rounds.big.push(await measure(item.big, settings));
    rounds.small.push(await measure(item.small, settings));
  }
  const sideOf = (tried: typeof bigTried, measured: Measurement[]): Side => ({
    ...tried,
    measurement: {
      ...medianRound(measured),
      non2xx: measured.reduce((sum, m) => sum + m.non2xx, 0),
      errors: measured.reduce((sum, m) => sum + m.errors, 0),
      totalRequests: Math.min(...measured.map((m) => m.totalRequests)),
    },
  });
  return { big: sideOf(bigTried, rounds.big), small: sideOf(smallTried, rounds.small) };
}

const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const rows = (side: Side) =>
  side.total === undefined
    ? `${side.rows}${side.truncated ? ' (cut)' : ''}`
    : `${side.rows} of ${side.total.toLocaleString('en')}${side.totalCapped ? '+' : ''}`;
/** NaN when a side answered nothing in its phase: its p50 of 0 is no figure. */
const ratioOf = (big: Side, small: Side) =>
  big.measurement.totalRequests > 0 && small.measurement.totalRequests > 0 && small.measurement.latencyP50Ms > 0
    ? big.measurement.latencyP50Ms / small.measurement.latencyP50Ms
    : Number.NaN;

function table(results: { item: Case; big: Side; small: Side }[]): string {
  const lines = [
    `| route | big: rows | small: rows | big p50 ms | small p50 ms | big/small p50 | ≤ ${FLAT}× | big p99 ms | small p99 ms | big req/s | small req/s |`,
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { item, big, small } of results) {
    const b = big.measurement;
    const s = small.measurement;
    const ratio = ratioOf(big, small);
    const flat = Number.isNaN(ratio) ? '—' : ratio > FLAT ? '**no**' : 'yes';
    lines.push(
      `| ${item.route} | ${rows(big)} | ${rows(small)} | ${ms(b.latencyP50Ms)} | ${ms(s.latencyP50Ms)} | ` +
        `${Number.isNaN(ratio) ? '—' : `${ratio.toFixed(1)}×`} | ${flat} | ${ms(b.latencyP99Ms)} | ${ms(s.latencyP99Ms)} | ` +
        `${b.requestsPerSecond.toLocaleString('en')} | ${s.requestsPerSecond.toLocaleString('en')} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const started = performance.now();
  console.log('starting the platform on free ports (gateway, identity, customer-kyb, notification; no payments)…');
  await platform.start();
  const [big, small, atCap] = await Promise.all([
    createTenant(platform),
    createTenant(platform),
    createTenant(platform),
  ]);
  const smallPlatform = await startSmallCustomerPlatform(platform, (resource) => {
    smallDb ??= resource.db;
    smallCustomerKyb ??= resource.customerKyb;
  });

  console.log(
    `… seeding: big ${BIG.customers} customers and ${BIG.deliveries} deliveries, small ${SMALL.customers} of each`,
  );
  const urls = { customers: platform.customerDb?.url, notification: platform.notificationDb?.url };
  if (!urls.customers || !urls.notification) throw new Error('the platform runs without customer-kyb or notification');
  const seeded = await seed(
    { customers: urls.customers, notification: urls.notification, smallPlatform: smallPlatform.db.url },
    big,
    small,
    atCap,
  );
  console.log(`… seeded (${seeded.join('; ')}): ${await counts(urls.customers, urls.notification)}`);

  console.log(`… walking links.next, ${WALK_PER_PAGE} a page, to the deep cursors`);
  const depths = await walkToDepth(big, small);
  const walks = [
    `- GET /customer?paginate=true&per_page=${WALK_PER_PAGE}: ${describeWalk(depths.customers.big)}`,
    `- GET /customer?paginate=true&verification_status=PENDING&per_page=${WALK_PER_PAGE}: ${describeWalk(depths.pending.big)}`,
    `- GET /webhook/deliveries?per_page=${WALK_PER_PAGE}: ${describeWalk(depths.deliveries.big)}`,
  ];
  console.log(walks.join('\n'));

  const results: { item: Case; big: Side; small: Side }[] = [];
  for (const item of cases(big, small, atCap, depths, smallPlatform.gateway.adminUrl)) {
    const warmUpSeconds = item.warmUpSeconds ?? WARM_UP_SECONDS;
    console.log(
      `… ${item.route}: ${warmUpSeconds} s warm-up each, then ${ROUNDS} rounds of big then small, ${settings.seconds} s each`,
    );
    const { big: bigSide, small: smallSide } = await measureCase(item, warmUpSeconds);
    results.push({ item, big: bigSide, small: smallSide });
  }

  const { cpus, cpu_model: model, node, load_average_1m_before: before, load_average_1m_after: after } = machine();
  console.log(
    `\n${cpus} × ${model}, Node ${node}, load average ${before} before the run and ${after} after; ${settings.connections} connections, ${ROUNDS} rounds of ${settings.seconds} s per side (the median round shown) ` +
      `after ${WARM_UP_SECONDS} s of warm-up (the first admin case ${COLD_WARM_UP_SECONDS} s); whole run ${((performance.now() - started) / 1000).toFixed(0)} s` +
      `${SCALE < 1 ? `; BENCH_SCALE=${SCALE}, a trial: not the issue's figures` : ''}.\n`,
  );
  console.log(table(results));
  console.log(`\nThe cursor walks (each page's request and body, one client):\n${walks.join('\n')}`);
  const steep = results.filter(({ big: b, small: s }) => ratioOf(b, s) > FLAT).map(({ item }) => item.route);
  if (steep.length > 0) console.log(`\nNot flat (big/small p50 above ${FLAT}×): ${steep.join('; ')}`);
  const refused = results.flatMap(({ item, big: b, small: s }) =>
    (
      [
        ['big', b],
        ['small', s],
      ] as const
    )
      .filter(([, { measurement: m }]) => m.non2xx > 0 || m.errors > 0 || m.totalRequests === 0)
      .map(
        ([name, { measurement: m }]) =>
          `${item.route} (${name}): ${m.totalRequests} answered, ${JSON.stringify(m.statusCodes)}, ${m.errors} errors`,
      ),
  );
  // A phase full of refusals or timeouts, or one that saw no answer at all, measured something else.
  if (refused.length > 0) throw new Error(`phases with non-2xx answers, errors or no answer: ${refused.join('; ')}`);
}

await runBench(main, cleanUp, { limitMs: RUN_LIMIT_MS });
