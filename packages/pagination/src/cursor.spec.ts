import { decodeCursor, encodeCursor } from './cursor.js';

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
});
