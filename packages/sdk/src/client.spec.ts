import { signWebhook } from '@corridor/webhook-signature';
import { Corridor, CorridorConnectionError, CorridorError, verifyWebhook, WebhookVerificationError } from './index.js';
import { LocalServer } from './testing/local-server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const WHOAMI = { business_id: 'b1', environment: 'sandbox' };
const HOOKS = {
  collection_url: 'https://example.com/hooks/collection',
  payout_url: 'https://example.com/hooks/payout',
};

describe('Corridor (against a local HTTP server)', () => {
  let server: LocalServer;
  /** A client of `server` whose backoff is short, so the specs take milliseconds, not seconds. */
  const corridor = (options: Partial<ConstructorParameters<typeof Corridor>[0]> = {}) =>
    new Corridor({
      clientId: 'client_1',
      clientSecret: 'secret_1',
      baseUrl: `${server.url}/`,
      retry: { baseDelayMs: 20 },
      ...options,
    });

  beforeEach(async () => {
    server = await LocalServer.start();
  });
  afterEach(() => server.stop());

  describe('access tokens', () => {
    it('fetches none until the first call, then one for many calls, sent as a Bearer token', async () => {
      server.handler = () => ({ status: 200, body: WHOAMI });
      const client = corridor({ scope: ['customer:read', 'transaction:read'] });
      expect(server.received).toHaveLength(0);

      await Promise.all([client.get('/api/external/whoami'), client.get('/api/external/whoami')]);
      await client.get('/api/external/whoami');

      expect(server.tokenRequests).toHaveLength(1);
      const form = new URLSearchParams(server.tokenRequests[0]!.body);
      expect(Object.fromEntries(form)).toEqual({
        grant_type: 'client_credentials',
        client_id: 'client_1',
        client_secret: 'secret_1',
        scope: 'customer:read transaction:read',
      });
      expect(server.tokenRequests[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(server.calls.map((call) => call.headers.authorization)).toEqual([
        'Bearer token-1',
        'Bearer token-1',
        'Bearer token-1',
      ]);
    });

    it('replaces a token shortly before it expires (a tenth of its life early), not after', async () => {
      server.token = () => ({
        status: 200,
        body: { access_token: `token-${++server.tokensIssued}`, token_type: 'Bearer', expires_in: 1, scope: '' },
      });
      server.handler = () => ({ status: 200, body: WHOAMI });
      const client = corridor();
      await client.get('/api/external/whoami');
      await new Promise((resolve) => setTimeout(resolve, 950));
      await client.get('/api/external/whoami');
      expect(server.calls.map((call) => call.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
    });

    it('on 401 TOKEN_EXPIRED fetches a new token and sends the request again, once', async () => {
      server.handler = ({ headers }) =>
        headers.authorization === 'Bearer token-1'
          ? { status: 401, body: { status: false, message: 'the access token has expired', code: 'TOKEN_EXPIRED' } }
          : { status: 200, body: WHOAMI };
      await expect(corridor().get('/api/external/whoami')).resolves.toEqual(WHOAMI);
      expect(server.calls.map((call) => call.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);

      // A token the server keeps refusing as expired: one renewal, then the error.
      server.handler = () => ({
        status: 401,
        body: { status: false, message: 'the access token has expired', code: 'TOKEN_EXPIRED' },
      });
      const fresh = corridor();
      await expect(fresh.get('/api/external/whoami')).rejects.toMatchObject({ status: 401, code: 'TOKEN_EXPIRED' });
      expect(server.tokenRequests).toHaveLength(4);
    });

    it('does not renew on another 401 (a revoked token is not cured by asking again)', async () => {
      server.handler = () => ({
        status: 401,
        body: { status: false, message: 'the access token was revoked', code: 'TOKEN_REVOKED' },
      });
      await expect(corridor().get('/api/external/whoami')).rejects.toMatchObject({
        status: 401,
        code: 'TOKEN_REVOKED',
      });
      expect(server.tokenRequests).toHaveLength(1);
      expect(server.calls).toHaveLength(1);
    });

    it('a refused token request throws its own error (never a token that is not one), and the call is not sent', async () => {
      server.token = () => ({
        status: 400,
        body: {
          error: 'invalid_scope',
          error_description: 'unknown scope "customer:read,customer:write"',
          status: false,
          message: 'unknown scope "customer:read,customer:write"',
          code: 'INVALID_SCOPE',
        },
      });
      const error = await corridor({ scope: 'customer:read,customer:write' })
        .get('/api/external/whoami')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CorridorError);
      expect(error).toMatchObject({
        status: 400,
        code: 'INVALID_SCOPE',
        message: expect.stringContaining('unknown scope'),
      });
      expect(server.calls).toHaveLength(0);
    });
  });

  describe('Idempotency-Key', () => {
    it('every POST carries one: a new UUID per call, or the caller’s; a GET carries none', async () => {
      server.handler = ({ method }) =>
        method === 'POST'
          ? { status: 201, body: { message: 'webhook registered', data: { id: 'w1' } } }
          : { status: 200, body: WHOAMI };
      const client = corridor();
      const body = HOOKS;
      await client.post('/api/external/webhook', { body });
      await client.post('/api/external/webhook', { body });
      await client.post('/api/external/webhook', { body, headers: { 'Idempotency-Key': 'order-42' } });
      await client.get('/api/external/whoami');

      const keys = server.calls.map((call) => call.headers['idempotency-key']);
      expect(keys[0]).toMatch(UUID);
      expect(keys[1]).toMatch(UUID);
      expect(keys[1]).not.toBe(keys[0]);
      expect(keys.slice(2)).toEqual(['order-42', undefined]);
      expect(JSON.parse(server.calls[0]!.body)).toEqual(body);
    });
  });

  describe('retries', () => {
    it('429 and 503 are sent again after the Retry-After the server asked for', async () => {
      const answers = [
        {
          status: 429,
          headers: { 'retry-after': '1' },
          body: { status: false, message: 'slow down', code: 'RATE_LIMITED' },
        },
        {
          status: 503,
          headers: { 'retry-after': '1' },
          body: { status: false, message: 'down', code: 'SERVICE_UNAVAILABLE' },
        },
        { status: 200, body: WHOAMI },
      ];
      server.handler = () => answers.shift() ?? { status: 500 };
      await expect(corridor().get('/api/external/whoami')).resolves.toEqual(WHOAMI);
      const [first, second, third] = server.calls.map((call) => call.at);
      expect(second! - first!).toBeGreaterThanOrEqual(1000);
      expect(third! - second!).toBeGreaterThanOrEqual(1000);
    });

    it('a POST is retried with the same Idempotency-Key after a dropped connection and a 503', async () => {
      const answers: ('drop' | { status: number; body: unknown })[] = [
        'drop',
        { status: 503, body: { status: false, message: 'down', code: 'SERVICE_UNAVAILABLE' } },
        { status: 201, body: { message: 'webhook registered', data: { id: 'w1' } } },
      ];
      server.handler = () => answers.shift() ?? { status: 500 };
      const answer = await corridor().post('/api/external/webhook', {
        body: HOOKS,
      });
      expect(answer).toEqual({ message: 'webhook registered', data: { id: 'w1' } });
      const keys = server.calls.map((call) => call.headers['idempotency-key']);
      expect(keys).toHaveLength(3);
      expect(new Set(keys).size).toBe(1);
      expect(server.calls.map((call) => call.body)).toEqual(Array(3).fill(server.calls[0]!.body));
    });

    it('a 409 IDEMPOTENCY_REQUEST_IN_FLIGHT (the first attempt still running) is waited out', async () => {
      const answers = [
        { status: 409, body: { status: false, message: 'in flight', code: 'IDEMPOTENCY_REQUEST_IN_FLIGHT' } },
        { status: 201, body: { message: 'webhook registered', data: { id: 'w1' } } },
      ];
      server.handler = () => answers.shift() ?? { status: 500 };
      await expect(corridor().post('/api/external/webhook', { body: HOOKS })).resolves.toMatchObject({
        data: { id: 'w1' },
      });
      expect(server.calls).toHaveLength(2);
    });

    it('stops after maxAttempts and throws the last answer’s error', async () => {
      server.handler = () => ({ status: 503, body: { status: false, message: 'down', code: 'SERVICE_UNAVAILABLE' } });
      await expect(
        corridor({ retry: { maxAttempts: 3, baseDelayMs: 10 } }).get('/api/external/whoami'),
      ).rejects.toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(server.calls).toHaveLength(3);
    });

    it('does not sleep through a Retry-After longer than maxDelayMs: the 429 is thrown at once, with retryAfter', async () => {
      server.handler = () => ({
        status: 429,
        headers: { 'retry-after': '3000' },
        body: { status: false, message: 'hourly limit reached', code: 'RATE_LIMITED' },
      });
      await expect(corridor().get('/api/external/whoami')).rejects.toMatchObject({
        status: 429,
        code: 'RATE_LIMITED',
        retryAfter: 3000,
      });
      expect(server.calls).toHaveLength(1);
    });

    it('never retries another 4xx', async () => {
      for (const status of [400, 403, 404, 409, 422]) {
        server.received.length = 0;
        server.handler = () => ({
          status,
          body: { status: false, message: `refused ${status}`, code: `CODE_${status}` },
        });
        await expect(corridor().get('/api/external/whoami')).rejects.toMatchObject({ status, code: `CODE_${status}` });
        expect(server.calls).toHaveLength(1);
      }
    });

    it('no answer at all after every attempt is a CorridorConnectionError', async () => {
      server.handler = () => 'drop';
      const error = await corridor({ retry: { maxAttempts: 2, baseDelayMs: 10 } })
        .get('/api/external/whoami')
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CorridorConnectionError);
      expect(error).toBeInstanceOf(CorridorError);
      expect(error).toMatchObject({ status: 0, code: 'CONNECTION_FAILED' });
      expect(server.calls).toHaveLength(2);
    });
  });

  describe('errors', () => {
    it('carry the body’s code, message and field errors, the status and the request id', async () => {
      server.handler = () => ({
        status: 422,
        headers: { 'x-request-id': 'req-7' },
        body: {
          status: false,
          message: 'The given data was invalid.',
          code: 'VALIDATION_FAILED',
          errors: { currency: ['currency must be one of NGN, GBP, EUR, USD'] },
        },
      });
      const error = await corridor()
        .post('/api/external/virtual-account', { body: { customer_id: 'c1', currency: 'XXX' } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CorridorError);
      expect(error).toMatchObject({
        name: 'CorridorError',
        status: 422,
        code: 'VALIDATION_FAILED',
        message: 'The given data was invalid.',
        errors: { currency: ['currency must be one of NGN, GBP, EUR, USD'] },
        requestId: 'req-7',
      });
    });

    it('a body that is not Corridor’s (a proxy’s page) still gives a status and a code', async () => {
      server.handler = () => ({ status: 502, body: '<html>Bad Gateway</html>' });
      await expect(corridor().get('/api/external/whoami')).rejects.toMatchObject({
        status: 502,
        code: 'HTTP_502',
        message: expect.stringContaining('Bad Gateway'),
      });
    });
  });

  describe('paginate', () => {
    const transactions = Array.from({ length: 5 }, (_, i) => ({ id: `tx-${i + 1}`, amount: (i + 1) * 100 }));
    /** A cursor list of two per page, as the gateway's envelope (decision 0018). */
    const pages = (request: { query: URLSearchParams; path: string }) => {
      const start = Number(request.query.get('cursor') ?? '0');
      const next = start + 2 < transactions.length ? String(start + 2) : null;
      return {
        status: 200,
        body: {
          data: transactions.slice(start, start + 2),
          links: { first: null, last: null, prev: null, next: next && `${server.url}${request.path}?cursor=${next}` },
          meta: { path: `${server.url}${request.path}`, per_page: 2, next_cursor: next, prev_cursor: null },
        },
      };
    };

    it('yields every item, page after page, sending each page’s next_cursor with the same filters', async () => {
      server.handler = pages;
      const seen: string[] = [];
      for await (const tx of corridor().paginate('/api/external/transaction', {
        params: { query: { currency: 'GBP', type: 'COLLECTION', per_page: 2 } },
      })) {
        seen.push(tx.id);
      }
      expect(seen).toEqual(['tx-1', 'tx-2', 'tx-3', 'tx-4', 'tx-5']);
      expect(server.calls.map((call) => Object.fromEntries(call.query))).toEqual([
        { currency: 'GBP', type: 'COLLECTION', per_page: '2' },
        { currency: 'GBP', type: 'COLLECTION', per_page: '2', cursor: '2' },
        { currency: 'GBP', type: 'COLLECTION', per_page: '2', cursor: '4' },
      ]);
    });

    it('fetches no page beyond a break', async () => {
      server.handler = pages;
      for await (const tx of corridor().paginate('/api/external/transaction')) {
        if (tx.id === 'tx-2') break;
      }
      expect(server.calls).toHaveLength(1);
    });

    it('asks the customer list (paged on request only) for cursor pages', async () => {
      server.handler = pages;
      const ids: string[] = [];
      for await (const customer of corridor().paginate('/api/external/customer')) ids.push(customer.id);
      expect(ids).toHaveLength(5);
      expect(server.calls[0]!.query.get('paginate')).toBe('true');
    });

    it('an error on a later page is thrown from the loop', async () => {
      server.handler = (request) =>
        request.query.get('cursor') === '2'
          ? {
              status: 422,
              body: { status: false, message: 'cursor is not a page of this list', code: 'VALIDATION_FAILED' },
            }
          : pages(request);
      const seen: string[] = [];
      const loop = async () => {
        for await (const tx of corridor().paginate('/api/external/transaction')) seen.push(tx.id);
      };
      await expect(loop()).rejects.toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
      expect(seen).toEqual(['tx-1', 'tx-2']);
    });
  });

  it('re-exports verifyWebhook: a signed delivery verifies, a tampered one is refused', () => {
    const rawBody = JSON.stringify({ event: 'collection.successful', data: { transaction_id: 'tx-1' } });
    const headers = signWebhook({
      secret: 'whsec_1',
      body: rawBody,
      timestamp: Math.floor(Date.now() / 1000),
      webhookId: 'wh_1',
    });
    expect(verifyWebhook({ secret: 'whsec_1', rawBody, headers })).toEqual({
      event: 'collection.successful',
      data: { transaction_id: 'tx-1' },
    });
    expect(() => verifyWebhook({ secret: 'whsec_1', rawBody: rawBody.replace('tx-1', 'tx-2'), headers })).toThrow(
      WebhookVerificationError,
    );
  });

  it('refuses to be built without its credentials or base URL', () => {
    expect(() => new Corridor({ clientId: '', clientSecret: 's', baseUrl: 'http://127.0.0.1:1' })).toThrow(/clientId/);
    expect(() => new Corridor({ clientId: 'c', clientSecret: 's', baseUrl: '' })).toThrow(/baseUrl/);
  });
});
