import { AdminApiError, CliError } from './errors.js';

/** The slice of the global fetch the CLI uses; tests pass a fake. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** An operator waiting at a terminal should hear about a hung gateway, not wait forever. */
export const REQUEST_TIMEOUT_MS = 10_000;

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function fieldErrors(value: unknown): Record<string, string[]> {
  if (!isRecord(value)) return {};
  const errors: Record<string, string[]> = {};
  for (const [field, problems] of Object.entries(value)) {
    errors[field] = Array.isArray(problems) ? problems.map(String) : [String(problems)];
  }
  return errors;
}

/** Corridor's error body when there is one; else the start of whatever came back (a proxy's page). */
function errorFromResponse(status: number, text: string): AdminApiError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new AdminApiError(
      text.trim().slice(0, 200) || 'the server answered with an empty body',
      status,
      undefined,
      {},
    );
  }
  if (isRecord(body) && typeof body.message === 'string') {
    return new AdminApiError(
      body.message,
      status,
      typeof body.code === 'string' ? body.code : undefined,
      fieldErrors(body.errors),
    );
  }
  return new AdminApiError(text.slice(0, 200), status, undefined, {});
}

/** Sends one request; a refused connection or a timeout becomes a sentence naming the address. */
export async function send(fetchImpl: Fetch, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetchImpl(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError')
      throw new CliError(`${url} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s`);
    // fetch says only "fetch failed"; its cause says why (ECONNREFUSED, ENOTFOUND, "bad port").
    const cause = error instanceof Error && isRecord(error.cause) ? error.cause : undefined;
    const reason =
      typeof cause?.code === 'string'
        ? cause.code
        : typeof cause?.message === 'string'
          ? cause.message
          : error instanceof Error
            ? error.message
            : String(error);
    throw new CliError(`cannot reach ${url}: ${reason}`);
  }
}

/** The JSON body of a 2xx response, or the API's error as an AdminApiError. */
export async function jsonOrError(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!response.ok) throw errorFromResponse(response.status, text);
  return text ? (JSON.parse(text) as unknown) : null;
}
