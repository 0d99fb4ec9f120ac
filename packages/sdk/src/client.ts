import { randomUUID } from 'node:crypto';
import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, MediaType, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import { CorridorConnectionError, CorridorError, retryAfterSeconds } from './errors.js';
import type { paths } from './generated/schema.js';
import { DEFAULT_RETRY_POLICY, RETRIED_STATUSES, retryDelayMs, sleep, type RetryPolicy } from './retry.js';
import { AccessTokens } from './tokens.js';

export interface CorridorOptions {
  clientId: string;
  clientSecret: string;
  /** The gateway's public URL, e.g. https://sandbox.example.com or http://127.0.0.1:8080. */
  baseUrl: string;
  /** The scopes to request, space-separated or as a list; unset, the server decides. */
  scope?: string | readonly string[];
  /** Overrides of the retry rules (decision 0032). */
  retry?: Partial<RetryPolicy>;
  /** The fetch to send with; the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/** The path of every operation with `method`. */
export type PathOf<M extends HttpMethod> = PathsWithMethod<paths, M>;

/** What a method accepts besides the path: params (path, query, header) and body, as the document types them. */
export type InitOf<P extends keyof paths, M extends HttpMethod> = MaybeOptionalInit<paths[P], M>;

/** openapi-fetch's rule: the init may be left out when nothing in it is required. */
type InitParam<Init> =
  RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

/** The successful answer's body (undefined only for an operation that answers none). */
export type DataOf<P extends keyof paths, M extends HttpMethod, I = object> =
  SuccessData<P, M, I> extends undefined ? undefined : NonNullable<SuccessData<P, M, I>>;

type SuccessData<P extends keyof paths, M extends HttpMethod, I> = Extract<
  FetchResponse<paths[P][M] & Record<string | number, unknown>, I, MediaType>,
  { error?: never }
>['data'];

type GetData<P extends PathOf<'get'>> = NonNullable<DataOf<P, 'get'>>;

/** The lists: GET operations answering `{data: [...], meta}` in the cursor envelope (decision 0018). */
export type ListPath = {
  [P in PathOf<'get'>]: [Extract<GetData<P>, { data: readonly unknown[]; meta: unknown }>] extends [never] ? never : P;
}[PathOf<'get'>];

/** One item of a list. */
export type ItemOf<P extends ListPath> = GetData<P> extends { data: readonly (infer T)[] } ? T : never;

/**
 * Lists whose default answer is not paged (seed 9: the customer list gained opt-in pagination
 * without changing its default shape): paginate asks for the cursor pages with paginate=true.
 */
const OPT_IN_PAGINATION = new Set<string>(['/api/external/customer']);

/** Methods the HTTP semantics make safe to repeat; POST is made so by its Idempotency-Key. */
const REPEATABLE = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'POST']);

/**
 * The Corridor API, typed from its OpenAPI document. Each call gets an access token (fetched on
 * first use, replaced before it expires), an Idempotency-Key if it is a POST, and retries with
 * backoff on 429, 503 and dropped connections; an unsuccessful answer throws a CorridorError.
 *
 * `client` is the underlying openapi-fetch client, with the same tokens and retries, for callers
 * that want `{ data, error, response }` instead of exceptions.
 */
export class Corridor {
  readonly client: Client<paths>;
  private readonly tokens: AccessTokens;
  private readonly retry: RetryPolicy;
  private readonly fetch: typeof globalThis.fetch;

  constructor(options: CorridorOptions) {
    for (const name of ['clientId', 'clientSecret', 'baseUrl'] as const) {
      if (typeof options[name] !== 'string' || options[name] === '') {
        throw new TypeError(`Corridor: ${name} is required`);
      }
    }
    const baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    if (!Number.isInteger(this.retry.maxAttempts) || this.retry.maxAttempts < 1) {
      throw new RangeError('Corridor: retry.maxAttempts must be a whole number >= 1');
    }
    this.fetch = options.fetch ?? globalThis.fetch;
    const scope =
      typeof options.scope === 'string' || options.scope === undefined ? options.scope : options.scope.join(' ');
    this.tokens = new AccessTokens({
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scope,
      tokenUrl: `${baseUrl}/oauth/token`,
      send: (request) => this.withRetries(request),
      now: () => Date.now(),
    });
    this.client = createClient<paths>({ baseUrl, fetch: (request) => this.send(request) });
  }

  /** GET `path`: the answer's body, or a thrown CorridorError. */
  get<P extends PathOf<'get'>, I extends InitOf<P, 'get'>>(
    path: P,
    ...init: InitParam<I>
  ): Promise<DataOf<P, 'get', I>> {
    return this.dataOf(this.client.GET(path, ...(init as [never])));
  }

  /** POST `path` with an Idempotency-Key (yours, if `headers` carries one). */
  post<P extends PathOf<'post'>, I extends InitOf<P, 'post'>>(
    path: P,
    ...init: InitParam<I>
  ): Promise<DataOf<P, 'post', I>> {
    return this.dataOf(this.client.POST(path, ...(init as [never])));
  }

