import { invalidArgument } from '@corridor/grpc';
import { DEFAULT_PAGE_SIZE } from './cursor.js';

/**
 * Numbered pages (`page=N`), kept for clients written against them (decision 0018). Both of their
 * costs that grow with a table are capped: the depth, so OFFSET skips at most 1,485 rows, and the
 * count, which stops at 10,001 rows. Deeper and exact-free reading is the cursor's job.
 */
export const MAX_PAGE_NUMBER = 100;
export const TOTAL_CAP = 10_000;

export interface NumberedRead {
  page: number;
  perPage: number;
  offset: number;
}

/** The numbered page a request asks for; 422 naming page past MAX_PAGE_NUMBER. */
export function numberedRead(page: number): NumberedRead {
  const current = Math.max(1, page);
  if (current > MAX_PAGE_NUMBER) {
    const reason = `must be at most ${MAX_PAGE_NUMBER}; read further with the cursor of links.next`;
    throw invalidArgument(`page ${reason}`, { page: [reason] });
  }
  return { page: current, perPage: DEFAULT_PAGE_SIZE, offset: (current - 1) * DEFAULT_PAGE_SIZE };
}

/**
 * A numbered page of `<from> where <where>` in `order`, parameters `[...where's, perPage, offset]`.
 * The OFFSET is taken over ids alone (an index-only scan of the list's index), and only the page's
 * rows are read whole: skipping 1,485 rows costs what reading 15 does, not 1,500 heap fetches.
 */
export const numberedPageSql = (from: string, where: string, order: string) =>
  `select * from ${from} where id in (select id from ${from} where ${where} order by ${order} limit ? offset ?) order by ${order}`;

/**
 * The count of `select … from <from> where <where>` up to TOTAL_CAP + 1 rows, so a list of a
 * million rows costs what one of 10,001 does. `where` takes the same parameters as the list query.
 */
export const cappedCountSql = (from: string, where: string) =>
  `select count(*)::int as counted from (select 1 from ${from} where ${where} limit ${TOTAL_CAP + 1}) capped`;

/** The page's position from the capped count: last_page never points past MAX_PAGE_NUMBER. */
export function numberedPage(read: NumberedRead, counted: number) {
  const total = Math.min(counted, TOTAL_CAP);
  return {
    currentPage: read.page,
    perPage: read.perPage,
    lastPage: Math.max(1, Math.min(Math.ceil(total / read.perPage), MAX_PAGE_NUMBER)),
    total: BigInt(total),
    totalCapped: counted > TOTAL_CAP,
  };
}
