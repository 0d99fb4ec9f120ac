import { sql } from '@corridor/db';
import { cappedCountSql, keysetPage, numberedPageSql, type KeysetRead, type NumberedRead } from '@corridor/pagination';
import type { EntityManager } from '@mikro-orm/core';
import type { Destination } from '../events/webhook-events.js';
import { attemptOf, claimedDeliveryOf, deliveryOf, interruptedAttemptOf, type Row } from './delivery-rows.js';
import {
  changeAfterAttempt,
  INTERRUPTED_MESSAGE,
  type Attempt,
  type AttemptTrigger,
  type ClaimedDelivery,
  type Delivery,
  type DeliveryStatus,
  type InterruptedAttempt,
} from './delivery.js';
import type { AttemptResult } from './send-webhook.js';

/** Where a listener is (decision 0034): after the row (created_xid, id). */
export interface ListenPosition {
  /** A transaction id (xid8) as decimal text. */
  xid: string;
  id: string;
}

/** The id that sorts before every uuid: a position before every row of its transaction. */
export const LISTEN_ID_BEFORE_ALL = '00000000-0000-0000-0000-000000000000';

interface NewDelivery {
  id: string;
  businessId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  destination: Destination;
  body: string;
  /** null: attempted by the caller, never by the schedule (a mock). */
  nextAttemptAt: Date | null;
  mock?: boolean;
  traceContext: Record<string, string>;
  eventOccurredAt: Date;
  now: Date;
}

/** An event's delivery to whatever registration its business has when it is written. */
export interface EventDelivery extends Omit<NewDelivery, 'endpointId' | 'destination' | 'nextAttemptAt' | 'mock'> {
  /** Where it goes for a registration with a kyc_url, and without one; undefined: not delivered there. */
  destinationWithKyc: Destination | undefined;
  destinationWithoutKyc: Destination | undefined;
  nextAttemptAt: Date;
}

interface ClaimRequest {
  now: Date;
  /**
   * Which pending deliveries are due, over `d` (BusinessClock.due: each by its business's time,
   * decision 0069); without it, those whose next attempt is at or before `now`.
   */
  due?: { sql: string; params: unknown[] };
  /** Deliveries to claim at most (the process's free attempt slots). */
  limit: number;
  /** Attempts in flight per registration at most, across every worker. */
  perEndpoint: number;
  /** How long the claim holds: longer than an attempt can take. */
  leaseMs: number;
}

interface Claim {
  deliveries: ClaimedDelivery[];
  /** Attempts closed because their lease lapsed, before any of their deliveries was claimed again. */
  interrupted: InterruptedAttempt[];
}

interface AttemptStart {
  deliveryId: string;
  trigger: AttemptTrigger;
  startedAt: Date;
  /** When the attempt is known dead if still open: the worker's lease on the delivery, or a replay's own. */
  leaseUntil: Date;
}

export interface AttemptAnswer {
  deliveryId: string;
  trigger: AttemptTrigger;
  result: AttemptResult;
  /** For a scheduled attempt that failed: when the next is due, or null when it was the last. */
  nextAttemptAt?: Date | null;
  now: Date;
}

/** The deliveries GET /webhook/deliveries shows: one business's, narrowed by what the request names. */
export interface DeliveryFilter {
  businessId: string;
  status?: DeliveryStatus;
  eventType?: string;
  createdFrom?: Date;
  createdBefore?: Date;
}

/** The replays POST /webhook/deliveries/replay queues: failed deliveries created in [from, before). */
interface ReplayRequest {
  businessId: string;
  createdFrom: Date;
  createdBefore?: Date;
  limit: number;
  now: Date;
}

/** A filter as a where clause and its parameters. */
function filterSql(filter: DeliveryFilter): { where: string; params: unknown[] } {
  const conditions: [string, unknown][] = [['business_id = ?', filter.businessId]];
  if (filter.status !== undefined) conditions.push(['status = ?', filter.status]);
  if (filter.eventType !== undefined) conditions.push(['event_type = ?', filter.eventType]);
  if (filter.createdFrom) conditions.push(['created_at >= ?', filter.createdFrom]);
  if (filter.createdBefore) conditions.push(['created_at < ?', filter.createdBefore]);
  return {
    where: conditions.map(([condition]) => condition).join(' and '),
    params: conditions.map(([, value]) => value),
  };
}

