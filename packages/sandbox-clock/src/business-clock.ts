import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { SandboxClockSchema, type SandboxClock } from '@corridor/contracts/corridor/clock/v1/sandbox_clock_pb';
import { dateOf, sql } from '@corridor/db';
import type { EntityManager } from '@mikro-orm/core';

export type Environment = 'sandbox' | 'production';

/**
 * The sandbox_clock table of every service that judges a business's deadlines (decision 0069): in
 * payments the clock itself, elsewhere its copy. One row per business that was given a clock.
 */
export const sandboxClockSchemaSql: readonly string[] = [
  `create table sandbox_clock (
    business_id uuid primary key,
    offset_ms bigint not null check (offset_ms >= 0),
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`,
];

export const sandboxClockSchemaDownSql: readonly string[] = [`drop table sandbox_clock`];

/** A year: the most one advance moves a clock (a typo of a few zeros is refused, not obeyed). */
export const MAX_ADVANCE_SECONDS = 31_536_000;

interface ClockRow {
  business_id: string;
  offset_ms: string | number;
  created_at: unknown;
  updated_at: unknown;
}

/**
 * Each business's time: real time plus its sandbox clock's offset, which only grows (decision 0069).
 * In production there are no clocks: every answer is real time, without a read.
 */
export class BusinessClock {
  constructor(
    private readonly realNow: () => Date,
    readonly environment: Environment,
  ) {}

  /** Real time, for what belongs to no business (retention, leases of a batch). */
  real(): Date {
    return this.realNow();
  }

  /** The business's time now: what every deadline of the business is set from and judged against. */
  async now(em: EntityManager, businessId: string): Promise<Date> {
    const real = this.realNow();
    if (this.environment === 'production') return real;
    const [row] = await sql<Pick<ClockRow, 'offset_ms'>>(
      em,
      'select offset_ms from sandbox_clock where business_id = ?',
      [businessId],
    );
    return row ? new Date(real.getTime() + Number(row.offset_ms)) : real;
  }

  /**
   * A sweep's condition that `row.column` has come by its business's time (`row.business_id`; `row` is
   * the table or its alias, named so the clock's own business_id cannot be taken for it), with the
   * parameters it binds. The first bound, real time plus the largest offset of any clock, lets the
   * column's index find the rows; the second judges each row by its own business. In production it is
   * `row.column <= now`.
   */
  due(row: string, column: string): { sql: string; params: Date[] } {
    const real = this.realNow();
    const at = `${row}.${column}`;
    if (this.environment === 'production') return { sql: `${at} <= ?`, params: [real] };
    const ms = `* interval '1 millisecond'`;
    return {
      sql: `(${at} <= ?::timestamptz + (select coalesce(max(offset_ms), 0) from sandbox_clock) ${ms}
        and ${at} <= ?::timestamptz + coalesce((select k.offset_ms from sandbox_clock k where k.business_id = ${row}.business_id), 0) ${ms})`,
      params: [real, real],
    };
  }

  /** The business's clock, if it has one. */
  async get(em: EntityManager, businessId: string): Promise<SandboxClock | undefined> {
    const [row] = await sql<ClockRow>(em, 'select * from sandbox_clock where business_id = ?', [businessId]);
    return row && this.toProto(row);
  }

  /** Gives the business a clock at the present; one it has is answered unchanged (`created` false). */
  async start(em: EntityManager, businessId: string): Promise<{ clock: SandboxClock; created: boolean }> {
    const at = this.realNow();
    // The no-op update makes the existing row answer too; xmax is 0 only for a row this insert made.
    const [row] = await sql<ClockRow & { created: boolean }>(
      em,
      `insert into sandbox_clock (business_id, offset_ms, created_at, updated_at) values (?, 0, ?, ?)
       on conflict (business_id) do update set business_id = excluded.business_id
       returning *, (xmax = 0) as created`,
      [businessId, at, at],
    );
    if (!row) throw new Error('the clock upsert answered no row');
    return { clock: this.toProto(row), created: row.created };
  }

  /** Moves the clock forward in one statement, so advances made at once add up; undefined without a clock. */
  async advance(em: EntityManager, businessId: string, seconds: bigint): Promise<SandboxClock | undefined> {
    const [row] = await sql<ClockRow>(
      em,
      `update sandbox_clock set offset_ms = offset_ms + ?, updated_at = ? where business_id = ? returning *`,
      [String(seconds * 1000n), this.realNow(), businessId],
    );
    return row && this.toProto(row);
  }

  /** Sets a copy to at least `offsetMs`: a late or repeated set never moves it back. */
  async set(em: EntityManager, businessId: string, offsetMs: bigint): Promise<SandboxClock> {
    const at = this.realNow();
    const [row] = await sql<ClockRow>(
      em,
      `insert into sandbox_clock (business_id, offset_ms, created_at, updated_at) values (?, ?, ?, ?)
       on conflict (business_id) do update set
         offset_ms = greatest(sandbox_clock.offset_ms, excluded.offset_ms),
         updated_at = case when excluded.offset_ms > sandbox_clock.offset_ms
                           then excluded.updated_at else sandbox_clock.updated_at end
       returning *`,
      [businessId, String(offsetMs), at, at],
    );
    if (!row) throw new Error('the clock upsert answered no row');
    return this.toProto(row);
  }

  private toProto(row: ClockRow): SandboxClock {
    const offsetMs = BigInt(String(row.offset_ms));
    return create(SandboxClockSchema, {
      businessId: String(row.business_id),
      offsetMs,
      now: timestampFromDate(new Date(this.realNow().getTime() + Number(offsetMs))),
      createdAt: timestampFromDate(dateOf(row.created_at)),
      updatedAt: timestampFromDate(dateOf(row.updated_at)),
    });
  }
}