  put<P extends PathOf<'put'>, I extends InitOf<P, 'put'>>(
    path: P,
    ...init: InitParam<I>
  ): Promise<DataOf<P, 'put', I>> {
    return this.dataOf(this.client.PUT(path, ...(init as [never])));
  }

  patch<P extends PathOf<'patch'>, I extends InitOf<P, 'patch'>>(
    path: P,
    ...init: InitParam<I>
  ): Promise<DataOf<P, 'patch', I>> {
    return this.dataOf(this.client.PATCH(path, ...(init as [never])));
  }

  delete<P extends PathOf<'delete'>, I extends InitOf<P, 'delete'>>(
    path: P,
    ...init: InitParam<I>
  ): Promise<DataOf<P, 'delete', I>> {
    return this.dataOf(this.client.DELETE(path, ...(init as [never])));
  }

  /**
   * Every item of a list, page after page: `for await (const tx of corridor.paginate('/api/external/transaction',
   * { params: { query: { currency: 'GBP' } } }))`. Follows `meta.next_cursor` with the same filters;
   * a page is fetched only when the previous one has been iterated, and `break` fetches no more.
   */
  async *paginate<P extends ListPath, I extends InitOf<P, 'get'>>(
    path: P,
    ...init: InitParam<I>
  ): AsyncGenerator<ItemOf<P>, void, undefined> {
    const first = (init[0] ?? {}) as { params?: { query?: Record<string, unknown> } };
    const query: Record<string, unknown> = {
      ...(OPT_IN_PAGINATION.has(path) ? { paginate: 'true' } : {}),
      ...first.params?.query,
    };
    if (query.page !== undefined) {
      throw new TypeError('paginate follows cursor pages: leave out `page` (a numbered page is one get() call)');
    }
    for (;;) {
      const request = { ...first, params: { ...first.params, query } };
      const page = (await this.get(path as PathOf<'get'>, request as never)) as unknown as {
        data: ItemOf<P>[];
        meta: { next_cursor?: string | null };
      };
      yield* page.data;
      const next = page.meta.next_cursor;
      if (typeof next !== 'string' || next === '' || page.data.length === 0) return;
      query.cursor = next;
    }
  }

  private async dataOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
    const { data, error, response } = await call;
    if (!response.ok) throw CorridorError.answered(response, error);
    return data as T;
  }

  /** Every API request: the token, the POST's Idempotency-Key, and one new token on 401 TOKEN_EXPIRED. */
  private async send(request: Request): Promise<Response> {
    if (request.method === 'POST' && !request.headers.has('idempotency-key')) {
      // Set once, before the first attempt, so every retry is the same request to the server.
      request.headers.set('idempotency-key', randomUUID());
    }
    for (let renewed = false; ; renewed = true) {
      const token = await this.tokens.current();
      const attempt = request.clone();
      attempt.headers.set('authorization', `Bearer ${token}`);
      const response = await this.withRetries(attempt);
      if (response.status !== 401 || renewed || (await codeOf(response)) !== 'TOKEN_EXPIRED') return response;
      // Expired early (a clock ahead of ours, a revoked signing key): one fresh token, once.
      await response.body?.cancel();
      this.tokens.invalidate(token);
    }
  }

  /** Sends `request`, again after a wait on 429, 503 or a dropped connection, up to maxAttempts in all. */
  private async withRetries(request: Request): Promise<Response> {
    const { maxAttempts, maxDelayMs } = this.retry;
    const repeatable = REPEATABLE.has(request.method);
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= maxAttempts;
      let response: Response;
      try {
        response = await this.fetch(request.clone());
      } catch (error) {
        if (request.signal.aborted) throw error;
        if (last || !repeatable) {
          throw new CorridorConnectionError(
            `${request.method} ${new URL(request.url).pathname}: no answer after ${attempt} attempt(s): ${describe(error)}`,
            error,
          );
        }
        await sleep(retryDelayMs(this.retry, attempt, undefined), request.signal);
        continue;
      }
      // 429: refused before anything was done, so safe for any method; 503 only for repeatable ones;
      // 409 IDEMPOTENCY_REQUEST_IN_FLIGHT: an earlier attempt of this POST is still running.
      const retried =
        response.status === 429 ||
        (RETRIED_STATUSES.has(response.status) && repeatable) ||
        (response.status === 409 &&
          request.headers.has('idempotency-key') &&
          (await codeOf(response)) === 'IDEMPOTENCY_REQUEST_IN_FLIGHT');
      if (!retried || last) return response;
      const after = retryAfterSeconds(response.headers.get('retry-after'));
      // A wait longer than the ceiling (an hourly limit) is the caller's decision, not a hidden sleep.
      if (after !== undefined && after * 1000 > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(retryDelayMs(this.retry, attempt, after), request.signal);
    }
  }
}

/** The error code of a response, read from a copy so the response stays readable. */
async function codeOf(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body.code === 'string' ? body.code : undefined;
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
