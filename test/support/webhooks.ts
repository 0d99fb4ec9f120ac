import { eventually } from '@corridor/testing';
import { jsonOf, unique } from './customers.js';
import type { Platform } from './platform.js';

/** The scopes of the webhook configuration routes (seed part 5). */
export const WEBHOOK_SCOPES = ['webhook:read', 'webhook:write'];

/**
 * Public addresses written as IP literals: registration resolves every host (seed 2.4, decision
 * 0009) and the tests have no network, so a name would not resolve.
 */
export const PUBLIC_URLS = {
  collection_url: 'https://93.184.215.14/hooks/collection',
  payout_url: 'https://93.184.215.14/hooks/payout',
  kyc_url: 'https://[2606:4700:4700::1111]/kyc',
} as const;

/** A registration as decision 0009 answers it; `signing_secret` only on POST and PUT. */
export interface WebhookJson {
  id: string;
  collection_url: string;
  payout_url: string;
  kyc_url: string | null;
  signing_secret?: string;
  signing_secret_last4: string;
  created_at: string;
  updated_at: string;
}

/** One attempt of a delivery (decision 0010), logged from its start (issue 18). */
export interface AttemptJson {
  number: number;
  trigger: 'scheduled' | 'replay' | 'mock';
  started_at: string;
  /** null while in_flight and when interrupted. */
  duration_ms: number | null;
  outcome: 'in_flight' | 'succeeded' | 'failed' | 'interrupted';
  status_code: number | null;
  error_class: string | null;
  error_message: string | null;
  response_body: string | null;
}

/** A delivery as lists show it (decision 0010); `payload` is the body sent, parsed. */
export interface DeliveryJson {
  id: string;
  event_id: string;
  event: string;
  destination: 'kyc_url' | 'collection_url' | 'payout_url';
  url: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempt_count: number;
  next_attempt_at: string | null;
  mock: boolean;
  payload: { event: string; data: Record<string, unknown> };
  created_at: string;
  updated_at: string;
}

/** GET /webhook/deliveries/{id}: the delivery and its attempts, oldest first. */
export interface DeliveryWithAttemptsJson extends DeliveryJson {
  attempts: AttemptJson[];
}

/** Replay and mock: the delivery with its attempts, and the attempt just made. */
export interface AttemptMadeJson extends DeliveryWithAttemptsJson {
  attempt: AttemptJson;
}

/** GET /webhook/deliveries: the paginated envelope of the customer list (seed 4.4, decision 0010). */
/** A page of the delivery log: a cursor page, or for page=N a numbered one (decision 0018). */
export interface DeliveryPage {
  data: DeliveryJson[];
  links: { first: string | null; last: string | null; prev: string | null; next: string | null };
  meta: {
    path: string;
    per_page: number;
    next_cursor?: string | null;
    prev_cursor?: string | null;
    current_page?: number;
    from?: number | null;
    last_page?: number;
    to?: number | null;
    total?: number;
    total_capped?: boolean;
    [field: string]: unknown;
  };
}

/** A platform business with a token for the webhook routes. */
export interface WebhookCaller {
  token: string;
  businessId: string;
  clientId: string;
}

const BASE = '/api/external';

/**
 * The webhook configuration routes of decision 0009 through a platform's gateway, each helper
 * asserting the documented success status and returning `data`. The raw calls (`call`) are for
 * failure cases.
 */
export class WebhookApi {
  constructor(private readonly platform: Platform) {}

  /**
   * A business whose credentials hold `scopes` (and only those) and a token carrying them: a
   * token lacking a scope is refused for the credential's grant, not only for the token's request.
   */
  async caller(scopes: string[] = WEBHOOK_SCOPES): Promise<WebhookCaller> {
    const business = await this.platform.createBusiness(`Platform ${unique()}`);
    // A suite makes more calls a minute than the default 120 (seed 8): its limits are not under test here.
    await this.platform.patchBusiness(business.id, { rate_limits: { per_minute: 100_000, per_hour: 6_000_000 } });
    const credentials = await this.platform.createCredentials(business.id, { scopes });
    const token = await this.platform.accessToken(credentials, scopes.join(' '));
    return { token, businessId: business.id, clientId: credentials.client_id };
  }

