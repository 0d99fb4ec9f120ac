import { sql } from '@corridor/db';
import type { EntityManager } from '@mikro-orm/core';
import type { Destination } from '../events/webhook-events.js';
import type { AttemptResult } from './send-webhook.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';
export type AttemptTrigger = 'scheduled' | 'replay' | 'mock';

export interface Delivery {
  id: string;
  businessId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  destination: Destination;
  body: string;
  status: DeliveryStatus;
  attemptCount: number;
  scheduledAttempts: number;
  nextAttemptAt: Date | null;
  replayRequestedAt: Date | null;
  leaseUntil: Date | null;
  mock: boolean;
  traceContext: Record<string, string>;
  eventOccurredAt: Date;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

/**
 * in_flight: started, no answer recorded yet; interrupted: its process stopped before the answer
 * was recorded (closed when its lease lapsed). The others are the answer (decision 0010).
 */
export type AttemptOutcome = 'in_flight' | 'succeeded' | 'failed' | 'interrupted';

export interface Attempt {
  number: number;
  trigger: AttemptTrigger;
  startedAt: Date;
  /** null while in flight and when interrupted: no answer ended it. */
  durationMs: number | null;
  outcome: AttemptOutcome;
  statusCode: number | null;
  errorClass: string | null;
  errorMessage: string | null;
  responseBody: string | null;
}

type Row = Record<string, unknown>;

const date = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));
const dateOrNull = (value: unknown): Date | null => (value === null || value === undefined ? null : date(value));

export function deliveryFromRow(row: Row): Delivery {
  return {
    id: String(row.id),
    businessId: String(row.business_id),
    endpointId: String(row.endpoint_id),
    eventId: String(row.event_id),
    eventType: String(row.event_type),
    destination: row.destination as Destination,
    body: String(row.body),
    status: row.status as DeliveryStatus,
    attemptCount: Number(row.attempt_count),
    scheduledAttempts: Number(row.scheduled_attempts),
    nextAttemptAt: dateOrNull(row.next_attempt_at),
    replayRequestedAt: dateOrNull(row.replay_requested_at),
    leaseUntil: dateOrNull(row.lease_until),
    mock: Boolean(row.mock),
    traceContext: (typeof row.trace_context === 'string' ? JSON.parse(row.trace_context) : row.trace_context) as Record<
      string,
      string
    >,
    eventOccurredAt: date(row.event_occurred_at),
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
    completedAt: dateOrNull(row.completed_at),
  };
}

export function attemptFromRow(row: Row): Attempt {
  return {
    number: Number(row.number),
    trigger: row.trigger as AttemptTrigger,
    startedAt: date(row.started_at),
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    outcome: row.outcome as AttemptOutcome,
    statusCode: row.status_code === null ? null : Number(row.status_code),
    errorClass: (row.error_class as string | null) ?? null,
    errorMessage: (row.error_message as string | null) ?? null,
    responseBody: (row.response_body as string | null) ?? null,
  };
}

/** Runs one statement in the entity manager's transaction, if it has one. */
/** One statement in the transaction of `em` (the shared helper of @corridor/db, by notification's name). */
export const query = (em: EntityManager, statement: string, params: unknown[] = []): Promise<Row[]> =>
  sql<Row>(em, statement, params);

