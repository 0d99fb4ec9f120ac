import { performance } from 'node:perf_hooks';
import { jsonOf } from '../../test/dist/support/customers.js';
import type { Target } from './load.js';

/** The part of a cursor page (Laravel's cursor paginator) a walk reads. */
interface CursorPage {
  data: { id: string }[];
  links: { next: string | null };
}

export interface Walk {
  /** The cursor in the last page's links.next: where a client that read `rows` rows goes on from. */
  cursor: string;
  rows: number;
  /** Each page's time (request and body), in the order read. */
  pageMs: number[];
}

/**
 * Reads `pages` pages from `start` (a first page) by following links.next, as a client does, and
 * checks what a cursor promises: each row once, the start's filters kept. Each link is called on the
 * start's origin (127.0.0.1), whatever host the gateway wrote into it.
 */
export async function walk(start: Target, pages: number): Promise<Walk> {
  const first = new URL(start.url);
  const seen = new Set<string>();
  const pageMs: number[] = [];
  let url = start.url;
  let cursor = '';
  while (pageMs.length < pages) {
    const began = performance.now();
    const page = await jsonOf<CursorPage>(await fetch(url, { headers: start.headers }), 200, `walk ${url}`);
    pageMs.push(performance.now() - began);
    for (const { id } of page.data) {
      if (seen.has(id)) throw new Error(`walk ${url}: row ${id} came a second time`);
      seen.add(id);
    }
    if (!page.links.next)
      throw new Error(`walk ${start.url}: the list ended at ${seen.size} rows, before ${pages} pages`);
    const next = new URL(page.links.next, url);
    for (const [name, value] of first.searchParams) {
      if (next.searchParams.get(name) !== value) throw new Error(`walk: links.next ${next.href} lost ${name}=${value}`);
    }
    cursor = next.searchParams.get('cursor') ?? '';
    if (!cursor) throw new Error(`walk: links.next ${next.href} has no cursor`);
    url = `${first.origin}${next.pathname}${next.search}`;
  }
  return { cursor, rows: seen.size, pageMs };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** The walk's own timing: whether page N costs what page 1 does. */
export function describeWalk(walked: Walk): string {
  const ms = (values: number[]) => `${median(values).toFixed(1)} ms`;
  const edge = Math.min(10, walked.pageMs.length);
  return (
    `${walked.pageMs.length} pages, ${walked.rows.toLocaleString('en')} rows: p50 ${ms(walked.pageMs)} a page; ` +
    `first ${edge} p50 ${ms(walked.pageMs.slice(0, edge))}, last ${edge} p50 ${ms(walked.pageMs.slice(-edge))}`
  );
}
