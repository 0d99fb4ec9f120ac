import { create, type MessageShape } from '@bufbuild/protobuf';
import { StringValueSchema } from '@bufbuild/protobuf/wkt';
import { DomainError, Status, type CallContext } from '@corridor/grpc';
import { createTestDatabase, query, type TestDatabase } from '@corridor/testing';
import { Metadata } from '@grpc/grpc-js';
import { defineEntity, p } from '@mikro-orm/core';
import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import {
  idempotentWrites,
  IDEMPOTENCY_KEY_TABLE_SQL,
  pruneIdempotencyKeys,
  runIdempotent,
  runIdempotentOutsideTransaction,
} from './index.js';

/** What an effect writes: one row per run, so a test counts runs in the database itself. */
const EffectRow = defineEntity({
  name: 'EffectRow',
  tableName: 'effect_row',
  properties: { id: p.uuid().primary(), note: p.text() },
});

type Answer = MessageShape<typeof StringValueSchema>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A released gate: lets a test hold an effect open while another call arrives. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('runIdempotent: the Idempotency-Key claimed in the transaction of the effect (real PostgreSQL)', () => {
  let db: TestDatabase;
  let orm: MikroORM;
  const business = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase('idempotency');
    for (const statement of IDEMPOTENCY_KEY_TABLE_SQL) await query(db.url, statement);
    await query(db.url, 'create table effect_row (id uuid primary key, note text not null)');
    orm = await MikroORM.init({ clientUrl: db.url, entities: [EffectRow], allowGlobalContext: false });
  });
  afterAll(async () => {
    await orm.close();
    await db.drop();
  });

  /** A call as the gRPC server hands it to a method: the caller's business and key in metadata. */
  function callOf(key: string | undefined, fingerprint = 'fp-1', businessId = business): CallContext {
    const metadata = new Metadata();
    if (key !== undefined) metadata.set('idempotency-key', key);
    metadata.set('idempotency-fingerprint', fingerprint);
    return {
      caller: { businessId },
      metadata,
      signal: new AbortController().signal,
      responseMetadata: new Metadata(),
    };
  }

  /** The use-case shape of the services: a nested em.transactional (a savepoint) writing through tx. */
  const writeEffect =
    (note: string, after?: () => Promise<void>) =>
    async (tx: EntityManager): Promise<Answer> => {
      const id = await tx.transactional(async (inner) => inner.create(EffectRow, { id: randomUUID(), note }).id);
      await after?.();
      return create(StringValueSchema, { value: `${note}:${id}` });
    };

  const effectsNamed = async (note: string) =>
    (await query<{ n: number }>(db.url, 'select count(*)::int as n from effect_row where note = $1', [note]))[0]?.n;
  const keysNamed = async (key: string) =>
    (await query<{ n: number }>(db.url, 'select count(*)::int as n from idempotency_key where key = $1', [key]))[0]?.n;
  const replayed = (call: CallContext) => call.responseMetadata.get('idempotent-replayed');
  const run = (call: CallContext, note: string, route = 'CreateThing', after?: () => Promise<void>) =>
    runIdempotent(orm.em.fork(), call, route, StringValueSchema, writeEffect(note, after));

  it('answers the same key and request with the stored response, marked replayed, and runs the effect once', async () => {
    const key = randomUUID();
    const first = callOf(key);
    const answer = await run(first, 'replay');
    expect(replayed(first)).toEqual([]);

    const second = callOf(key);
    expect(await run(second, 'replay')).toEqual(answer);
    expect(replayed(second)).toEqual(['true']);
    expect(await effectsNamed('replay')).toBe(1);
    expect(await keysNamed(key)).toBe(1);
  });

  it('refuses the same key with another request (fingerprint) as 422 IDEMPOTENCY_KEY_REUSED, running nothing', async () => {
    const key = randomUUID();
    await run(callOf(key, 'fp-body-a'), 'reused');
    const error = await run(callOf(key, 'fp-body-b'), 'reused').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ status: Status.INVALID_ARGUMENT, reason: 'IDEMPOTENCY_KEY_REUSED' });
    expect((error as Error).message).toContain(key);
    expect(await effectsNamed('reused')).toBe(1);
  });

  it('scopes a key per business and per route: each runs its own effect', async () => {
    const key = randomUUID();
    await run(callOf(key), 'scoped');
    const otherBusiness = callOf(key, 'fp-1', randomUUID());
    await run(otherBusiness, 'scoped');
    const otherRoute = callOf(key);
    await run(otherRoute, 'scoped', 'OtherRoute');
    expect(replayed(otherBusiness)).toEqual([]);
    expect(replayed(otherRoute)).toEqual([]);
    expect(await effectsNamed('scoped')).toBe(3);
  });

  it('runs every call without a key, in a transaction, storing no key', async () => {
    const before = (await query<{ n: number }>(db.url, 'select count(*)::int as n from idempotency_key'))[0]?.n;
    await run(callOf(undefined), 'keyless');
    await run(callOf(undefined), 'keyless');
    expect(await effectsNamed('keyless')).toBe(2);
    expect((await query<{ n: number }>(db.url, 'select count(*)::int as n from idempotency_key'))[0]?.n).toBe(before);
  });

  it('answers 409 IDEMPOTENCY_REQUEST_IN_FLIGHT while the first call with the key runs, then replays it', async () => {
    const key = randomUUID();
    const held = gate();
    const started = gate();
    const first = run(callOf(key), 'in-flight', 'CreateThing', async () => {
      started.open();
      await held.opened;
    });
    await started.opened;
    // Were the key not locked, this call would wait on the first one's row: the first is let go
    // after a while either way, so a regression fails here instead of hanging.
    const second = run(callOf(key), 'in-flight').catch((e: unknown) => e);
    const early = await Promise.race([second, sleep(3_000).then(() => 'still waiting')]);
    held.open();
    expect(early).toMatchObject({ status: Status.ALREADY_EXISTS, reason: 'IDEMPOTENCY_REQUEST_IN_FLIGHT' });
    const answer = await first;
    const later = callOf(key);
    expect(await run(later, 'in-flight')).toEqual(answer);
    expect(replayed(later)).toEqual(['true']);
    expect(await effectsNamed('in-flight')).toBe(1);
  });

  it('runs the effect once when many calls race with one key: the others are 409 or a replay of it', async () => {
    const key = randomUUID();
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => run(callOf(key), 'race')));
    const answers = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const refusals = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as DomainError] : []));
    expect(answers.length).toBeGreaterThanOrEqual(1);
    expect(new Set(answers.map((answer) => answer.value)).size).toBe(1);
    for (const refusal of refusals) expect(refusal.reason).toBe('IDEMPOTENCY_REQUEST_IN_FLIGHT');
    expect(await effectsNamed('race')).toBe(1);
  });

  it('stores nothing when the effect fails after writing: the key can be retried, even with another request', async () => {
    const key = randomUUID();
    const failure = await run(callOf(key, 'fp-bad'), 'failing', 'CreateThing', () =>
      Promise.reject(new Error('the use case failed after its nested write')),
    ).catch((e: unknown) => e);
    expect(failure).toEqual(new Error('the use case failed after its nested write'));
    expect(await effectsNamed('failing')).toBe(0);
    expect(await keysNamed(key)).toBe(0);

    const retry = callOf(key, 'fp-good');
    await run(retry, 'failing');
    expect(replayed(retry)).toEqual([]);
    expect(await effectsNamed('failing')).toBe(1);
  });

  it('refuses a malformed key as 400 IDEMPOTENCY_KEY_INVALID (FAILED_PRECONDITION)', async () => {
    // Non-ASCII never reaches a service: gRPC metadata text is printable ASCII.
    for (const key of ['', 'with space', 'x'.repeat(256)]) {
      await expect(run(callOf(key), 'invalid')).rejects.toMatchObject({
        status: Status.FAILED_PRECONDITION,
        reason: 'IDEMPOTENCY_KEY_INVALID',
      });
    }
    expect(await effectsNamed('invalid')).toBe(0);
  });

  it('idempotentWrites: an edge’s write returns the fields; the key is claimed and replayed as runIdempotent does', async () => {
    const write = idempotentWrites(() => orm.em.fork());
    const key = randomUUID();
    const writeFields = async (tx: EntityManager) => ({ value: (await writeEffect('edge')(tx)).value });
    const answer = await write(callOf(key), 'CreateThing', StringValueSchema, writeFields);
    expect(answer.$typeName).toBe(StringValueSchema.typeName);
    expect(answer.value).toMatch(/^edge:/);
    const again = callOf(key);
    expect(await write(again, 'CreateThing', StringValueSchema, writeFields)).toEqual(answer);
    expect(replayed(again)).toEqual(['true']);
    expect(await effectsNamed('edge')).toBe(1);
  });

  describe('outside one transaction (effects that wait on the network)', () => {
    const runOutside = (call: CallContext, note: string, during?: () => Promise<void>) =>
      runIdempotentOutsideTransaction(
        orm.em.fork(),
        call,
        'SendThing',
        StringValueSchema,
        async () => {
          await during?.();
          return writeEffect(note)(orm.em.fork());
        },
        { claimTtlMs: 60_000 },
      );

    it('claims the key before the effect (409 meanwhile), stores the answer after it, then replays it', async () => {
      const key = randomUUID();
      const held = gate();
      const started = gate();
      const first = runOutside(callOf(key), 'outside', async () => {
        started.open();
        await held.opened;
      });
      await started.opened;
      await expect(runOutside(callOf(key), 'outside')).rejects.toMatchObject({
        reason: 'IDEMPOTENCY_REQUEST_IN_FLIGHT',
      });
      held.open();
      const answer = await first;
      const later = callOf(key);
      expect(await runOutside(later, 'outside')).toEqual(answer);
      expect(replayed(later)).toEqual(['true']);
      await expect(runOutside(callOf(key, 'fp-other'), 'outside')).rejects.toMatchObject({
        reason: 'IDEMPOTENCY_KEY_REUSED',
      });
      expect(await effectsNamed('outside')).toBe(1);
    });

    it('releases the claim when the effect fails, and retakes a claim whose holder died after its TTL', async () => {
      const key = randomUUID();
      await expect(
        runOutside(callOf(key), 'outside-failing', () => Promise.reject(new Error('receiver unreachable'))),
      ).rejects.toThrow('receiver unreachable');
      expect(await keysNamed(key)).toBe(0);

      // A holder that died: its claim row stays without a response.
      await query(
        db.url,
        `insert into idempotency_key (business_id, route, key, fingerprint, response, created_at)
         values ($1, 'SendThing', $2, 'fp-1', null, now() - interval '2 minutes')`,
        [business, key],
      );
      await runOutside(callOf(key), 'outside-failing');
      expect(await effectsNamed('outside-failing')).toBe(1);
    });
  });

  it('prunes keys older than the retention only, at most `batch` a call', async () => {
    // The database clock wrote every other row of this file moments ago: well inside the retention.
    const now = new Date();
    const day = 24 * 60 * 60 * 1000;
    const route = `Prune-${randomUUID()}`;
    const insert = (key: string, createdAt: Date) =>
      query(
        db.url,
        `insert into idempotency_key (business_id, route, key, fingerprint, response, created_at)
         values ($1, $2, $3, 'fp', '\\x'::bytea, $4)`,
        [business, route, key, createdAt],
      );
    await insert('old-1', new Date(now.getTime() - 3 * day));
    await insert('old-2', new Date(now.getTime() - day - 1));
    await insert('fresh', new Date(now.getTime() - day + 60_000));
    const keysLeft = async () =>
      (
        await query<{ key: string }>(db.url, 'select key from idempotency_key where route = $1 order by key', [route])
      ).map((row) => row.key);

    expect(await pruneIdempotencyKeys(orm.em.fork(), now, day, 1)).toBe(1);
    expect(await keysLeft()).toEqual(['fresh', 'old-2']);
    expect(await pruneIdempotencyKeys(orm.em.fork(), now, day)).toBe(1);
    expect(await keysLeft()).toEqual(['fresh']);
    expect(await pruneIdempotencyKeys(orm.em.fork(), now, day)).toBe(0);
  });
});
