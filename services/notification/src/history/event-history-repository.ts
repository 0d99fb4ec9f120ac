import { dateOf, sql } from '@corridor/db';
import { keysetPage, type KeysetRead } from '@corridor/pagination';
import type { EntityManager } from '@mikro-orm/core';

/** One event of a business's history (decision 0066). */
export interface HistoryEvent {
  id: string;
  businessId: string;
  /** Its number in the business's sequence (decision 0067). */
  sequence: number;
  eventType: string;
  /** The exact body its webhooks carried or would carry. */
  body: string;
  occurredAt: Date;
  createdAt: Date;
}

/** An event as the consumer hands it to the history, before it has a number. */
export type NewHistoryEvent = Omit<HistoryEvent, 'sequence'>;

/** The events GET /event lists: one business's, narrowed by what the request names. */
export interface HistoryFilter {
  businessId: string;
  eventType?: string;
  createdFrom?: Date;
  createdBefore?: Date;
  /** An event type left out (the notice a caller cannot name). */
  withoutType?: string;
}

type Row = Record<string, unknown>;

function historyEventOf(row: Row): HistoryEvent {
  return {
    id: String(row.id),
    businessId: String(row.business_id),
    sequence: Number(row.sequence),
    eventType: String(row.event_type),
    body: String(row.body),
    occurredAt: dateOf(row.occurred_at),
    createdAt: dateOf(row.created_at),
  };
}

/** Every statement on webhook_event and webhook_event_sequence, in the entity manager's transaction if it has one. */
export class EventHistoryRepository {
  constructor(private readonly em: EntityManager) {}

  private rows(statement: string, params: unknown[] = []): Promise<Row[]> {
    return sql<Row>(this.em, statement, params);
  }

  /**
   * Records the events not in the history yet, each numbered next in its business's sequence, in one
   * statement (decision 0067). The counter rows are taken in business order (no deadlock between two
   * chunks naming the same businesses) and stay locked until the transaction ends: a transaction
   * numbering the same business waits, and numbers after this one's commit. An event already recorded
   * (a redelivery) takes no number; two copies of one event numbered at once meet on the primary key
   * and the second transaction fails, so a number is never spent without its event.
   */
  async record(events: readonly NewHistoryEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.rows(
      `with incoming as (
         select * from json_to_recordset(?::json) as e(position int, id uuid, business_id uuid, event_type text,
           body text, occurred_at timestamptz, created_at timestamptz)
       ),
       fresh as (
         select i.* from incoming i where not exists (select 1 from webhook_event w where w.id = i.id)
       ),
       numbered as (
         select f.*, row_number() over (partition by f.business_id order by f.position) as n,
           count(*) over (partition by f.business_id) as taken
         from fresh f
       ),
       counters as (
         insert into webhook_event_sequence (business_id, last_sequence)
         select business_id, count(*) from fresh group by business_id order by business_id
         on conflict (business_id) do update set last_sequence = webhook_event_sequence.last_sequence + excluded.last_sequence
         returning business_id, last_sequence
       )
       insert into webhook_event (id, business_id, sequence, event_type, body, occurred_at, created_at)
       select n.id, n.business_id, c.last_sequence - n.taken + n.n, n.event_type, n.body, n.occurred_at, n.created_at
       from numbered n join counters c on c.business_id = n.business_id`,
      [
        JSON.stringify(
          events.map((event, position) => ({
            position,
            id: event.id,
            business_id: event.businessId,
            event_type: event.eventType,
            body: event.body,
            occurred_at: event.occurredAt,
            created_at: event.createdAt,
          })),
        ),
      ],
    );
  }

  /** The business's event with this id; undefined for another business's too. */
  async find({
    businessId,
    eventId,
    withoutType,
  }: Pick<HistoryFilter, 'businessId' | 'withoutType'> & { eventId: string }): Promise<HistoryEvent | undefined> {
    const [row] = await this.rows(`select * from webhook_event where id = ? and business_id = ?`, [
      eventId,
      businessId,
    ]);
    if (row && row.event_type === withoutType) return undefined;
    return row ? historyEventOf(row) : undefined;
  }

  /** A cursor page of the filter's events, newest first (decision 0018). */
  async list({ filter, read }: { filter: HistoryFilter; read: KeysetRead }) {
    const conditions: [string, unknown][] = [['business_id = ?', filter.businessId]];
    if (filter.eventType !== undefined) conditions.push(['event_type = ?', filter.eventType]);
    if (filter.createdFrom) conditions.push(['created_at >= ?', filter.createdFrom]);
    if (filter.createdBefore) conditions.push(['created_at < ?', filter.createdBefore]);
    if (filter.withoutType !== undefined) conditions.push(['event_type <> ?', filter.withoutType]);
    const where = conditions.map(([condition]) => condition).join(' and ');
    const seek = read.seek ? ` and ${read.seek}` : '';
    const rows = await this.rows(`select * from webhook_event where ${where}${seek} order by ${read.order} limit ?`, [
      ...conditions.map(([, value]) => value),
      ...read.seekParams,
      read.limit + 1,
    ]);
    return keysetPage(rows.map(historyEventOf), read, ({ createdAt, id }) => ({ createdAt, id }));
  }

  /** Deletes up to `limit` events recorded before `createdBefore`, oldest first; returns how many (decision 0066). */
  async deleteOlder({ createdBefore, limit }: { createdBefore: Date; limit: number }): Promise<number> {
    const rows = await this.rows(
      `delete from webhook_event where id in (
         select id from webhook_event where created_at < ? order by created_at limit ?
       ) returning id`,
      [createdBefore, limit],
    );
    return rows.length;
  }
}
