import { decodeCursor, encodeCursor, keysetRead } from './cursor.js';

describe('keyset cursors', () => {
  const position = { createdAt: new Date('2026-11-24T10:00:00.123Z'), id: '0b7c2a4e-8f1d-4c3a-9e2b-5d6f7a8b9c0d' };

  it('round-trips a position in both directions', () => {
    for (const direction of ['older', 'newer'] as const) {
      expect(decodeCursor(encodeCursor({ ...position, direction }))).toEqual({ ...position, direction });
    }
  });

  it('refuses text it did not make, without throwing', () => {
    const forged = (text: string) => Buffer.from(text).toString('base64url');
    for (const text of [
      '',
      'not base64!',
      forged('x|2026-11-24T10:00:00.123Z|0b7c2a4e-8f1d-4c3a-9e2b-5d6f7a8b9c0d'),
      forged('n|yesterday|0b7c2a4e-8f1d-4c3a-9e2b-5d6f7a8b9c0d'),
      forged('n|2026-11-24T10:00:00.123Z|1 or 1=1'),
      forged('n|2026-11-24T10:00:00.123Z|0b7c2a4e-8f1d-4c3a-9e2b-5d6f7a8b9c0d|extra'),
      'A'.repeat(500),
    ]) {
      expect(decodeCursor(text)).toBeUndefined();
    }
  });

  it('a list keyed by another column seeks and orders on it, and takes only ids of its shape', () => {
    const isClientId = (id: string) => /^ci_test_[0-9a-f]{4}$/.test(id);
    const at = new Date('2026-11-24T10:00:00.123Z');
    const cursor = encodeCursor({ createdAt: at, id: 'ci_test_00ab', direction: 'older' });
    const read = keysetRead({ cursor, limit: 5 }, { isId: isClientId, idColumn: 'client_id' });
    expect(read).toMatchObject({
      seek: '(created_at, client_id) < (?, ?)',
      seekParams: [at, 'ci_test_00ab'],
      order: 'created_at desc, client_id desc',
    });
    // Its cursors are no uuid list's, and a uuid list's are not its.
    expect(() => keysetRead({ cursor, limit: 5 })).toThrow('cursor is not a cursor this API returned');
    const uuidCursor = encodeCursor({ createdAt: at, id: '0b7c2a4e-8f1d-4c3a-9e2b-5d6f7a8b9c0d', direction: 'older' });
    expect(() => keysetRead({ cursor: uuidCursor, limit: 5 }, { isId: isClientId })).toThrow(
      'cursor is not a cursor this API returned',
    );
  });
});
