import { z } from '@corridor/config';
import type { CursorPage } from '@corridor/contracts/corridor/pagination/v1/cursor_pb';
import type { Request } from 'express';

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

/** Where a list request was made: its URL without query, and its parameters but the cursor. */
export const listLocationOf = (req: Request, params: URLSearchParams): CursorListLocation => ({
  path: `${req.protocol}://${req.get('host') ?? 'localhost'}${req.baseUrl}${req.path}`.replace(/\/+$/, ''),
  query: [...params].filter(([name]) => name !== 'cursor'),
});

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

/** The envelope's closed schema around `item`; `items` names them in the links' descriptions. */
export const cursorList = <T extends z.ZodType>(item: T, items: string) =>
  z.strictObject({
    data: z.array(item),
    links: z.strictObject({
      first: z.null().meta({ description: 'always null: a cursor list has no first-page link' }),
      last: z.null().meta({ description: 'always null: a cursor list has no last-page link' }),
      prev: z
        .url()
        .nullable()
        .meta({ description: `newer ${items}, with your filters; null on the first page` }),
      next: z
        .url()
        .nullable()
        .meta({ description: `older ${items}, with your filters; null on the last page` }),
    }),
    meta: z.strictObject({
      path: z.url().meta({ description: 'this list’s URL without a query' }),
      per_page: z.int().min(1).max(100),
      next_cursor: z.string().nullable().meta({ description: 'opaque; send it as cursor for the next page' }),
      prev_cursor: z.string().nullable().meta({ description: 'opaque; send it as cursor for the previous page' }),
    }),
  });
