import { z } from '@corridor/config';
import type { JsonSchema } from '../../http/json-schema.js';
import { listUrl, type ListLocation } from './numbered-page.js';
import type { CursorPage } from '@corridor/contracts/corridor/pagination/v1/cursor_pb';
import type { Request } from 'express';

/**
 * Laravel's cursor-paginated resource collection (`{data, links, meta}` of a CursorPaginator), which
 * every list answers by default and platforms already parse (decision 0018). The cursors are the
 * owning service's, opaque here; prev and next are this list's URL with the request's query as
 * given (filters, per_page) and their cursor last, as Laravel's `withQueryString()` builds them.
 */

/** Where a list request was made: its URL without query, and its parameters but the cursor. */
export const listLocationOf = (req: Request, params: URLSearchParams): ListLocation => ({
  path: `${req.protocol}://${req.get('host') ?? 'localhost'}${req.baseUrl}${req.path}`.replace(/\/+$/, ''),
  query: [...params].filter(([name]) => name !== 'cursor'),
});

function cursorUrl(location: ListLocation, cursor: string | undefined): string | null {
  if (cursor === undefined || cursor === '') return null;
  const query = [...location.query, ['cursor', cursor] as const];
  return listUrl(location.path, query);
}

export function cursorEnvelope<T>(data: readonly T[], page: CursorPage, perPage: number, location: ListLocation) {
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

/**
 * The same envelope as a JSON Schema around `items`, for the route families whose schemas are JSON
 * Schema (customers, deliveries): derived from cursorList so the two cannot drift.
 */
export function cursorListSchema(items: JsonSchema, itemsName: string, description: string): JsonSchema {
  const { $schema: _dialect, ...envelope } = z.toJSONSchema(cursorList(z.unknown(), itemsName), {
    target: 'draft-2020-12',
    override: ({ jsonSchema }) => {
      if (jsonSchema.format === 'uri') delete jsonSchema.pattern;
    },
  }) as JsonSchema & { $schema?: string; properties: Record<string, JsonSchema> };
  return { ...envelope, description, properties: { ...envelope.properties, data: { type: 'array', items } } };
}