/**
 * Every statement on webhook_delivery and webhook_attempt (decision 0010), in the transaction of
 * the entity manager it is made with, if that has one.
 */
export class DeliveryRepository {
  constructor(private readonly em: EntityManager) {}

  private rows(statement: string, params: unknown[] = []): Promise<Row[]> {
    return sql<Row>(this.em, statement, params);
  }

  /** A delivery due at nextAttemptAt; false when the (event, registration) already has one. */
  async insert(delivery: NewDelivery): Promise<boolean> {
    const rows = await this.rows(
      `insert into webhook_delivery (id, business_id, endpoint_id, event_id, event_type, destination, body, status,
         next_attempt_at, mock, trace_context, event_occurred_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?)
       on conflict on constraint webhook_delivery_once do nothing
       returning id`,
      [
        delivery.id,
        delivery.businessId,
        delivery.endpointId,
        delivery.eventId,
        delivery.eventType,
        delivery.destination,
        delivery.body,
        delivery.nextAttemptAt,
        delivery.mock ?? false,
        JSON.stringify(delivery.traceContext),
        delivery.eventOccurredAt,
        delivery.now,
        delivery.now,
      ],
    );
    return rows.length > 0;
  }

  /**
   * One delivery per event to its business's registration, if it has one, in one statement (issue 35,
   * decision 0041: a consumer chunk's deliveries together, the registrations read by the same join).
   * Each event names its destination for a registration with and without a kyc_url; none: no delivery
   * (seed 6.2). An (event, registration) that already has a delivery is left out. Each carries its
   * event's number from the history (decision 0067), recorded just before in the same transaction.
   * One for a disabled URL is held: recorded, not due, saying why (decision 0068).
   */
  async insertForRegistrations(deliveries: readonly EventDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.rows(
      `insert into webhook_delivery (id, business_id, endpoint_id, event_id, event_type, destination, body, status,
         next_attempt_at, trace_context, event_occurred_at, created_at, updated_at, sequence, skipped_reason)
       select d.id, d.business_id, e.id, d.event_id, d.event_type, t.destination,
         d.body, 'pending', case when u.disabled_at is null then d.next_attempt_at end, d.trace_context,
         d.event_occurred_at, d.created_at, d.created_at, h.sequence,
         case when u.disabled_at is not null then 'endpoint_disabled' end
       from json_to_recordset(?::json) as d(id uuid, business_id uuid, event_id uuid, event_type text,
         destination_with_kyc text, destination_without_kyc text, body text, next_attempt_at timestamptz,
         trace_context jsonb, event_occurred_at timestamptz, created_at timestamptz)
       join webhook_endpoint e on e.business_id = d.business_id
       cross join lateral (select case when e.kyc_url is null then d.destination_without_kyc
         else d.destination_with_kyc end as destination) t
       left join webhook_event h on h.id = d.event_id
       left join webhook_url_health u on u.endpoint_id = e.id and u.url_kind = t.destination
       where t.destination is not null
       on conflict on constraint webhook_delivery_once do nothing`,
      [
        JSON.stringify(
          deliveries.map((delivery) => ({
            id: delivery.id,
            business_id: delivery.businessId,
            event_id: delivery.eventId,
            event_type: delivery.eventType,
            destination_with_kyc: delivery.destinationWithKyc ?? null,
            destination_without_kyc: delivery.destinationWithoutKyc ?? null,
            body: delivery.body,
            next_attempt_at: delivery.nextAttemptAt,
            trace_context: delivery.traceContext,
            event_occurred_at: delivery.eventOccurredAt,
            created_at: delivery.now,
          })),
        ),
      ],
    );
  }

