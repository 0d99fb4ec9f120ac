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
  private async data(response: Response, status: number, what: string): Promise<WebhookJson> {
    const body = await jsonOf<{ message: string; data: WebhookJson }>(response, status, what);
    expect(typeof body.message).toBe('string');
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
}
