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