  /**
   * Claims due deliveries (scheduled ones whose time has come, and queued replays) for one worker and
   * records each one's attempt as started, in one statement (issue 35: no transaction, one round trip
   * per batch). SKIP LOCKED lets workers claim side by side without waiting on each other; the lease
   * keeps the row theirs while they attempt, and lapses if they die, so the attempt is made again (at
   * least once). The attempt holds the same lease as its delivery, so the same statement first closes
   * `interrupted` the attempts whose lease lapsed: a dead worker's attempt is closed before its delivery
   * is claimed again. A registration with perEndpoint attempts in flight is passed over: its hanging
   * receiver cannot take the slots other businesses' deliveries need.
   */
  async claimDue({
    now,
    due = { sql: 'd.next_attempt_at <= ?', params: [now] },
    limit,
    perEndpoint,
    leaseMs,
  }: ClaimRequest): Promise<Claim> {
    const leaseUntil = new Date(now.getTime() + leaseMs);
    // in_flight reads the small partial index of leased rows once; the due rows come in due order
    // from the partial index of pending ones, registrations at their cap left out before the limit.
    // The outer left join answers one row even when nothing is claimed, to carry the interrupted ones.
    const rows = await this.rows(
      `with interrupted as (
         update webhook_attempt a set outcome = 'interrupted', error_class = 'interrupted', error_message = ?,
           lease_until = null
         from webhook_delivery d
         where d.id = a.delivery_id and a.outcome = 'in_flight' and a.lease_until < ?
         returning a.delivery_id, a.number, a.trigger, d.event_type
       ),
       in_flight as (
         select endpoint_id, count(*) as n from webhook_delivery
         where lease_until is not null and lease_until >= ? group by endpoint_id
       ),
       due as (
         select d.id, d.endpoint_id, d.next_attempt_at as due_at
         from webhook_delivery d
         where d.status = 'pending' and ${due.sql}
           and (d.lease_until is null or d.lease_until < ?)
           and d.endpoint_id not in (select endpoint_id from in_flight where n >= ?)
         order by d.next_attempt_at
         limit ?
       ),
       replays as (
         select d.id, d.endpoint_id, d.replay_requested_at as due_at
         from webhook_delivery d
         where d.replay_requested_at is not null and (d.lease_until is null or d.lease_until < ?)
           and d.endpoint_id not in (select endpoint_id from in_flight where n >= ?)
         order by d.replay_requested_at
         limit ?
       ),
       chosen as (
         select id from (
           select c.id, c.due_at, row_number() over (partition by c.endpoint_id order by c.due_at) as rank,
             coalesce((select n from in_flight where in_flight.endpoint_id = c.endpoint_id), 0) as busy
           from (select * from due union all select * from replays) c
         ) ranked
         where rank + busy <= ?
         order by due_at
         limit ?
       ),
       -- Only the chosen rows are locked (each lock is a write); one another worker took since this
       -- statement's snapshot is skipped, or rechecked on its new version and left out.
       locked as (
         select d.id from webhook_delivery d
         where d.id in (select id from chosen) and (d.lease_until is null or d.lease_until < ?)
         for update skip locked
       ),
       claimed as (
         update webhook_delivery d set lease_until = ?, attempt_count = attempt_count + 1, updated_at = ?
         from locked where d.id = locked.id
         returning d.*
       ),
       started as (
         insert into webhook_attempt (id, delivery_id, number, trigger, started_at, outcome, lease_until)
         select gen_random_uuid(), id, attempt_count,
           case when replay_requested_at is null then 'scheduled' else 'replay' end, ?, 'in_flight', ?
         from claimed
         returning delivery_id, number, trigger
       )
       select i.interrupted, c.*, s.number as attempt_number, s.trigger as attempt_trigger,
         e.collection_url, e.payout_url, e.kyc_url, e.signing_secret_sealed,
         e.previous_signing_secret_sealed, e.previous_signing_secret_expires_at,
         coalesce((select k.offset_ms from sandbox_clock k where k.business_id = c.business_id), 0) as clock_offset_ms
       from (select json_agg(interrupted) as interrupted from interrupted) i
       left join (claimed c join started s on s.delivery_id = c.id join webhook_endpoint e on e.id = c.endpoint_id)
         on true`,
      // Placeholders in order: interrupted; in_flight; due; replays; chosen; locked; claimed; started.
      [
        INTERRUPTED_MESSAGE,
        now,
        now,
        ...due.params,
        now,
        perEndpoint,
        limit * 4,
        now,
        perEndpoint,
        limit,
        perEndpoint,
        limit,
        now,
        leaseUntil,
        now,
        now,
        leaseUntil,
      ],
    );
    const interrupted = (rows[0]?.interrupted ?? []) as Row[];
    return {
      deliveries: rows.filter((row) => row.id !== null).map(claimedDeliveryOf),
      interrupted: interrupted.map(interruptedAttemptOf),
    };
  }

