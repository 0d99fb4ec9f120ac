import { timestampDate } from '@bufbuild/protobuf/wkt';
import { sql } from '@corridor/db';
import { createTestDatabase, query, type TestDatabase } from '@corridor/testing';
import { MikroORM } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { BusinessClock, sandboxClockSchemaSql } from './index.js';

const HOUR = 3_600_000;

describe('BusinessClock: each business judged by its own sandbox clock (real PostgreSQL)', () => {
  let db: TestDatabase;
  let orm: MikroORM;
  let real = new Date('2026-11-29T12:00:00.000Z');
  const clock = new BusinessClock(() => real, 'sandbox');
  const em = () => orm.em.fork();

  beforeAll(async () => {
    db = await createTestDatabase('sandbox_clock');
    for (const statement of sandboxClockSchemaSql) await query(db.url, statement);
    // A table with deadlines, as a sweep reads one: the row's business and when it falls due.
    await query(
      db.url,
      'create table deadline (id uuid primary key, business_id uuid not null, due_at timestamptz not null)',
    );
    await query(db.url, 'create index deadline_due_idx on deadline (due_at)');
    orm = await MikroORM.init({ clientUrl: db.url, entities: [], discovery: { warnWhenNoEntities: false } });
  });
  afterAll(async () => {
    await orm.close();
    await db.drop();
  });

  it('is real time for a business without a clock, and in production for every business', async () => {
    const business = randomUUID();
    expect(await clock.now(em(), business)).toEqual(real);
    await clock.start(em(), business);
    await clock.advance(em(), business, 3600n);
    const production = new BusinessClock(() => real, 'production');
    expect(await production.now(em(), business)).toEqual(real);
    expect(production.due('deadline', 'due_at')).toEqual({ sql: 'deadline.due_at <= ?', params: [real] });
  });

  it('starts at the present once, and advances add up, even when made at the same moment', async () => {
    const business = randomUUID();
    const first = await clock.start(em(), business);
    expect(first.created).toBe(true);
    expect(first.clock.offsetMs).toBe(0n);
    expect((await clock.start(em(), business)).created).toBe(false);
    await Promise.all(Array.from({ length: 10 }, () => clock.advance(em(), business, 3600n)));
    const after = await clock.get(em(), business);
    expect(after?.offsetMs).toBe(10n * 3_600_000n);
    expect(timestampDate(after!.now!)).toEqual(new Date(real.getTime() + 10 * HOUR));
    expect(await clock.now(em(), business)).toEqual(new Date(real.getTime() + 10 * HOUR));
    expect(await clock.advance(em(), randomUUID(), 1n)).toBeUndefined();
  });

  it('sets a copy to at least the offset it is given: a late or repeated set never moves it back', async () => {
    const business = randomUUID();
    expect((await clock.set(em(), business, 5n * 3_600_000n)).offsetMs).toBe(5n * 3_600_000n);
    expect((await clock.set(em(), business, 2n * 3_600_000n)).offsetMs).toBe(5n * 3_600_000n);
    expect((await clock.set(em(), business, 7n * 3_600_000n)).offsetMs).toBe(7n * 3_600_000n);
  });

  it('finds each due row by its own business’s time, and the rows of businesses without a clock by real time', async () => {
    const ahead = randomUUID();
    const plain = randomUUID();
    await clock.start(em(), ahead);
    await clock.advance(em(), ahead, 49n * 3600n);
    const rows = {
      aheadDue: [ahead, 48 * HOUR],
      aheadNotYet: [ahead, 50 * HOUR],
      plainPast: [plain, -HOUR],
      plainFuture: [plain, 48 * HOUR],
    } as const;
    const ids = Object.fromEntries(Object.keys(rows).map((name) => [name, randomUUID()]));
    for (const [name, [business, inMs]] of Object.entries(rows)) {
      await query(db.url, 'insert into deadline (id, business_id, due_at) values ($1, $2, $3)', [
        ids[name],
        business,
        new Date(real.getTime() + inMs),
      ]);
    }
    const due = clock.due('deadline', 'due_at');
    const found = await sql<{ id: string }>(em(), `select id from deadline where ${due.sql}`, due.params);
    const names = Object.entries(ids)
      .filter(([, id]) => found.some((row) => row.id === id))
      .map(([name]) => name);
    expect(names.sort()).toEqual(['aheadDue', 'plainPast']);
    // Real time passes for a clocked business too: its time runs on from where it was moved.
    real = new Date(real.getTime() + 2 * HOUR);
    const later = clock.due('deadline', 'due_at');
    const foundLater = await sql<{ id: string }>(em(), `select id from deadline where ${later.sql}`, later.params);
    expect(foundLater.map((row) => row.id)).toEqual(expect.arrayContaining([ids.aheadNotYet]));
    expect(foundLater.map((row) => row.id)).not.toContain(ids.plainFuture);
  });
});
