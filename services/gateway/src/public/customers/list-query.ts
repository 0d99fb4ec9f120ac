import { HttpError } from '../../http/errors.js';

/** The largest page a uint32 carries; a page past the last one is simply empty (decision 0008). */
const MAX_PAGE = 4_294_967_295;
const WHOLE_NUMBER = /^[1-9]\d*$/;
const PAGINATE_VALUES = new Map([
  ['true', true],
  ['false', false],
  ['1', true],
  ['0', false],
]);

/** Problems by parameter name; a Map, since a name such as `__proto__` must not touch a prototype. */
export type QueryProblems = Map<string, string[]>;

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

/** `page`: an integer ≥ 1, else a problem; absent reads as 1. */
export function readPage(values: Map<string, string>, problems: QueryProblems): number {
  const page = values.get('page');
  if (page === undefined) return 1;
  if (!WHOLE_NUMBER.test(page) || Number(page) > MAX_PAGE) {
    if (!problems.has('page'))
      problems.set('page', [`must be a whole number from 1 to ${MAX_PAGE}, got ${JSON.stringify(page)}`]);
    return 1;
  }
  return Number(page);
}

/** The 422 of the gateway's own query checks, every problem at once; nothing when there is none. */
export function refuseProblems(problems: QueryProblems): void {
  const [first] = problems;
  if (!first) return;
  const [name, messages] = first;
  throw new HttpError(422, 'VALIDATION_FAILED', `${name} ${messages[0] ?? 'is invalid'}`, Object.fromEntries(problems));
}

export const LIST_FILTERS = ['email', 'id_number', 'registration_number', 'verification_status', 'type'] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];
const LIST_PARAMETERS: readonly string[] = [...LIST_FILTERS, 'paginate', 'page'];

export interface CustomerListQuery {
  /** The filters as given, in the order given; customer-kyb checks their values (enums: 422). */
  filters: [ListFilter, string][];
  paginate: boolean;
  page: number;
}

const isFilter = (entry: [string, string]): entry is [ListFilter, string] =>
  (LIST_FILTERS as readonly string[]).includes(entry[0]);

/**
 * GET /customer's query (seed 4.4, decision 0008). `page` without paginate is accepted and has no
 * effect, as in Laravel, whose answers the paginated form copies.
 */
export function parseCustomerListQuery(params: URLSearchParams): CustomerListQuery {
  const problems: QueryProblems = new Map();
  const values = readQuery(params, LIST_PARAMETERS, problems);
  let paginate = false;
  const given = values.get('paginate');
  if (given !== undefined) {
    const parsed = PAGINATE_VALUES.get(given);
    if (parsed === undefined) {
      if (!problems.has('paginate'))
        problems.set('paginate', [`must be true, false, 1 or 0, got ${JSON.stringify(given)}`]);
    } else {
      paginate = parsed;
    }
  }
  const page = readPage(values, problems);
  refuseProblems(problems);
  return { filters: [...values].filter(isFilter), paginate, page };
}

/** The query of a request URL as given (`req.originalUrl`), repeated parameters kept. */
export const queryOf = (originalUrl: string) => new URL(originalUrl, 'http://gateway.invalid').searchParams;