  /**
   * Records an attempt as it starts, before the request goes out (issue 18): whatever happens to the
   * process next, the log shows the request the receiver may have had. Numbered in the order made.
   * One statement, so one round trip and no transaction around it (issue 14: a delivery's round
   * trips were most of its cost).
   */
  async startAttempt({ deliveryId, trigger, startedAt, leaseUntil }: AttemptStart): Promise<Attempt> {
    const [row] = await this.rows(
      `with counted as (
         update webhook_delivery set attempt_count = attempt_count + 1, updated_at = ? where id = ?
         returning attempt_count
       )
       insert into webhook_attempt (id, delivery_id, number, trigger, started_at, outcome, lease_until)
       select gen_random_uuid(), ?, attempt_count, ?, ?, 'in_flight', ? from counted
       returning *`,
      [startedAt, deliveryId, deliveryId, trigger, startedAt, leaseUntil],
    );
    if (!row) throw new Error(`delivery ${deliveryId} no longer exists`);
    return attemptOf(row);
  }

  /** One started attempt completed with its answer: finishAttempts of one. */
  async finishAttempt(answer: AttemptAnswer & { number: number }): Promise<{ delivery: Delivery; attempt: Attempt }> {
    const [recorded] = await this.finishAttempts([answer]);
    if (!recorded) throw new Error(`delivery ${answer.deliveryId} no longer exists`);
    return recorded;
  }

  /**
   * Completes each started attempt `number` with its answer and moves its delivery on as
   * changeAfterAttempt says, all in one statement (issue 35: a worker records a batch of answers per
   * round trip). An attempt a claim already closed `interrupted` (its lease lapsed while this process
   * was slow) gets its real answer. Returns each as it now is; a delivery deleted since is left out.
   */
  async finishAttempts(
    answers: readonly (AttemptAnswer & { number: number })[],
  ): Promise<{ delivery: Delivery; attempt: Attempt }[]> {
    if (answers.length === 0) return [];
    const changes = answers.map(({ deliveryId, number, trigger, result, nextAttemptAt, now }) => {
      const change = changeAfterAttempt(trigger, result.outcome === 'succeeded', nextAttemptAt ?? null);
      return {
        delivery_id: deliveryId,
        number,
        spends: change.spendsScheduled ? 1 : 0,
        ends_as: change.endsAs ?? null,
        reschedules: change.nextAttemptAt !== undefined,
        next_attempt_at: change.nextAttemptAt ?? null,
        replay_done: change.replayDone,
        answered_at: now,
        outcome: result.outcome,
        duration_ms: result.durationMs,
        status_code: result.statusCode,
        error_class: result.errorClass,
        error_message: result.errorMessage,
        response_body: result.responseBody,
      };
    });
    const ids = `{${answers.map(({ deliveryId }) => deliveryId).join(',')}}`;
    const rows = await this.rows(
      `with answer as (
         select * from json_to_recordset(?::json) as a(delivery_id uuid, number integer, spends integer,
           ends_as text, reschedules boolean, next_attempt_at timestamptz, replay_done boolean,
           answered_at timestamptz, outcome text, duration_ms integer,
           status_code integer, error_class text, error_message text, response_body text)
       ),
       delivery as (
         update webhook_delivery d set
           scheduled_attempts = d.scheduled_attempts + a.spends,
           status = coalesce(a.ends_as, d.status),
           next_attempt_at = case when a.reschedules then a.next_attempt_at else d.next_attempt_at end,
           replay_requested_at = case when a.replay_done then null else d.replay_requested_at end,
           lease_until = null,
           completed_at = case when a.ends_as is null then d.completed_at else a.answered_at end,
           updated_at = a.answered_at
         from answer a where d.id = a.delivery_id and d.id = any(?::uuid[])
         returning d.*
       ),
       attempt as (
         update webhook_attempt t set outcome = a.outcome, duration_ms = a.duration_ms,
           status_code = a.status_code, error_class = a.error_class, error_message = a.error_message,
           response_body = a.response_body, lease_until = null
         from answer a where t.delivery_id = a.delivery_id and t.number = a.number and t.delivery_id = any(?::uuid[])
         returning t.*
       )
       select row_to_json(d) as delivery, row_to_json(t) as attempt
       from delivery d left join attempt t on t.delivery_id = d.id`,
      // The ids again as arrays: the planner then reads both tables by index, where a join with the
      // function's rows alone (estimated at 100) would scan a small table whole.
      [JSON.stringify(changes), ids, ids],
    );
    return rows.map((row) => {
      if (!row.attempt) throw new Error(`an attempt of delivery ${String((row.delivery as Row).id)} no longer exists`);
      return { delivery: deliveryOf(row.delivery as Row), attempt: attemptOf(row.attempt as Row) };
    });
  }

