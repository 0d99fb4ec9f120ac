import type { CursorPage } from '@corridor/contracts/corridor/pagination/v1/cursor_pb';

/**
 * Laravel's cursor-paginated resource collection (`{data, links, meta}` of a CursorPaginator), which
 * platforms already parse. The cursors are payments' own, opaque here; prev and next are this
 * list's URL with the request's query as given (filters, per_page) and their cursor last, as
 * Laravel's `withQueryString()` builds them.
 */

export interface CursorListLocation {
  /** The absolute URL without query, e.g. https://api.example.com/api/external/transaction */
  path: string;
  /** The request's query parameters but `cursor`, in the order given. */
  query: readonly (readonly [string, string])[];
}

// RFC 3986, as PHP's http_build_query(..., PHP_QUERY_RFC3986) in Laravel's Arr::query.
const encode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function cursorUrl(location: CursorListLocation, cursor: string | undefined): string | null {
  if (cursor === undefined || cursor === '') return null;
  const query = [...location.query, ['cursor', cursor] as const];
  return `${location.path}?${query.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&')}`;
}

export function cursorEnvelope<T>(data: readonly T[], page: CursorPage, perPage: number, location: CursorListLocation) {
  const next = page.nextCursor || null;
  const prev = page.previousCursor || null;
  return {
    data,
    links: {
      first: null,
      last: null,
      prev: cursorUrl(location, page.previousCursor),
      next: cursorUrl(location, page.nextCursor),
    },
    meta: {
      path: location.path,
      // payments may cap the page; what it used is what the next page will hold.
      per_page: page.limit > 0 ? page.limit : perPage,
      next_cursor: next,
      prev_cursor: prev,
    },
  };
}
