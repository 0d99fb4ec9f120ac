import { MAX_PAGE_NUMBER, MAX_PAGE_SIZE } from '@corridor/pagination';
import { HttpError } from '../../http/errors.js';

/**
 * The query of a list route, read by hand rather than by zod so every problem is named at once and
 * a repeated parameter is refused (decision 0008), and the page it asks for: a cursor page, or a
 * numbered page for clients written against those (decision 0018).
 */

const WHOLE_NUMBER = /^[1-9]\d*$/;
/** Cursors are opaque and the owning service decodes them; this bounds only what is passed on. */
export const MAX_CURSOR_LENGTH = 1024;

/** Problems by parameter name; a Map, since a name such as `__proto__` must not touch a prototype. */
export type QueryProblems = Map<string, string[]>;

/** The query parameters of a page, in every list route that reads them. */
export const PAGE_PARAMETERS = ['cursor', 'per_page', 'page'] as const;

/** A list's page: numbered when `page` is given, else the cursor page (first when cursor is empty). */
export type PageQuery = { page: number } | { page?: undefined; cursor: string; perPage: number };

const problem = (problems: QueryProblems, name: string, message: string) => {
  if (!problems.has(name)) problems.set(name, [message]);
};

/**
 * The query parameters a route accepts, each given at most once: an unknown or repeated one is a
 * problem naming it, so a typo (`verification-status=`) never silently lists everything.
 */
export function readQuery(
  params: URLSearchParams,
  allowed: readonly string[],
  problems: QueryProblems,
): Map<string, string> {
  const values = new Map<string, string>();
  for (const [name, value] of params) {
    if (!allowed.includes(name)) {
      problems.set(name, [`is not a recognised query parameter; use ${allowed.join(', ')}`]);
    } else if (values.has(name)) {
      problems.set(name, ['must be given once']);
    } else {
      values.set(name, value);
    }
  }
  return values;
}

function readWholeNumber(
  values: Map<string, string>,
  name: string,
  max: number,
  problems: QueryProblems,
  beyond = '',
): number | undefined {
  const value = values.get(name);
  if (value === undefined) return undefined;
  if (!WHOLE_NUMBER.test(value) || Number(value) > max) {
    problem(problems, name, `must be a whole number from 1 to ${max}, got ${JSON.stringify(value)}${beyond}`);
    return undefined;
  }
  return Number(value);
}

/** `page`: 1 to MAX_PAGE_NUMBER, else a problem; undefined when absent. */
export const readPage = (values: Map<string, string>, problems: QueryProblems) =>
  readWholeNumber(values, 'page', MAX_PAGE_NUMBER, problems, '; read further with cursor pages (leave page out)');

/** The page asked for by `page`, or `cursor` and `per_page`; the two forms do not mix. */
export function readPageQuery(values: Map<string, string>, problems: QueryProblems): PageQuery {
  const page = readPage(values, problems);
  const perPage = readWholeNumber(values, 'per_page', MAX_PAGE_SIZE, problems);
  const cursor = values.get('cursor');
  if (cursor !== undefined && (cursor === '' || cursor.length > MAX_CURSOR_LENGTH)) {
    problem(problems, 'cursor', 'must be meta.next_cursor or meta.prev_cursor of a previous page');
  }
  if (values.has('page') && cursor !== undefined) problem(problems, 'page', 'cannot be combined with cursor');
  if (values.has('page') && values.has('per_page')) {
    problem(problems, 'per_page', 'applies to cursor pages; a numbered page holds 15');
  }
  if (page !== undefined) return { page };
  return { cursor: cursor ?? '', perPage: perPage ?? 0 };
}

/** The 422 of the gateway's own query checks, every problem at once; nothing when there is none. */
export function refuseProblems(problems: QueryProblems): void {
  const [first] = problems;
  if (!first) return;
  const [name, messages] = first;
  throw new HttpError(422, 'VALIDATION_FAILED', `${name} ${messages[0] ?? 'is invalid'}`, Object.fromEntries(problems));
}

/** The query of a request URL as given (`req.originalUrl`), repeated parameters kept. */
export const queryOf = (originalUrl: string) => new URL(originalUrl, 'http://gateway.invalid').searchParams;

/** The page of a list request as its gRPC fields: a numbered page, or the cursor page. */
export const pageRequestOf = (page: PageQuery) =>
  page.page !== undefined ? { page: page.page } : { page: 0, cursorPage: { cursor: page.cursor, limit: page.perPage } };
