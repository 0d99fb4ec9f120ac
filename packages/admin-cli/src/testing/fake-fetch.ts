import type { CliEnvironment } from '../command-context.js';
import type { Fetch } from '../http.js';

/** One request the CLI made, as the server would see it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export type Responder = (request: RecordedRequest) => Response | Promise<Response>;

export const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fetch that answers from `respond` and records every request, for in-process CLI tests. */
export function fakeFetch(respond: Responder): { fetch: Fetch; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fetch: Fetch = async (url, init) => {
    const request: RecordedRequest = {
      method: init.method ?? 'GET',
      url,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === 'string' ? init.body : undefined,
    };
    requests.push(request);
    return respond(request);
  };
  return { fetch, requests };
}

/** A CLI environment whose output is captured. */
export function captureIo(fetch: Fetch, env: Record<string, string | undefined> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliEnvironment = {
    env,
    fetch,
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}