  /** An attempt already answered, started and completed at once (the mock's, sent before it is stored). */
  recordAttempt(answer: AttemptAnswer): Promise<{ delivery: Delivery; attempt: Attempt }> {
    return this.em.transactional(async (tx) => {
      const repository = new DeliveryRepository(tx);
      const started = await repository.startAttempt({
        deliveryId: answer.deliveryId,
        trigger: answer.trigger,
        startedAt: answer.result.startedAt,
        leaseUntil: answer.now,
      });
      return repository.finishAttempt({ ...answer, number: started.number });
    });
  }

  /**
   * Up to `limit` of the business's deliveries after `after` in listen order (decision 0034): by the
   * transaction that made them, then id, and only those of transactions older than every one still
   * running (the snapshot's xmin). A row of a transaction still open can never end up behind a
   * position already handed out, however late it commits.
   */
  async listenAfter({
    businessId,
    after,
    limit,
  }: {
    businessId: string;
    after: ListenPosition;
    limit: number;
  }): Promise<{ delivery: Delivery; position: ListenPosition }[]> {
    const rows = await this.rows(
      `select *, created_xid::text as listen_xid from webhook_delivery
       where business_id = ? and (created_xid, id) > (?::xid8, ?::uuid)
         and created_xid < pg_snapshot_xmin(pg_current_snapshot())
       order by created_xid, id
       limit ?`,
      [businessId, after.xid, after.id, limit],
    );
    return rows.map((row) => ({
      delivery: deliveryOf(row),
      position: { xid: String(row.listen_xid), id: String(row.id) },
    }));
  }

  /** The position before anything not yet visible to every transaction: where a new listener starts. */
  async listenStart(): Promise<ListenPosition> {
    const [row] = await this.rows(`select pg_snapshot_xmin(pg_current_snapshot())::text as xid`);
    return { xid: String(row?.xid), id: LISTEN_ID_BEFORE_ALL };
  }

  /**
   * A copy's answer as `corridor listen` reported it (decision 0034): one more numbered attempt,
   * already finished, trigger `listen`. Nothing else of the delivery changes (status, schedule,
   * lease), so the attempts to the registered URL go on as if no one listened. undefined when the
   * business has no such delivery.
   */
  async recordListenAttempt(input: {
    businessId: string;
    deliveryId: string;
    startedAt: Date;
    result: Omit<AttemptResult, 'startedAt'>;
    now: Date;
  }): Promise<Attempt | undefined> {
    const { result } = input;
    const [row] = await this.rows(
      `with counted as (
         update webhook_delivery set attempt_count = attempt_count + 1, updated_at = ?
         where id = ? and business_id = ?
         returning attempt_count
       )
       insert into webhook_attempt (id, delivery_id, number, trigger, started_at, duration_ms, outcome, status_code,
         error_class, error_message, response_body)
       select gen_random_uuid(), ?, attempt_count, 'listen', ?, ?, ?, ?, ?, ?, ? from counted
       returning *`,
      [
        input.now,
        input.deliveryId,
        input.businessId,
        input.deliveryId,
        input.startedAt,
        result.durationMs,
        result.outcome,
        result.statusCode,
        result.errorClass,
        result.errorMessage,
        result.responseBody,
      ],
    );
    return row ? attemptOf(row) : undefined;
  }

