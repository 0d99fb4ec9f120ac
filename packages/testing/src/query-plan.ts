import { createTestDatabase, query, type TestDatabase } from './postgres.js';

/** One node of `EXPLAIN (ANALYZE, FORMAT JSON)`, with PostgreSQL's own field names. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** How one plan touched one table: each scan ("Index Scan using x"), and every row it read, kept or discarded. */
export interface TableReads {
  scans: string[];
  rowsRead: number;
}

const INDEX_SCANS = new Set(['Index Scan', 'Index Only Scan', 'Bitmap Heap Scan']);

const isPlanNode = (value: unknown): value is PlanNode =>
  typeof value === 'object' && value !== null && typeof (value as { 'Node Type'?: unknown })['Node Type'] === 'string';

/** The root node from the rows of `EXPLAIN (FORMAT JSON)`: one row, one column, a one-element array. */
export function planOf(rows: unknown): PlanNode {
  const [row] = Array.isArray(rows) ? (rows as unknown[]) : [];
  const document = typeof row === 'object' && row !== null ? (row as Record<string, unknown>)['QUERY PLAN'] : undefined;
  const [statement] = Array.isArray(document) ? (document as unknown[]) : [];
  const plan = typeof statement === 'object' && statement !== null ? (statement as { Plan?: unknown }).Plan : undefined;
  if (!isPlanNode(plan)) throw new Error(`not the rows of EXPLAIN (FORMAT JSON): ${JSON.stringify(rows)}`);
  return plan;
}

export function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

/** Actual Rows and Rows Removed are averages per loop: times loops, they are what the scan read. */
export function readsOf(plan: PlanNode, table: string): TableReads {
  const scans = planNodes(plan).filter((node) => node['Relation Name'] === table);
  return {
    scans: scans.map((node) =>
      node['Index Name'] ? `${node['Node Type']} using ${node['Index Name']}` : node['Node Type'],
    ),
    rowsRead: scans.reduce(
      (sum, node) =>
        sum +
        ((node['Actual Rows'] ?? 0) +
          (node['Rows Removed by Filter'] ?? 0) +
          (node['Rows Removed by Index Recheck'] ?? 0)) *
          (node['Actual Loops'] ?? 1),
      0,
    ),
  };
}

/** Whether a scan from readsOf goes through an index (a bitmap heap scan's index is its child's). */
export const isIndexScan = (scan: string): boolean => INDEX_SCANS.has(scan.replace(/ using .*$/, ''));

/** One statement as the ORM sent it: its text, with the ORM's own placeholders, and its parameters. */
export interface RecordedStatement {
  sql: string;
  params: unknown[];
}

/**
 * Records the statements sent while `record` runs. Give `onQuery` to MikroORM's `onQuery` option:
 * a list is then explained exactly as its function sends it, not as a spec retypes it.
 */
export class StatementRecorder {
  #statements: RecordedStatement[] | undefined;

  readonly onQuery = (sql: string, params: readonly unknown[]): string => {
    this.#statements?.push({ sql, params: [...params] });
    return sql;
  };

  /** Runs `action`; its result and every statement sent meanwhile, in order. */
  async record<T>(action: () => Promise<T>): Promise<{ result: T; statements: RecordedStatement[] }> {
    const statements: RecordedStatement[] = [];
    this.#statements = statements;
    try {
      return { result: await action(), statements };
    } finally {
      this.#statements = undefined;
    }
  }
}

/** The statement that reads a page of `table` (`from table … order by`); throws naming what was sent instead. */
export function pageStatement(statements: readonly RecordedStatement[], table: string): RecordedStatement {
  const page = new RegExp(`from "?${table}"? .*order by`, 's');
  const statement = statements.find(({ sql }) => page.test(sql));
  if (!statement) throw new Error(`no page of ${table} was read: ${JSON.stringify(statements)}`);
  return statement;
}

/**
 * `EXPLAIN (ANALYZE, FORMAT JSON)` of a recorded statement, as what it read of `table`. `execute` is
 * the connection that sent it (MikroORM's `em.getConnection().execute`), whose placeholders it uses.
 */
export async function explainReads(
  execute: (sql: string, params: unknown[]) => Promise<unknown>,
  { sql, params }: RecordedStatement,
  table: string,
): Promise<TableReads> {
  return readsOf(planOf(await execute(`explain (analyze, format json) ${sql}`, params)), table);
}

/**
 * Why a plan does not read one page of a table through an index: no scan of it at all, a scan that
 * is not an index scan, or more than `maxRowsRead` rows read. Empty when the page was read as a page.
 */
