import { sql } from '@corridor/db';
import { keysetRead, numberedRead } from '@corridor/pagination';
import { integrationDatabase } from '@corridor/testing';
import { randomUUID } from 'node:crypto';
import { notificationDatabase } from '../database.js';
import { WebhookSecrets } from '../secrets/webhook-secrets.js';
import { DeliveryRepository } from './delivery-repository.js';
import { INTERRUPTED_MESSAGE, type Delivery } from './delivery.js';
import {
  answer,
  insertDelivery,
  registerEndpoint,
  type TestEndpoint,
} from '../../test/deliveries/delivery.fixtures.js';

const secrets = new WebhookSecrets('r'.repeat(64));
const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000);

describe('delivery repository (decision 0010; real PostgreSQL)', () => {
  const database = integrationDatabase('notification', notificationDatabase);
  const { em } = database;
  const deliveries = () => new DeliveryRepository(em());
  const registration = () => registerEndpoint(em(), secrets);
  const delivery = (endpoint: TestEndpoint, due?: Date) => insertDelivery(em(), endpoint, due);
  const row = async (id: string) => (await sql(em(), `select * from webhook_delivery where id = ?`, [id]))[0];
  /** Ends a delivery failed, as its last scheduled attempt does. */
  const fail = (deliveryId: string) =>
    deliveries().recordAttempt({ deliveryId, trigger: 'scheduled', result: answer('failed'), now: new Date() });

  beforeAll(async () => {});

  it('one delivery per (event, registration): a second insert of the same event is a no-op', async () => {
    const endpoint = await registration();
    const eventId = randomUUID();
    const make = () =>
      deliveries().insert({
        id: randomUUID(),
        ...endpoint,
        eventId,
        eventType: 'customer.status_changed',
        destination: 'collection_url',
        body: '{}',
        nextAttemptAt: new Date(),
        traceContext: {},
        eventOccurredAt: new Date(),
        now: new Date(),
      });
    expect(await make()).toBe(true);
    expect(await make()).toBe(false);
  });

  it('finds a delivery as it was stored, and never another business’s', async () => {
    const endpoint = await registration();
    const id = randomUUID();
    const at = new Date('2026-11-21T09:30:00.123Z');
    const traceContext = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
    await deliveries().insert({
      id,
      ...endpoint,
      eventId: randomUUID(),
      eventType: 'payout.successful',
      destination: 'payout_url',
      body: '{"event":"payout.successful","data":{}}',
      nextAttemptAt: null,
      mock: true,
      traceContext,
      eventOccurredAt: at,
      now: at,
    });
    expect(await deliveries().findDelivery({ businessId: endpoint.businessId, deliveryId: id })).toEqual<Delivery>({
      id,
      businessId: endpoint.businessId,
      endpointId: endpoint.endpointId,
      eventId: expect.any(String) as string,
      eventType: 'payout.successful',
      destination: 'payout_url',
      body: '{"event":"payout.successful","data":{}}',
      status: 'pending',
      attemptCount: 0,
      scheduledAttempts: 0,
      nextAttemptAt: null,
      replayRequestedAt: null,
      leaseUntil: null,
      mock: true,
      sequence: null,
      skippedReason: null,
      traceContext,
      eventOccurredAt: at,
      createdAt: at,
      updatedAt: at,
      completedAt: null,
    });
    expect(await deliveries().findDelivery({ businessId: randomUUID(), deliveryId: id })).toBeUndefined();
  });

  it('a claim takes at most the per-registration cap, so one busy registration leaves slots for the others', async () => {
    const busy = await registration();
    const quiet = await registration();
    const past = new Date(Date.now() - 60_000);
    for (let i = 0; i < 6; i++) await delivery(busy, past);
    const quietOne = await delivery(quiet, new Date(Date.now() - 1_000));
    const options = { now: new Date(), limit: 10, perEndpoint: 2, leaseMs: 60_000 };

    const claim = async (at: typeof options) => (await deliveries().claimDue(at)).deliveries.map((c) => c.delivery);
    const first = await claim(options);
    const byEndpoint = (claimed: Delivery[], endpointId: string) => claimed.filter((d) => d.endpointId === endpointId);
    expect(byEndpoint(first, busy.endpointId)).toHaveLength(2);
    expect(byEndpoint(first, quiet.endpointId).map((d) => d.id)).toEqual([quietOne]);

    // While those leases hold, the busy registration is at its cap: nothing more of it is claimed.
    const second = await claim(options);
    expect(byEndpoint(second, busy.endpointId)).toHaveLength(0);

    // A lease that lapsed (its worker died) makes the delivery claimable again.
    const third = await claim({ ...options, now: new Date(Date.now() + 120_000) });
    expect(byEndpoint(third, busy.endpointId)).toHaveLength(2);
  });

  it('two workers claiming at once never get the same delivery (SKIP LOCKED)', async () => {
    const endpoint = await registration();
    const ids = new Set<string>();
    // Due a day ago: older than any delivery earlier tests left pending, so the claims' oldest-first
    // pages are these eight however long those tests took (under load, 5 s ago was not the oldest).
    for (let i = 0; i < 8; i++) ids.add(await delivery(endpoint, new Date(Date.now() - 86_400_000)));
    const options = { now: new Date(), limit: 8, perEndpoint: 100, leaseMs: 60_000 };
    const [a, b] = await Promise.all([deliveries().claimDue(options), deliveries().claimDue(options)]);
    const mine = [...a.deliveries, ...b.deliveries].map((c) => c.delivery.id).filter((id) => ids.has(id));
    expect(new Set(mine).size).toBe(mine.length);
    expect(mine).toHaveLength(8);
  });

  it('a claim records each attempt as started (in flight under the claim’s lease) and reads where it goes', async () => {
    const endpoint = await registration();
    const id = await delivery(endpoint, new Date(Date.now() - 86_400_000));
    const now = new Date();
    const claim = await deliveries().claimDue({ now, limit: 100, perEndpoint: 100, leaseMs: 60_000 });
    const claimed = claim.deliveries.find((c) => c.delivery.id === id);
    expect(claimed?.attempt).toEqual({ number: 1, trigger: 'scheduled' });
    expect(claimed?.delivery).toMatchObject({ attemptCount: 1, leaseUntil: new Date(now.getTime() + 60_000) });
    expect(claimed?.endpoint).toMatchObject({ collectionUrl: expect.stringContaining(endpoint.endpointId) });
    expect(secrets.unseal(claimed!.endpoint.signingSecretSealed, endpoint.endpointId)).toBe(endpoint.secret);
    const [started] = await deliveries().attemptsOf(id);
    expect(started).toMatchObject({ number: 1, trigger: 'scheduled', outcome: 'in_flight', startedAt: now });
  });

  it('answers recorded together: each attempt and delivery as changeAfterAttempt says, in one statement', async () => {
    const endpoint = await registration();
    const [succeeds, retries, ends] = [await delivery(endpoint), await delivery(endpoint), await delivery(endpoint)];
    const now = new Date();
    const claim = await deliveries().claimDue({ now, limit: 100, perEndpoint: 100, leaseMs: 60_000 });
    const numberOf = (id: string) => claim.deliveries.find((c) => c.delivery.id === id)?.attempt.number ?? 0;
    const next = new Date(now.getTime() + 60_000);
    const recorded = await deliveries().finishAttempts([
      { deliveryId: succeeds, number: numberOf(succeeds), trigger: 'scheduled', result: answer('succeeded'), now },
      {
        deliveryId: retries,
        number: numberOf(retries),
        trigger: 'scheduled',
        result: answer('failed'),
        nextAttemptAt: next,
        now,
      },
      {
        deliveryId: ends,
        number: numberOf(ends),
        trigger: 'scheduled',
        result: answer('failed'),
        nextAttemptAt: null,
        now,
      },
    ]);
    expect(recorded).toHaveLength(3);
    const after = async (id: string) =>
      (await deliveries().findDelivery({ businessId: endpoint.businessId, deliveryId: id }))!;
    expect(await after(succeeds)).toMatchObject({ status: 'succeeded', leaseUntil: null, scheduledAttempts: 1 });
    expect(await after(retries)).toMatchObject({ status: 'pending', nextAttemptAt: next, leaseUntil: null });
    expect(await after(ends)).toMatchObject({ status: 'failed', completedAt: now, scheduledAttempts: 1 });
    for (const [id, outcome] of [
      [succeeds, 'succeeded'],
      [retries, 'failed'],
      [ends, 'failed'],
    ] as const) {
      expect((await deliveries().attemptsOf(id)).map((a) => [a.number, a.outcome])).toEqual([[1, outcome]]);
    }
  });

  it('seed 6.4: a scheduled failure reschedules; the last one ends failed; a replay failure changes nothing', async () => {
    const endpoint = await registration();
    const id = await delivery(endpoint);
    const next = new Date(Date.now() + 60_000);
    const record = (trigger: 'scheduled' | 'replay', outcome: 'failed' | 'succeeded', nextAttemptAt?: Date | null) =>
      deliveries().recordAttempt({ deliveryId: id, trigger, result: answer(outcome), nextAttemptAt, now: new Date() });
    let recorded = await record('scheduled', 'failed', next);
    expect(recorded.delivery).toMatchObject({
      status: 'pending',
      scheduledAttempts: 1,
      attemptCount: 1,
      nextAttemptAt: next,
    });
    recorded = await record('scheduled', 'failed', null);
    expect(recorded.delivery).toMatchObject({ status: 'failed', scheduledAttempts: 2, nextAttemptAt: null });
    expect(recorded.delivery.completedAt).not.toBeNull();
    recorded = await record('replay', 'failed');
    expect(recorded.delivery).toMatchObject({ status: 'failed', scheduledAttempts: 2, attemptCount: 3 });
    recorded = await record('replay', 'succeeded');
    expect(recorded.delivery).toMatchObject({ status: 'succeeded', attemptCount: 4 });
    expect((await deliveries().attemptsOf(id)).map((a) => [a.number, a.trigger, a.outcome])).toEqual([
      [1, 'scheduled', 'failed'],
      [2, 'scheduled', 'failed'],
      [3, 'replay', 'failed'],
      [4, 'replay', 'succeeded'],
    ]);
  });

  it('a mock’s one attempt ends it: failed, with nothing scheduled', async () => {
    const endpoint = await registration();
    const id = randomUUID();
    const now = new Date();
    await deliveries().insert({
      id,
      ...endpoint,
      eventId: randomUUID(),
      eventType: 'customer.status_changed',
      destination: 'collection_url',
      body: '{}',
      nextAttemptAt: null,
      mock: true,
      traceContext: {},
      eventOccurredAt: now,
      now,
    });
    const recorded = await deliveries().recordAttempt({
      deliveryId: id,
      trigger: 'mock',
      result: answer('failed'),
      nextAttemptAt: null,
      now,
    });
    expect(recorded.delivery).toMatchObject({
      status: 'failed',
      attemptCount: 1,
      scheduledAttempts: 0,
      nextAttemptAt: null,
      completedAt: now,
    });
    expect(recorded.attempt).toMatchObject({ number: 1, trigger: 'mock', outcome: 'failed', statusCode: 500 });
  });

  it('a replay asked for through the API holds a lease of its own: left open, any later claim closes it, the failed delivery stays failed; a late answer still replaces interrupted', async () => {
    const endpoint = await registration();
    const id = await delivery(endpoint);
    await fail(id);
    const now = Date.now();
    const replay = await deliveries().startAttempt({
      deliveryId: id,
      trigger: 'replay',
      startedAt: new Date(now),
      leaseUntil: new Date(now + 5_000),
    });
    expect(replay.number).toBe(2);

    const claim = await deliveries().claimDue({
      now: new Date(now + 6_000),
      limit: 100,
      perEndpoint: 100,
      leaseMs: 5_000,
    });
    expect(claim.interrupted.filter((a) => a.deliveryId === id)).toEqual([
      { deliveryId: id, number: 2, trigger: 'replay', eventType: 'customer.status_changed' },
    ]);
    expect(await row(id)).toMatchObject({ status: 'failed', attempt_count: 2 });
    const [, interrupted] = await deliveries().attemptsOf(id);
    expect(interrupted).toMatchObject({ outcome: 'interrupted', errorMessage: INTERRUPTED_MESSAGE });

    // The process was only slow: its answer is the truth, recorded over the interruption.
    const late = await deliveries().finishAttempt({
      deliveryId: id,
      number: 2,
      trigger: 'replay',
      result: answer('succeeded'),
      now: new Date(),
    });
    expect(late.attempt).toMatchObject({ number: 2, outcome: 'succeeded', statusCode: 200, errorMessage: null });
    expect(late.delivery.status).toBe('succeeded');
  });

  it('the database refuses an attempt in flight without a lease (nothing could ever close it)', async () => {
    const endpoint = await registration();
    const id = await delivery(endpoint);
    await expect(
      sql(
        em(),
        `insert into webhook_attempt (id, delivery_id, number, trigger, started_at, outcome)
         values (gen_random_uuid(), ?, 1, 'scheduled', now(), 'in_flight')`,
        [id],
      ),
    ).rejects.toThrow(/webhook_attempt_in_flight_leased/);
  });

  it('lists one business’s deliveries newest first, filtered, by cursor or numbered page', async () => {
    const endpoint = await registration();
    await delivery(await registration(), secondsAgo(1)); // another business's, never listed
    const [newest, second, third, fourth, oldest] = [
      await delivery(endpoint, secondsAgo(100)),
      await delivery(endpoint, secondsAgo(200)),
      await delivery(endpoint, secondsAgo(300)),
      await delivery(endpoint, secondsAgo(400)),
      await delivery(endpoint, secondsAgo(500)),
    ];
    for (const id of [second, fourth]) await fail(id);
    const filter = { businessId: endpoint.businessId };
    const idsOf = (listed: readonly Delivery[]) => listed.map((d) => d.id);

    const first = await deliveries().listDeliveries({ filter, read: keysetRead({ cursor: '', limit: 2 }) });
    expect(idsOf(first.rows)).toEqual([newest, second]);
    expect(first.previousCursor).toBeUndefined();
    const next = await deliveries().listDeliveries({
      filter,
      read: keysetRead({ cursor: first.nextCursor ?? '', limit: 2 }),
    });
    expect(idsOf(next.rows)).toEqual([third, fourth]);
    const back = await deliveries().listDeliveries({
      filter,
      read: keysetRead({ cursor: next.previousCursor ?? '', limit: 2 }),
    });
    expect(idsOf(back.rows)).toEqual([newest, second]);

    const failed = await deliveries().listDeliveries({
      filter: { ...filter, status: 'failed' },
      read: keysetRead(undefined),
    });
    expect(idsOf(failed.rows)).toEqual([second, fourth]);
    const range = await deliveries().listDeliveries({
      filter: {
        ...filter,
        eventType: 'customer.status_changed',
        createdFrom: secondsAgo(450),
        createdBefore: secondsAgo(150),
      },
      read: keysetRead(undefined),
    });
    expect(idsOf(range.rows)).toEqual([second, third, fourth]);

    const numbered = await deliveries().listNumbered({ filter, read: numberedRead(1) });
    expect(idsOf(numbered.deliveries)).toEqual([newest, second, third, fourth, oldest]);
    expect(numbered.counted).toBe(5);
    const none = await deliveries().listNumbered({ filter: { ...filter, eventType: 'refund' }, read: numberedRead(1) });
    expect(none).toEqual({ deliveries: [], counted: 0 });
  });

  it('queues a replay of each failed delivery created in [from, before) not queued yet, oldest first, up to the limit; the claim takes them', async () => {
    const endpoint = await registration();
    const [tooOld, oldest, middle, newest, tooNew] = [
      await delivery(endpoint, secondsAgo(500)),
      await delivery(endpoint, secondsAgo(400)),
      await delivery(endpoint, secondsAgo(300)),
      await delivery(endpoint, secondsAgo(200)),
      await delivery(endpoint, secondsAgo(100)),
    ];
    for (const id of [tooOld, oldest, middle, tooNew]) await fail(id);
    const now = new Date();
    const request = { businessId: endpoint.businessId, createdFrom: secondsAgo(450), createdBefore: secondsAgo(150) };
    const queue = (limit: number) => deliveries().queueFailedForReplay({ ...request, limit, now });
    const queuedAt = async (deliveryId: string) =>
      (await deliveries().findDelivery({ businessId: endpoint.businessId, deliveryId }))?.replayRequestedAt;

    expect(await queue(1)).toBe(1);
    expect(await queuedAt(oldest)).toEqual(now);
    expect(await queuedAt(middle)).toBeNull();
    // The pending one in range (newest) is no replay; the queued one is not queued twice.
    expect(await queue(10)).toBe(1);
    expect(await queue(10)).toBe(0);
    for (const id of [tooOld, newest, tooNew]) expect(await queuedAt(id)).toBeNull();
    // No upper bound: everything failed from createdFrom on.
    expect(await deliveries().queueFailedForReplay({ ...request, createdBefore: undefined, limit: 10, now })).toBe(1);

    const claim = await deliveries().claimDue({ now: new Date(), limit: 100, perEndpoint: 100, leaseMs: 60_000 });
    const replays = claim.deliveries.filter(
      (c) => c.delivery.endpointId === endpoint.endpointId && c.attempt.trigger === 'replay',
    );
    expect(replays.map((c) => c.delivery.id).sort()).toEqual([oldest, middle, tooNew].sort());
  });

  it('counts the pending deliveries', async () => {
    const before = await deliveries().countPending();
    const endpoint = await registration();
    await delivery(endpoint);
    await fail(await delivery(endpoint));
    expect(await deliveries().countPending()).toBe(before + 1);
  });

  it('deletes ended deliveries completed before the cutoff, with their attempts, a batch at a time; never a pending one', async () => {
    const endpoint = await registration();
    const long = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    const ended = [await delivery(endpoint), await delivery(endpoint), await delivery(endpoint)];
    const [pending, recent] = [await delivery(endpoint, long), await delivery(endpoint)];
    for (const id of [...ended, recent]) await fail(id);
    for (const id of ended) await sql(em(), `update webhook_delivery set completed_at = ? where id = ?`, [long, id]);
    await sql(em(), `update webhook_delivery set completed_at = ? where id = ?`, [long, pending]);

    const cutoff = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    expect(await deliveries().deleteEnded({ completedBefore: cutoff, limit: 2 })).toBe(2);
    expect(await deliveries().deleteEnded({ completedBefore: cutoff, limit: 2 })).toBe(1);
    expect(await deliveries().deleteEnded({ completedBefore: cutoff, limit: 2 })).toBe(0);
    for (const id of ended) {
      expect(await row(id)).toBeUndefined();
      expect(await deliveries().attemptsOf(id)).toEqual([]);
    }
    expect((await row(pending))?.status).toBe('pending');
    expect((await row(recent))?.status).toBe('failed');
  });
});