  /** A JSON call to the public API; `body` undefined sends none. */
  call(token: string, method: string, path: string, body?: unknown): Promise<Response> {
    return this.platform.api(`${BASE}${path}`, token, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
  }

  /** `{message, data}` of a success with `status`. */
  private async data<T = WebhookJson>(response: Response, status: number, what: string): Promise<T> {
    const body = await jsonOf<{ message: string; data: T }>(response, status, what);
    // Thrown, not expect()ed: the benches use these helpers outside jest.
    if (typeof body.message !== 'string') throw new Error(`${what}: the answer has no message`);
    return body.data;
  }

  /** POST /webhook (201). */
  async register(token: string, body: Record<string, unknown> = { ...PUBLIC_URLS }): Promise<WebhookJson> {
    return this.data(await this.call(token, 'POST', '/webhook', body), 201, 'register webhook');
  }

  /** PUT /webhook/{id} (200). */
  async update(token: string, id: string, body: Record<string, unknown>): Promise<WebhookJson> {
    return this.data(await this.call(token, 'PUT', `/webhook/${id}`, body), 200, 'update webhook');
  }

  /** GET /webhook (200). */
  async get(token: string): Promise<WebhookJson> {
    return this.data(await this.call(token, 'GET', '/webhook'), 200, 'get webhook');
  }

  // -------------------------------------------------------------------------------------------
  // Deliveries, replay and mock (decision 0010)
  // -------------------------------------------------------------------------------------------

  /** GET /webhook/deliveries with the query as given; the raw response. */
  listCall(token: string, query: Record<string, string | number> = {}): Promise<Response> {
    const search = new URLSearchParams(
      Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
    );
    return this.call(token, 'GET', `/webhook/deliveries${search.size > 0 ? `?${search}` : ''}`);
  }

  /** GET /webhook/deliveries (200): one page. */
  async deliveries(token: string, query: Record<string, string | number> = {}): Promise<DeliveryPage> {
    return jsonOf<DeliveryPage>(await this.listCall(token, query), 200, 'list deliveries');
  }

  /** Every delivery matching the filters, every cursor page read, newest first. */
  async allDeliveries(token: string, query: Record<string, string | number> = {}): Promise<DeliveryJson[]> {
    const all: DeliveryJson[] = [];
    for (let cursor: string | null | undefined = undefined; ;) {
      const answer: DeliveryPage = await this.deliveries(token, {
        ...query,
        per_page: 100,
        ...(cursor ? { cursor } : {}),
      });
      all.push(...answer.data);
      cursor = answer.meta.next_cursor;
      if (!cursor) return all;
    }
  }

  /** GET /webhook/deliveries/{id} (200). */
  async delivery(token: string, id: string): Promise<DeliveryWithAttemptsJson> {
    return this.data(await this.call(token, 'GET', `/webhook/deliveries/${id}`), 200, 'get delivery');
  }

  /** Polls the delivery until `accept` holds (e.g. it has ended); the last one read. */
  async deliveryWhen(
    token: string,
    id: string,
    accept: (delivery: DeliveryWithAttemptsJson) => boolean,
    timeoutMs = 30_000,
  ): Promise<DeliveryWithAttemptsJson> {
    let last: DeliveryWithAttemptsJson | undefined;
    return eventually(
      async () => {
        last = await this.delivery(token, id);
        if (!accept(last)) throw new Error(`delivery ${id} is not there yet: ${JSON.stringify(last)}`);
        return last;
      },
      timeoutMs,
      200,
    );
  }

  /** POST /webhook/deliveries/{id}/replay; the raw response. */
  replayCall(token: string, id: string): Promise<Response> {
    return this.call(token, 'POST', `/webhook/deliveries/${id}/replay`);
  }

  /** POST /webhook/deliveries/{id}/replay (200): the delivery and the attempt made. */
  async replay(token: string, id: string): Promise<AttemptMadeJson> {
    return this.data(await this.replayCall(token, id), 200, 'replay delivery');
  }

  /** POST /webhook/deliveries/replay; the raw response. */
  bulkReplayCall(token: string, body: unknown): Promise<Response> {
    return this.call(token, 'POST', '/webhook/deliveries/replay', body);
  }

  /** POST /webhook/deliveries/replay (202): how many failed deliveries were queued. */
  async bulkReplay(token: string, body: { since: string; until?: string }): Promise<{ queued: number }> {
    return this.data(await this.bulkReplayCall(token, body), 202, 'bulk replay');
  }

  /** POST /webhook/mock; the raw response. */
  mockCall(token: string, body: unknown): Promise<Response> {
    return this.call(token, 'POST', '/webhook/mock', body);
  }

  /** POST /webhook/mock (200): the mock delivery and its one attempt. */
  async mock(token: string, body: { event: string; data?: Record<string, unknown> }): Promise<AttemptMadeJson> {
    return this.data(await this.mockCall(token, body), 200, `mock ${body.event}`);
  }
}