export function onePageProblems(reads: TableReads, maxRowsRead: number): string[] {
  const scans = reads.scans.join(', ');
  return [
    ...(reads.scans.length === 0 ? ['the plan reads nothing of the table'] : []),
    ...reads.scans.filter((scan) => !isIndexScan(scan)).map((scan) => `${scan} (scans: ${scans})`),
    ...(reads.rowsRead > maxRowsRead
      ? [`read ${reads.rowsRead} rows, more than ${maxRowsRead} (scans: ${scans})`]
      : []),
  ];
}

/**
 * The position (created_at, id) of the row `depth` deep in a keyset list of `table`, newest first,
 * filtered by `tests`: each a column and operator ("business_id =", "created_at <") and its value,
 * left out when the value is undefined. As an "older" cursor, it names the page after that row.
 */
export async function keysetPositionAt(
  url: string,
  table: string,
  tests: readonly (readonly [string, unknown])[],
  depth: number,
): Promise<{ createdAt: Date; id: string }> {
  const applied = tests.filter(([, value]) => value !== undefined);
  const where = applied.map(([test], index) => `${test} $${index + 1}`).join(' and ') || 'true';
  const [row] = await query<{ id: string; created_at: Date }>(
    url,
    `select id, created_at from ${table} where ${where}
     order by created_at desc, id desc offset $${applied.length + 1} limit 1`,
    [...applied.map(([, value]) => value), depth - 1],
  );
  if (!row) throw new Error(`${table} where ${where} is not ${depth} rows deep`);
  return { createdAt: row.created_at, id: row.id };
}

/** What a list-plan spec needs of its ORM, as MikroORM has it (named by shape: this package does not depend on it). */
export interface PlanOrm {
  em: { fork(): { getConnection(): { execute(sql: string, params: unknown[]): Promise<unknown> } } };
  migrator: { up(): Promise<unknown> };
  close(): Promise<unknown>;
}

export interface ListPlanOptions<O extends PlanOrm> {
  /** The test database's name prefix. */
  name: string;
  /** The listed table: the one whose reads are judged. */
  table: string;
  /** The list's default page size: the page every test asks for. */
  pageSize: number;
  /** Opens the service's ORM on `url`, with `onQuery` as its onQuery hook (the harness migrates it). */
  open(url: string, onQuery: StatementRecorder['onQuery']): Promise<O>;
  /** Fills the migrated database by bulk SQL; the harness then vacuums and analyzes it. */
  seed(url: string): Promise<void>;
}

/**
 * A fresh database for one spec of issue 17 that proves a list reads one page through an index
 * however many rows there are: setUp creates, migrates and seeds it, tearDown drops it (the spec's
 * beforeAll and afterAll: listPlanDatabase registers both); list runs the list's own function and
 * returns the page query it sent, and problemsOf explains that query (ANALYZE) and says what keeps
 * it from reading one page.
 */
export class ListPlanDatabase<O extends PlanOrm> {
  readonly #recorder = new StatementRecorder();
  #database: TestDatabase | undefined;
  #orm: O | undefined;

  constructor(readonly options: ListPlanOptions<O>) {}

  /** A page and a few more: a plan that filters the page out of the whole table reads thousands. */
  get maxRowsRead(): number {
    return 4 * this.options.pageSize;
  }

