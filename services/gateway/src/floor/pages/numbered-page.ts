import type { JsonSchema } from '../../http/json-schema.js';

/**
 * Laravel's paginated resource-collection envelope (`{data, links, meta}`), which a list answers
 * for `page=N` and platforms already parse (decisions 0008, 0018). Built the way Laravel's
 * LengthAwarePaginator and UrlWindow build it, so the same client code works unchanged; the
 * services count only up to 10,000, and `meta.total_capped` says when more match.
 */

export interface PagePosition {
  currentPage: number;
  perPage: number;
  lastPage: number;
  total: number;
  /** More match than were counted: total is a lower bound. */
  totalCapped: boolean;
}

/** Where the list was asked for: the absolute URL without query, and the query to keep in links. */
export interface ListLocation {
  /** e.g. https://api.example.com/api/external/customer */
  path: string;
  /** The request's query parameters but `page`, in the order given (the filters stay in every link). */
  query: readonly (readonly [string, string])[];
}

export interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

/** Laravel's `onEachSide`: pages shown around the current one once there are too many to list. */
const ON_EACH_SIDE = 3;
const PREVIOUS_LABEL = '&laquo; Previous';
const NEXT_LABEL = 'Next &raquo;';

// RFC 3986, as PHP's http_build_query(..., PHP_QUERY_RFC3986): spaces are %20, !'()* escaped too.
const encode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** An absolute list URL: `path` with `query` in the order given, encoded as every page link is. */
export function listUrl(path: string, query: readonly (readonly [string, string])[]): string {
  return `${path}?${query.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&')}`;
}

const pageUrl = (location: ListLocation, page: number) =>
  listUrl(location.path, [...location.query, ['page', String(page)]]);

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * The page numbers of `meta.links`, `null` for a "..." gap (Laravel's UrlWindow): every page while
 * there are fewer than 14, else the first two and last two with a window of 7 around the current page.
 */
export function pageWindow(currentPage: number, lastPage: number): (number | null)[] {
  const window = ON_EACH_SIDE + 4;
  if (lastPage < ON_EACH_SIDE * 2 + 8) return range(1, lastPage);
  if (currentPage <= window) return [...range(1, window + ON_EACH_SIDE), null, ...range(lastPage - 1, lastPage)];
  if (currentPage > lastPage - window) {
    return [...range(1, 2), null, ...range(lastPage - (window + ON_EACH_SIDE - 1), lastPage)];
  }
  return [
    ...range(1, 2),
    null,
    ...range(currentPage - ON_EACH_SIDE, currentPage + ON_EACH_SIDE),
    null,
    ...range(lastPage - 1, lastPage),
  ];
}

/** Positions of a page's first and last item in the whole list (1-based); null on an empty page. */
export function itemRange(count: number, currentPage: number, perPage: number) {
  if (count === 0) return { from: null, to: null };
  const from = (currentPage - 1) * perPage + 1;
  return { from, to: from + count - 1 };
}

export function paginatedEnvelope<T>(data: readonly T[], position: PagePosition, location: ListLocation) {
  const { currentPage, perPage, total } = position;
  // Laravel: at least one page, even when nothing matches.
  const lastPage = Math.max(position.lastPage, 1);
  const { from, to } = itemRange(data.length, currentPage, perPage);
  const prev = currentPage > 1 ? pageUrl(location, currentPage - 1) : null;
  const next = currentPage < lastPage ? pageUrl(location, currentPage + 1) : null;
  const links: PageLink[] = [
    { url: prev, label: PREVIOUS_LABEL, active: false },
    ...pageWindow(currentPage, lastPage).map((page) =>
      page === null
        ? { url: null, label: '...', active: false }
        : { url: pageUrl(location, page), label: String(page), active: page === currentPage },
    ),
    { url: next, label: NEXT_LABEL, active: false },
  ];
  return {
    data,
    links: { first: pageUrl(location, 1), last: pageUrl(location, lastPage), prev, next },
    meta: {
      current_page: currentPage,
      from,
      last_page: lastPage,
      links,
      path: location.path,
      per_page: perPage,
      to,
      total,
      total_capped: position.totalCapped,
    },
  };
}

const nullableUrl: JsonSchema = { type: ['string', 'null'], format: 'uri' };

/** The closed schema of the envelope above, for a list of `items` (the customer and delivery lists, page=N). */
export function paginatedListSchema(items: JsonSchema, description: string): JsonSchema {
  return {
    type: 'object',
    description,
    required: ['data', 'links', 'meta'],
    additionalProperties: false,
    properties: {
      data: { type: 'array', items },
      links: {
        type: 'object',
        required: ['first', 'last', 'prev', 'next'],
        additionalProperties: false,
        properties: {
          first: { type: 'string', format: 'uri' },
          last: { type: 'string', format: 'uri' },
          prev: { ...nullableUrl, description: 'null on the first page' },
          next: { ...nullableUrl, description: 'null on the last page' },
        },
      },
      meta: {
        type: 'object',
        required: ['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total', 'total_capped'],
        additionalProperties: false,
        properties: {
          current_page: { type: 'integer', minimum: 1 },
          from: {
            type: ['integer', 'null'],
            minimum: 1,
            description: 'position of the first item; null on an empty page',
          },
          last_page: {
            type: 'integer',
            minimum: 1,
            maximum: 100,
            description: 'the deepest numbered page: 100 at most',
          },
          links: {
            type: 'array',
            description: 'Previous, the page numbers ("..." for a gap), Next, for rendering a pager',
            items: {
              type: 'object',
              required: ['url', 'label', 'active'],
              additionalProperties: false,
              properties: { url: nullableUrl, label: { type: 'string' }, active: { type: 'boolean' } },
            },
          },
          path: { type: 'string', format: 'uri' },
          per_page: { type: 'integer', minimum: 1 },
          to: {
            type: ['integer', 'null'],
            minimum: 1,
            description: 'position of the last item; null on an empty page',
          },
          total: { type: 'integer', minimum: 0, maximum: 10_000, description: 'counted up to 10,000' },
          total_capped: {
            type: 'boolean',
            description: 'true when more than 10,000 match: total is then a lower bound',
          },
        },
      },
    },
  };
}
