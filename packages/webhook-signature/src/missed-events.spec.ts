import { listMissedEvents, type HistoryEvent, type HistoryPage } from './index.js';

/** A history of `count` events, newest first as the API pages it, in pages of `perPage`. */
function history(count: number, perPage = 100) {
  const events: HistoryEvent[] = Array.from({ length: count }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(count - i).padStart(12, '0')}`,
    event: 'collection.successful',
    sequence: count - i,
    payload: { event: 'collection.successful', data: { n: count - i } },
    occurred_at: '2026-11-29T10:00:00.000Z',
    created_at: '2026-11-29T10:00:00.000Z',
  }));
  const queries: URLSearchParams[] = [];
  const fetchPage = (query: URLSearchParams): Promise<HistoryPage> => {
    queries.push(query);
    const start = Number(query.get('cursor') ?? 0);
    const next = start + perPage < events.length ? String(start + perPage) : null;
    return Promise.resolve({ data: events.slice(start, start + perPage), meta: { next_cursor: next } });
  };
  return { fetchPage, queries };
}

describe('listMissedEvents (decision 0067)', () => {
  it('answers the numbers after lastSequence that were not seen, oldest first, across every page', async () => {
    const { fetchPage, queries } = history(250, 100);
    const seen = Array.from({ length: 250 }, (_, i) => i + 1).filter((n) => n > 100 && ![117, 180, 250].includes(n));
    const missed = await listMissedEvents({ lastSequence: 100, seen, api: { fetchPage } });
    expect(missed.map((event) => event.sequence)).toEqual([117, 180, 250]);
    expect(missed[0]?.payload).toEqual({ event: 'collection.successful', data: { n: 117 } });
    expect(queries.map((query) => query.get('cursor'))).toEqual([null, '100', '200']);
    expect(queries.every((query) => query.get('per_page') === '100')).toBe(true);
  });

  it('answers nothing when nothing was missed, and everything after lastSequence when nothing was seen', async () => {
    const all = Array.from({ length: 5 }, (_, i) => i + 1);
    expect(await listMissedEvents({ lastSequence: 0, seen: all, api: history(5) })).toEqual([]);
    const missed = await listMissedEvents({ lastSequence: 3, api: history(5) });
    expect(missed.map((event) => event.sequence)).toEqual([4, 5]);
  });

  it('reads the history from `from` on when given', async () => {
    const { fetchPage, queries } = history(3);
    await listMissedEvents({ lastSequence: 0, from: new Date('2026-11-29T09:55:00Z'), api: { fetchPage } });
    expect(queries[0]?.get('from')).toBe('2026-11-29T09:55:00.000Z');
  });

  it('calls GET /api/external/event with the token, and names the status of a refused call', async () => {
    const calls: { url: string; authorization: string | null }[] = [];
    const answers = [
      Response.json({ data: [], meta: { next_cursor: null } }),
      Response.json({ code: 'SCOPE_MISSING' }, { status: 403 }),
    ];
    const fetch = (url: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: String(url), authorization: new Headers(init?.headers).get('authorization') });
      return Promise.resolve(answers.shift() ?? Response.error());
    };
    const api = { baseUrl: 'https://api.corridor.example', token: 'tok_1', fetch: fetch as typeof globalThis.fetch };
    expect(await listMissedEvents({ lastSequence: 0, api })).toEqual([]);
    expect(calls[0]).toEqual({
      url: 'https://api.corridor.example/api/external/event?per_page=100',
      authorization: 'Bearer tok_1',
    });
    await expect(listMissedEvents({ lastSequence: 0, api })).rejects.toThrow(/answered 403/);
    await expect(listMissedEvents({ lastSequence: -1, api })).rejects.toThrow(RangeError);
  });
});