  get url(): string {
    if (!this.#database) throw new Error('the database is not set up');
    return this.#database.url;
  }

  get orm(): O {
    if (!this.#orm) throw new Error('the database is not open');
    return this.#orm;
  }

  readonly setUp = async (): Promise<void> => {
    this.#database = await createTestDatabase(this.options.name);
    this.#orm = await this.options.open(this.#database.url, this.#recorder.onQuery);
    await this.#orm.migrator.up();
    await this.options.seed(this.#database.url);
    await query(this.#database.url, 'vacuum analyze');
  };

  readonly tearDown = async (): Promise<void> => {
    await this.#orm?.close();
    await this.#database?.drop();
  };

  /** Runs the list (as its gRPC handler does, on the ORM): its answer, and the page query it sent. */
  async list<T>(
    action: (orm: O) => Promise<T>,
  ): Promise<{ result: T; statement: RecordedStatement; count: RecordedStatement | undefined }> {
    const { result, statements } = await this.#recorder.record(() => action(this.orm));
    return {
      result,
      statement: pageStatement(statements, this.options.table),
      count: statements.find(({ sql }) => sql.includes('count(*)')),
    };
  }

  /** What a recorded statement read of the table (EXPLAIN ANALYZE). */
  async readsOf(statement: RecordedStatement): Promise<TableReads> {
    const connection = this.orm.em.fork().getConnection();
    return explainReads((sql, params) => connection.execute(sql, params), statement, this.options.table);
  }

  /** What keeps the statement from reading one page of the table through an index; empty when nothing does. */
  async problemsOf(statement: RecordedStatement, maxRowsRead = this.maxRowsRead): Promise<string[]> {
    return onePageProblems(await this.readsOf(statement), maxRowsRead);
  }

  /** The position of the row `depth` deep in the table's list filtered by `tests` (see keysetPositionAt). */
  positionAt(tests: readonly (readonly [string, unknown])[], depth: number): Promise<{ createdAt: Date; id: string }> {
    return keysetPositionAt(this.url, this.options.table, tests, depth);
  }
}

/** A ListPlanDatabase set up before the spec's tests and dropped after them (call inside its describe). */
export function listPlanDatabase<O extends PlanOrm>(options: ListPlanOptions<O>): ListPlanDatabase<O> {
  const plan = new ListPlanDatabase(options);
  beforeAll(plan.setUp);
  afterAll(plan.tearDown);
  return plan;
}

/** A keyset cursor as @corridor/pagination has it: a row's position and the way to read from it. */
export interface CursorAt {
  createdAt: Date;
  id: string;
  direction: 'older' | 'newer';
}

/** One keyset list as a plan spec drives it, with filters of type F. */
export interface ListUnderTest<F> {
  /**
   * Runs the list's own function for one page, the first or the one `cursor` names, and checks each
   * row matches every filter: the rows' created_at, the next page's cursor, and the page query.
   */
  page(
    filters: F,
    cursor: CursorAt | undefined,
  ): Promise<{ createdAt: Date[]; nextCursor: string | undefined; statement: RecordedStatement }>;
  /** The column tests over the table that select what `filters` selects (see keysetPositionAt). */
  tests(filters: F): (readonly [string, unknown])[];
  /**
   * Each filter alone and the combinations to prove: a name, the filters, how many rows page 1
   * holds, and, where the plan may read more than 4 pages for a reason that does not grow with the
   * table, the most it may read.
   */
  firstPages: [string, F, number, number?][];
  /** Filters to page deep into: a name, the filters, and how deep the cursor is (half-way down is a good depth). */
  deepPages: [string, F, number][];
}

/**
 * The tests of issue 17 for one list (call inside its describe): page 1 of each filter holds its
 * matches and reads them through an index, never scanning the table, at most 4 pages' worth of
 * rows; so does the page after (older) and before (newer) a cursor deep down each filtered list.
 */
export function itReadsOnePage<O extends PlanOrm, F>(plan: ListPlanDatabase<O>, list: ListUnderTest<F>): void {
  const first = list.firstPages.map(
    ([name, filters, expected, maxRowsRead]) => [name, expected, filters, maxRowsRead] as const,
  );
  it.each(first)(
    '%s: page 1 holds its %i matches, read through an index, never a scan of the table',
    async (_name, expected, filters, maxRowsRead) => {
      const { createdAt, statement } = await list.page(filters, undefined);
      // A full page of real matches: a plan that found nothing would read nothing and prove nothing.
      expect(createdAt).toHaveLength(expected);
      expect(await plan.problemsOf(statement, maxRowsRead)).toEqual([]);
    },
  );

  const deep = list.deepPages.flatMap(([name, filters, depth]) =>
    (['older', 'newer'] as const).map((direction) => [name, depth, direction, filters] as const),
  );
  it.each(deep)(
    '%s: %i rows down the list, the %s page next to a cursor reads what page 1 reads',
    async (_name, depth, direction, filters) => {
      const position = await plan.positionAt(list.tests(filters), depth);
      const { createdAt, nextCursor, statement } = await list.page(filters, { ...position, direction });
      expect(createdAt).toHaveLength(plan.options.pageSize);
      // On the cursor's side of it: older after it, newer before it.
      const wrongSide = createdAt.filter((at) =>
        direction === 'older'
          ? at.getTime() >= position.createdAt.getTime()
          : at.getTime() <= position.createdAt.getTime(),
      );
      expect(wrongSide).toEqual([]);
      expect(nextCursor).toBeDefined();
      expect(await plan.problemsOf(statement)).toEqual([]);
    },
  );
}