  /** The attempt log of a delivery, oldest first. */
  async attemptsOf(deliveryId: string): Promise<Attempt[]> {
    const rows = await this.rows(`select * from webhook_attempt where delivery_id = ? order by number`, [deliveryId]);
    return rows.map(attemptOf);
  }

  /** The business's delivery with this id; undefined for another business's too. */
  async findDelivery({
    businessId,
    deliveryId,
  }: {
    businessId: string;
    deliveryId: string;
  }): Promise<Delivery | undefined> {
    const [row] = await this.rows(`select * from webhook_delivery where id = ? and business_id = ?`, [
      deliveryId,
      businessId,
    ]);
    return row ? deliveryOf(row) : undefined;
  }

  /** A cursor page of the filter's deliveries, newest first (decision 0018). */
  async listDeliveries({ filter, read }: { filter: DeliveryFilter; read: KeysetRead }) {
    const { where, params } = filterSql(filter);
    const seek = read.seek ? ` and ${read.seek}` : '';
    const rows = await this.rows(
      `select * from webhook_delivery where ${where}${seek} order by ${read.order} limit ?`,
      [...params, ...read.seekParams, read.limit + 1],
    );
    return keysetPage(rows.map(deliveryOf), read, ({ createdAt, id }) => ({ createdAt, id }));
  }

  /** A numbered page of the filter's deliveries, newest first, and their count up to its cap (decision 0018). */
  async listNumbered({ filter, read }: { filter: DeliveryFilter; read: NumberedRead }) {
    const { where, params } = filterSql(filter);
    const [[counted], rows] = await Promise.all([
      this.rows(cappedCountSql('webhook_delivery', where), params),
      this.rows(numberedPageSql('webhook_delivery', where, 'created_at desc, id desc'), [
        ...params,
        read.perPage,
        read.offset,
      ]),
    ]);
    return { deliveries: rows.map(deliveryOf), counted: Number(counted?.counted ?? 0) };
  }

  /** Queues one more attempt of each failed delivery not queued yet, oldest first; returns how many. */
  async queueFailedForReplay({ businessId, createdFrom, createdBefore, limit, now }: ReplayRequest): Promise<number> {
    const rows = await this.rows(
      `update webhook_delivery set replay_requested_at = ?, updated_at = ?
       where id in (
         select id from webhook_delivery
         where business_id = ? and status = 'failed' and replay_requested_at is null
           and created_at >= ? ${createdBefore ? 'and created_at < ?' : ''}
         order by created_at
         limit ?
       )
       returning id`,
      [now, now, businessId, createdFrom, ...(createdBefore ? [createdBefore] : []), limit],
    );
    return rows.length;
  }

  /** Deliveries still to be delivered, across every business (a gauge). */
  async countPending(): Promise<number> {
    const [row] = await this.rows(`select count(*)::int as pending from webhook_delivery where status = 'pending'`);
    return Number(row?.pending ?? 0);
  }

  /** Deletes up to `limit` ended deliveries completed before `completedBefore`, attempts with them; returns how many. */
  async deleteEnded({ completedBefore, limit }: { completedBefore: Date; limit: number }): Promise<number> {
    const rows = await this.rows(
      `delete from webhook_delivery where id in (
         select id from webhook_delivery where status <> 'pending' and completed_at < ? limit ?
       ) returning id`,
      [completedBefore, limit],
    );
    return rows.length;
  }
}
