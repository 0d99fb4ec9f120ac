/**
 * Keyset cursors on (created_at, id), newest first (DESIGN.md "Lists stay flat"). Opaque to
 * clients: base64url of the position and the direction to read from it.
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

/** The cursor, or undefined when the text is not one this service made. */
export function decodeCursor(text: string): Cursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return undefined;
  const [direction, at, id, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (rest.length > 0 || (direction !== 'n' && direction !== 'p') || !at || !id || !UUID.test(id)) return undefined;
  const createdAt = new Date(at);
  if (Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== at) return undefined;
  return { createdAt, id, direction: direction === 'n' ? 'older' : 'newer' };
}
