import type { CursorPage } from '@corridor/contracts/corridor/pagination/v1/cursor_pb';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_NUMBER, MAX_PAGE_SIZE } from '@corridor/pagination';
import type { Request } from 'express';
import type { JsonSchema } from '../../http/json-schema.js';
import { cursorEnvelope, cursorListSchema, listLocationOf } from './cursor-page.js';
import { paginatedEnvelope, paginatedListSchema } from './numbered-page.js';
import { MAX_CURSOR_LENGTH } from './page-query.js';

/** A numbered page's position as the customer and delivery services answer it. */
interface NumberedPosition {
  currentPage: number;
  perPage: number;
  lastPage: number;
  total: bigint;
  totalCapped: boolean;
}

/**
 * The envelope of a list answer (decision 0018): the cursor page's, or for `page=N` the numbered
 * page's, with links that keep the request's query as given and set their own cursor or page.
 */
export function listEnvelope<T>(
  req: Request,
  params: URLSearchParams,
  data: readonly T[],
  answer: { page?: NumberedPosition; cursorPage?: CursorPage },
) {
  const location = listLocationOf(req, params);
  if (answer.cursorPage) return cursorEnvelope(data, answer.cursorPage, answer.cursorPage.limit, location);
  // A service that answers neither page is broken, not the request.
  if (!answer.page) throw new Error('the service answered a list without its page');
  const { currentPage, perPage, lastPage, total, totalCapped } = answer.page;
  return paginatedEnvelope(
    data,
    { currentPage, perPage, lastPage, total: Number(total), totalCapped },
    { path: location.path, query: [...params].filter(([name]) => name !== 'page') },
  );
}

/**
 * The answer of a list route: a cursor page by default, a numbered page for `page=N`. anyOf, not
 * oneOf: the shapes share data, links and meta, and which one came is the request's choice.
 */
export function listBodySchema(items: JsonSchema, itemsName: string): JsonSchema {
  return {
    anyOf: [
      cursorListSchema(items, itemsName, `a cursor page (the default): per_page ${itemsName}, newest first`),
      paginatedListSchema(items, `page=N: a numbered page of 15 ${itemsName}, newest first; links keep your filters`),
    ],
  };
}

/** The page's query parameters, as every list route's query schema declares them. */
export const pageQueryProperties: Record<string, JsonSchema> = {
  cursor: {
    type: 'string',
    minLength: 1,
    maxLength: MAX_CURSOR_LENGTH,
    description: 'opaque: meta.next_cursor or meta.prev_cursor of a previous page; not with page',
  },
  per_page: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: 'items per cursor page; not with page',
  },
  page: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_NUMBER,
    description: `a numbered page of 15 instead of a cursor page, for clients written against page numbers: the newest ${MAX_PAGE_NUMBER * DEFAULT_PAGE_SIZE} at most; not with cursor or per_page`,
  },
};