export interface NewDelivery {
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

/** A delivery due at nextAttemptAt; false when the (event, registration) already has one. */
export async function insertDelivery(em: EntityManager, delivery: NewDelivery): Promise<boolean> {
  const rows = await query(
    em,
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

export interface ClaimOptions {
  now: Date;
  /** Deliveries to claim at most (the process's free attempt slots). */
  limit: number;
  /** Attempts in flight per registration at most, across every worker. */
  perEndpoint: number;
  /** How long the claim holds: longer than an attempt can take. */
  leaseMs: number;
}

/** An attempt closed `interrupted` by a claim: its process stopped before recording the answer. */
export interface InterruptedAttempt {
  deliveryId: string;
  number: number;
  trigger: AttemptTrigger;
  eventType: string;
}

/** What the attempt log says of an attempt no process answered for (issue 18). */
export const INTERRUPTED_MESSAGE = 'the delivering process stopped before an answer was recorded';

/**
 * Closes every attempt still in flight after its lease lapsed: the process making it died (or lost
 * its database) before recording the answer. The receiver may well have had the request.
 */
async function closeInterruptedAttempts(em: EntityManager, now: Date): Promise<InterruptedAttempt[]> {
  const rows = await query(
    em,
    `update webhook_attempt a set outcome = 'interrupted', error_class = 'interrupted', error_message = ?,
       lease_until = null
     from webhook_delivery d
     where d.id = a.delivery_id and a.outcome = 'in_flight' and a.lease_until < ?
     returning a.delivery_id, a.number, a.trigger, d.event_type`,
    [INTERRUPTED_MESSAGE, now],
  );
  return rows.map((row) => ({
    deliveryId: String(row.delivery_id),
    number: Number(row.number),
    trigger: row.trigger as AttemptTrigger,
    eventType: String(row.event_type),
  }));
}

export interface Claim {
  deliveries: Delivery[];
  /** Attempts closed because their lease lapsed, before any of their deliveries was claimed again. */
  interrupted: InterruptedAttempt[];
}

/**
 * Claims due deliveries (scheduled ones whose time has come, and queued replays) for one worker.
 * SKIP LOCKED lets workers claim side by side without waiting on each other; the lease keeps the row
 * theirs while they attempt, and lapses if they die, so the attempt is made again (at least once).
 * A worker's attempt holds the same lease as its delivery, so in the same transaction the attempt a
 * dead worker left open is closed `interrupted` before its delivery can be claimed again.
 * A registration with perEndpoint attempts in flight is passed over: its hanging receiver cannot
 * take the slots other businesses' deliveries need.
 */
export async function claimDue(em: EntityManager, options: ClaimOptions): Promise<Claim> {
  const { now, limit, perEndpoint, leaseMs } = options;
  return em.transactional(async (tx) => {
    const interrupted = await closeInterruptedAttempts(tx, now);
    // in_flight reads the small partial index of leased rows once; the due rows come in due order
    // from the partial index of pending ones, registrations at their cap left out before the limit.
    const rows = await query(
      tx,
      `with in_flight as (
         select endpoint_id, count(*) as n from webhook_delivery
         where lease_until is not null and lease_until >= ? group by endpoint_id
       ),
       due as (
         select d.id, d.endpoint_id, d.next_attempt_at as due_at
         from webhook_delivery d
         where d.status = 'pending' and d.next_attempt_at <= ?
           and (d.lease_until is null or d.lease_until < ?)
           and d.endpoint_id not in (select endpoint_id from in_flight where n >= ?)
         order by d.next_attempt_at
         limit ?
         for update of d skip locked
       ),
       replays as (
         select d.id, d.endpoint_id, d.replay_requested_at as due_at
         from webhook_delivery d
         where d.replay_requested_at is not null and (d.lease_until is null or d.lease_until < ?)
           and d.endpoint_id not in (select endpoint_id from in_flight where n >= ?)
         order by d.replay_requested_at
         limit ?
         for update of d skip locked
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
       )
       update webhook_delivery d set lease_until = ?
       from chosen where d.id = chosen.id
       returning d.*`,
      [
        now,
        now,
        now,
        perEndpoint,
        limit * 4,
        now,
        perEndpoint,
        limit,
        perEndpoint,
        limit,
        new Date(now.getTime() + leaseMs),
      ],
    );
    return { deliveries: rows.map(deliveryFromRow), interrupted };
  });
}

export interface AttemptStart {
  trigger: AttemptTrigger;
  startedAt: Date;
  /** When the attempt is known dead if still open: the worker's lease on the delivery, or a replay's own. */
  leaseUntil: Date;
}

/**
 * Records an attempt as it starts, before the request goes out (issue 18): whatever happens to the
 * process next, the log shows the request the receiver may have had. Numbered in the order made.
 */
export async function startAttempt(em: EntityManager, deliveryId: string, start: AttemptStart): Promise<Attempt> {
  return em.transactional(async (tx) => {
    const [row] = await query(
      tx,
      `update webhook_delivery set attempt_count = attempt_count + 1, updated_at = ? where id = ?
       returning attempt_count`,
      [start.startedAt, deliveryId],
    );
    if (!row) throw new Error(`delivery ${deliveryId} no longer exists`);
    const [attemptRow] = await query(
      tx,
      `insert into webhook_attempt (id, delivery_id, number, trigger, started_at, outcome, lease_until)
       values (gen_random_uuid(), ?, ?, ?, ?, 'in_flight', ?)
       returning *`,
      [deliveryId, Number(row.attempt_count), start.trigger, start.startedAt, start.leaseUntil],
    );
    if (!attemptRow) throw new Error(`attempt of delivery ${deliveryId} was not recorded`);
    return attemptFromRow(attemptRow);
  });
}

export interface AttemptEnd {
  trigger: AttemptTrigger;
  result: AttemptResult;
  /** For a scheduled attempt that failed: when the next is due, or null when it was the last. */
  nextAttemptAt?: Date | null;
  now: Date;
}

/**
 * Completes a started attempt with its answer and moves the delivery on, in one transaction: a
 * success ends it `succeeded`; a scheduled failure reschedules it or, after the last, ends it
 * `failed` (as a mock's one failure does); a replay's failure changes nothing else. An attempt a
 * claim already closed `interrupted` (its lease lapsed while this process was slow) gets its real
 * answer. Returns the attempt and the delivery as it now is.
 */
export async function finishAttempt(
  em: EntityManager,
  deliveryId: string,
  number: number,
  end: AttemptEnd,
): Promise<{ delivery: Delivery; attempt: Attempt }> {
  const { trigger, result, now } = end;
  const succeeded = result.outcome === 'succeeded';
  const scheduled = trigger === 'scheduled';
  // A scheduled or mock failure may end the delivery; a replay's never does.
  const failureCounts = trigger !== 'replay' && !succeeded;
  return em.transactional(async (tx) => {
    const [row] = await query(
      tx,
      `update webhook_delivery set
         scheduled_attempts = scheduled_attempts + ?,
         status = case
           when ? then 'succeeded'
           when ? and ?::timestamptz is null then 'failed'
           else status end,
         next_attempt_at = case
           when ? then null
           when ? then ?::timestamptz
           else next_attempt_at end,
         replay_requested_at = case when ? = 'replay' then null else replay_requested_at end,
         lease_until = null,
         completed_at = case
           when ? or (? and ?::timestamptz is null) then ?::timestamptz
           else completed_at end,
         updated_at = ?
       where id = ?
       returning *`,
      [
        scheduled ? 1 : 0,
        succeeded,
        failureCounts,
        end.nextAttemptAt ?? null,
        succeeded,
        scheduled,
        end.nextAttemptAt ?? null,
        trigger,
        succeeded,
        failureCounts,
        end.nextAttemptAt ?? null,
        now,
        now,
        deliveryId,
      ],
    );
    if (!row) throw new Error(`delivery ${deliveryId} no longer exists`);
    const [attemptRow] = await query(
      tx,
      `update webhook_attempt set outcome = ?, duration_ms = ?, status_code = ?, error_class = ?, error_message = ?,
         response_body = ?, lease_until = null
       where delivery_id = ? and number = ?
       returning *`,
      [
        result.outcome,
        result.durationMs,
        result.statusCode,
        result.errorClass,
        result.errorMessage,
        result.responseBody,
        deliveryId,
        number,
      ],
    );
    if (!attemptRow) throw new Error(`attempt ${number} of delivery ${deliveryId} no longer exists`);
    return { delivery: deliveryFromRow(row), attempt: attemptFromRow(attemptRow) };
  });
}

/** An attempt already answered, started and completed at once (the mock's, sent before it is stored). */
export async function recordAttempt(
  em: EntityManager,
  deliveryId: string,
  end: AttemptEnd,
): Promise<{ delivery: Delivery; attempt: Attempt }> {
  return em.transactional(async (tx) => {
    const started = await startAttempt(tx, deliveryId, {
      trigger: end.trigger,
      startedAt: end.result.startedAt,
      leaseUntil: end.now,
    });
    return finishAttempt(tx, deliveryId, started.number, end);
  });
}

/** Hands a claimed delivery back untouched (the process is stopping before its attempt began). */
export async function releaseLease(em: EntityManager, deliveryId: string): Promise<void> {
  await query(em, `update webhook_delivery set lease_until = null where id = ?`, [deliveryId]);
}

export async function attemptsOf(em: EntityManager, deliveryId: string): Promise<Attempt[]> {
  const rows = await query(em, `select * from webhook_attempt where delivery_id = ? order by number`, [deliveryId]);
  return rows.map(attemptFromRow);
}
