import { POSTGRES_ADMIN_URL, query } from '../../packages/testing/dist/index.js';

/** One of the bench's databases, by the service that owns it. */
export interface BenchDatabase {
  service: string;
  name: string;
}

/** What PostgreSQL executed for the bench's databases between a reset and a read. */
export interface StatementCounts {
  /** Every statement pg_stat_statements counted (nested ones too where it tracks them), by service. */
  statements: Record<string, number>;
  /** Statements a client sent (pg_stat_statements' `toplevel`): each is a round trip, BEGIN and COMMIT included. */
  roundTrips: Record<string, number>;
  /** The top-level statements called most, with the service whose database ran them. */
  top: { service: string; calls: number; query: string }[];
}

interface StatementRow {
  dbid: number;
  toplevel: boolean;
  calls: string;
  query: string;
}

/**
 * pg_stat_statements for the bench's own databases only: the server is shared with other suites and
 * benches, so it resets and reads by database id, never the whole view. The extension's view is made
 * once in the admin database (it then shows every database's statements); when the server did not
 * load the library, `available` is false with the reason, and the bench goes on without the counts.
 */
export class Statements {
  private constructor(
    readonly available: boolean,
    readonly reason: string,
    private readonly byOid: Map<number, string>,
  ) {}

  static async open(databases: BenchDatabase[], adminUrl = POSTGRES_ADMIN_URL): Promise<Statements> {
    try {
      await query(adminUrl, 'create extension if not exists pg_stat_statements');
      await query(adminUrl, 'select 1 from pg_stat_statements limit 1');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return new Statements(false, message, new Map());
    }
    const rows = await query<{ oid: number; datname: string }>(
      adminUrl,
      'select oid::int as oid, datname from pg_database where datname = any($1)',
      [databases.map((database) => database.name)],
    );
    const service = new Map(databases.map((database) => [database.name, database.service]));
    return new Statements(true, '', new Map(rows.map((row) => [row.oid, service.get(row.datname) ?? row.datname])));
  }

  /**
   * Statements inside a function (one PL/pgSQL call instead of a chain) are counted only where
   * pg_stat_statements.track is `all`: set on the database, for the connections opened after this.
   */
  static trackNested(database: string, adminUrl = POSTGRES_ADMIN_URL): Promise<unknown> {
    return query(adminUrl, `alter database ${database} set pg_stat_statements.track = 'all'`).catch(() => undefined);
  }

  async reset(adminUrl = POSTGRES_ADMIN_URL): Promise<void> {
    if (!this.available) return;
    for (const oid of this.byOid.keys()) await query(adminUrl, 'select pg_stat_statements_reset(0, $1, 0)', [oid]);
  }

  async read(top = 5, adminUrl = POSTGRES_ADMIN_URL): Promise<StatementCounts | undefined> {
    if (!this.available) return undefined;
    const rows = await query<StatementRow>(
      adminUrl,
      'select dbid::int as dbid, toplevel, calls::text as calls, query from pg_stat_statements where dbid = any($1)',
      [[...this.byOid.keys()]],
    );
    const statements: Record<string, number> = {};
    const roundTrips: Record<string, number> = {};
    const merged = new Map<string, { service: string; calls: number; query: string }>();
    for (const row of rows) {
      const service = this.byOid.get(row.dbid) ?? String(row.dbid);
      const calls = Number(row.calls);
      statements[service] = (statements[service] ?? 0) + calls;
      if (row.toplevel) roundTrips[service] = (roundTrips[service] ?? 0) + calls;
      // The same text may be counted under two query ids (top level and nested, or two users).
      // Only what a client sent: the nested ones are mostly foreign-key checks, not statements to cut.
      if (!row.toplevel) continue;
      const text = row.query.replace(/\s+/g, ' ').trim();
      const key = `${service}\u0000${text}`;
      const entry = merged.get(key) ?? { service, calls: 0, query: text };
      entry.calls += calls;
      merged.set(key, entry);
    }
    return {
      statements,
      roundTrips,
      top: [...merged.values()].sort((a, b) => b.calls - a.calls).slice(0, top),
    };
  }
}
