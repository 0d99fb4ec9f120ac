import type { WebhookEvent } from './verify.js';

/** An event of the history as GET /api/external/event answers it (decision 0066). */
export interface HistoryEvent {
  id: string;
  event: string;
  /** Its number among the business's events, the x-corridor-sequence of its deliveries (decision 0067). */
  sequence: number;
  /** The body its webhooks carried or would carry. */
  payload: WebhookEvent;
  occurred_at: string;
  created_at: string;
}

/** One cursor page of the history, as the API answers it. */
export interface HistoryPage {
  data: HistoryEvent[];
  meta: { next_cursor: string | null };
}

/** Fetches GET /api/external/event with this query (type, from, to, cursor, per_page) and answers its JSON. */
export type FetchHistoryPage = (query: URLSearchParams) => Promise<HistoryPage>;

export interface ListMissedEventsInput {
  /** Every sequence number up to this one was received; 0 when none was. */
  lastSequence: number;
  /** Numbers received after lastSequence (out of order, or past a gap). */
  seen?: Iterable<number>;
  /**
   * Read the history from this instant on (its `from`). Numbers follow commit order, not created_at:
   * give a few minutes before the lastSequence event was received. Default: the whole history (30 days).
   */
  from?: Date;
  /** The API's origin and a token with webhook:read; or fetchPage to call it your own way. */
  api: { baseUrl: string; token: string; fetch?: typeof fetch } | { fetchPage: FetchHistoryPage };
}

/** The largest page the history serves. */
const PER_PAGE = 100;

function fetchWithToken({
  baseUrl,
  token,
  fetch: send = fetch,
}: {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
}) {
  return async (query: URLSearchParams): Promise<HistoryPage> => {
    const url = new URL(`/api/external/event?${query.toString()}`, baseUrl);
    const response = await send(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    if (!response.ok) {
      throw new Error(`GET ${url.pathname} answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
    }
    return (await response.json()) as HistoryPage;
  };
}

/**
 * The events a receiver missed (decision 0067): those of the history numbered after `lastSequence`
 * that are not in `seen`, oldest number first. Reads every page of the history from `from` on; an
 * event the receiver has seen is never answered, and an event the history holds is never left out.
 */
export async function listMissedEvents({
  lastSequence,
  seen = [],
  from,
  api,
}: ListMissedEventsInput): Promise<HistoryEvent[]> {
  if (!Number.isSafeInteger(lastSequence) || lastSequence < 0) {
    throw new RangeError(`lastSequence must be a whole number from 0; got ${String(lastSequence)}`);
  }
  const fetchPage = 'fetchPage' in api ? api.fetchPage : fetchWithToken(api);
  const received = new Set(seen);
  const missed = new Map<number, HistoryEvent>();
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ per_page: String(PER_PAGE) });
    if (from) query.set('from', from.toISOString());
    if (cursor) query.set('cursor', cursor);
    const page = await fetchPage(query);
    for (const event of page.data) {
      if (event.sequence > lastSequence && !received.has(event.sequence)) missed.set(event.sequence, event);
    }
    cursor = page.meta.next_cursor;
  } while (cursor);
  return [...missed.values()].sort((a, b) => a.sequence - b.sequence);
}
