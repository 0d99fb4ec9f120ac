import { invalidArgument } from '@corridor/grpc';

/**
 * Keyset cursors on (created_at, id), newest first (DESIGN.md "Lists stay flat"). Opaque to
 * clients: base64url of the position and the direction to read from it. A cursor holds
 * milliseconds, so every listed table writes created_at from a JS Date, never with `now()`: two
 * rows in one millisecond at microsecond precision would otherwise straddle a page and one be skipped.
 */
export interface Cursor {
  createdAt: Date;
  id: string;
  /** "older": the page after (next); "newer": the page before (previous). */
  direction: 'older' | 'newer';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(
    `${cursor.direction === 'older' ? 'n' : 'p'}|${cursor.createdAt.toISOString()}|${cursor.id}`,
  ).toString('base64url');
}

/**
 * The cursor, or undefined when the text is not one this service made. `isId` says what an id of the
 * list looks like: a uuid unless the list's rows are keyed otherwise (credentials by client_id).
 */
export function decodeCursor(text: string, isId: (id: string) => boolean = (id) => UUID.test(id)): Cursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return undefined;
  const [direction, at, id, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || (direction !== 'n' && direction !== 'p') || !at || !id || !isId(id)) return undefined;
  const createdAt = new Date(at);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== at) return undefined;
  return { createdAt, id, direction: direction === 'n' ? 'older' : 'newer' };
}

export const DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_SIZE = 100;

/** One keyset page to read: its size, and the seek condition and order from its cursor. */
export interface KeysetRead {
  limit: number;
  cursor: Cursor | undefined;
  /** `(created_at, id) < (?, ?)` or `>`; undefined on the first page. */
  seek: string | undefined;
  seekParams: unknown[];
  order: string;
}

/**
 * The page a list request asks for; 422 naming per_page or cursor when it cannot be read. `key`: a
 * list whose rows are keyed by another column than a uuid `id` (credentials by client_id).
 */
export function keysetRead(
  page: { cursor: string; limit: number } | undefined,
  key: { isId?: (id: string) => boolean; idColumn?: string } = {},
): KeysetRead {
  const id = key.idColumn ?? 'id';
  const limit = page?.limit ? page.limit : DEFAULT_PAGE_SIZE;
  if (limit < 1 || limit > MAX_PAGE_SIZE) {
    throw invalidArgument(`per_page must be between 1 and ${MAX_PAGE_SIZE}`, {
      per_page: [`must be between 1 and ${MAX_PAGE_SIZE}`],
    });
  }
  const cursor = page?.cursor ? decodeCursor(page.cursor, key.isId) : undefined;
  if (page?.cursor && !cursor) {
    throw invalidArgument('cursor is not a cursor this API returned', {
      cursor: ['is not a cursor this API returned'],
    });
  }
  const newer = cursor?.direction === 'newer';
  return {
    limit,
    cursor,
    seek: cursor ? `(created_at, ${id}) ${newer ? '>' : '<'} (?, ?)` : undefined,
    seekParams: cursor ? [cursor.createdAt, cursor.id] : [],
    order: newer ? `created_at asc, ${id} asc` : `created_at desc, ${id} desc`,
  };
}

/**
 * The page of rows fetched with `limit + 1` under `read`, newest first, with the cursors of the
 * pages after (older) and before (newer) it.
 */
export function keysetPage<R>(
  rows: readonly R[],
  read: KeysetRead,
  positionOf: (row: R) => { createdAt: Date; id: string },
) {
  const newer = read.cursor?.direction === 'newer';
  const more = rows.length > read.limit;
  const page = rows.slice(0, read.limit);
  if (newer) page.reverse();
  const at = (row: R | undefined, direction: Cursor['direction']) =>
    row ? encodeCursor({ ...positionOf(row), direction }) : undefined;
  // Reading older: newer rows exist whenever we came from a cursor. Reading newer: older rows exist.
  const hasOlder = newer ? true : more;
  const hasNewer = newer ? more : read.cursor !== undefined;
  return {
    rows: page,
    nextCursor: hasOlder ? at(page[page.length - 1], 'older') : undefined,
    previousCursor: hasNewer ? at(page[0], 'newer') : undefined,
    limit: read.limit,
  };
}
