import { query } from '@corridor/testing';
import { expectInvalid, jsonOf } from '../support/customers.js';
import { OpenApiContract } from '../support/openapi.js';
import { expectError, Platform } from '../support/platform.js';
import { PUBLIC_URLS, type WebhookCaller, type WebhookJson } from '../support/webhooks.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Decision 0009: `whsec_` and 32 random bytes, base64url (43 characters, no padding). */
const SIGNING_SECRET = /^whsec_[A-Za-z0-9_-]{43}$/;
/** What POST and PUT answer in `data`; GET answers the same without `signing_secret`. */
const WRITE_FIELDS = [
  'collection_url',
  'created_at',
  'id',
  'kyc_url',
  'payout_url',
  'signing_secret',
  'signing_secret_last4',
  'updated_at',
];
const READ_FIELDS = [...WRITE_FIELDS.filter((field) => field !== 'signing_secret'), 'url_health'].sort();

/** A registered URL that has never failed (decision 0068). */
const HEALTHY = { status: 'enabled', disabled_at: null, reason: null, failing_since: null, consecutive_failures: 0 };

/** Other public addresses, to see a change land. */
const OTHER_URLS = {
  collection_url: 'https://93.184.216.34/other/collection',
  payout_url: 'https://93.184.216.34/other/payout',
  kyc_url: 'https://[2606:4700:4700::1001]/other/kyc',
};

/**
 * Seed 2.4 "publicly resolvable": each URL with the field it is sent in (all three are checked) and
 * what the reason must say: the address and the kind of range (decision 0009, @corridor/ssrf-guard).
 */
const NOT_PUBLIC: [url: string, field: 'collection_url' | 'payout_url' | 'kyc_url', reason: RegExp][] = [
  ['https://127.0.0.1/', 'collection_url', /127\.0\.0\.1.*loopback/],
  ['https://10.0.0.1/', 'payout_url', /10\.0\.0\.1.*private/],
  ['https://169.254.169.254/latest', 'kyc_url', /169\.254\.169\.254.*link-local/],
  ['https://[::1]/', 'collection_url', /::1.*loopback/],
  ['https://[::ffff:127.0.0.1]/', 'payout_url', /IPv4-mapped.*127\.0\.0\.1/],
  ['https://100.64.0.1/', 'kyc_url', /100\.64\.0\.1.*(carrier-grade NAT|shared)/],
  ['https://localhost/', 'collection_url', /localhost.*loopback/],
  ['https://nonexistent.invalid/', 'payout_url', /nonexistent\.invalid.*(could not be resolved|does not resolve)/],
];

describe('webhooks: configuration, one registration per business (seed 2.4, 4.3, 5; decision 0009)', () => {
  const platform = Platform.shared();
  const api = platform.webhooks;
  let contract: OpenApiContract;

  beforeAll(async () => {
    await platform.start();
    contract = await OpenApiContract.load(platform.publicUrl);
  });
  afterAll(() => platform.stop());

  const post = (caller: WebhookCaller, body: unknown) => api.call(caller.token, 'POST', '/webhook', body);
  const put = (caller: WebhookCaller, id: string, body: unknown) =>
    api.call(caller.token, 'PUT', `/webhook/${id}`, body);
  const get = (caller: WebhookCaller) => api.call(caller.token, 'GET', '/webhook');

  /** A business with both webhook scopes and a registration of PUBLIC_URLS (or `body`). */
  const registered = async (body: Record<string, unknown> = { ...PUBLIC_URLS }) => {
    const caller = await api.caller();
    return { caller, webhook: await api.register(caller.token, body) };
  };

  /** The caller has no registration: GET answers 404. */
  const expectUnregistered = async (caller: WebhookCaller) => {
    await expectError(await get(caller), 404);
  };

  describe('register (seed 4.3)', () => {
    it('seed 4.3: POST /webhook registers collection_url, payout_url and kyc_url and returns the signing_secret', async () => {
      const caller = await api.caller();
      const before = Date.now();
      const body = await jsonOf<{ message: string; data: WebhookJson }>(
        await post(caller, PUBLIC_URLS),
        201,
        'register',
      );
      expect(Object.keys(body).sort()).toEqual(['data', 'message']);
      expect(typeof body.message).toBe('string');
      const { data } = body;
      expect(Object.keys(data).sort()).toEqual(WRITE_FIELDS);
      expect(data).toMatchObject({ ...PUBLIC_URLS, id: expect.stringMatching(UUID) });
      expect(data.signing_secret).toMatch(SIGNING_SECRET);
      expect(data.signing_secret_last4).toBe(data.signing_secret?.slice(-4));
      for (const stamp of [data.created_at, data.updated_at]) {
        expect(Math.abs(Date.parse(stamp) - before)).toBeLessThan(60_000);
      }
      // What was registered is what is read back.
      expect(await api.get(caller.token)).toEqual({
        ...PUBLIC_URLS,
        id: data.id,
        signing_secret_last4: data.signing_secret_last4,
        created_at: data.created_at,
        updated_at: data.updated_at,
        url_health: { collection_url: HEALTHY, payout_url: HEALTHY, kyc_url: HEALTHY },
      });
    });

    it('seed 2.4: kyc_url is optional; a registration without it answers kyc_url null', async () => {
      const { collection_url, payout_url } = PUBLIC_URLS;
      const { caller, webhook } = await registered({ collection_url, payout_url });
      expect(webhook).toMatchObject({ collection_url, payout_url, kyc_url: null });
      expect(await api.get(caller.token)).toMatchObject({ collection_url, payout_url, kyc_url: null });
    });

    it('seed 2.4: one signing_secret per business: two businesses get different secrets', async () => {
      const [first, second] = await Promise.all([registered(), registered()]);
      expect(first.webhook.signing_secret).toMatch(SIGNING_SECRET);
      expect(second.webhook.signing_secret).toMatch(SIGNING_SECRET);
      expect(first.webhook.signing_secret).not.toBe(second.webhook.signing_secret);
      expect(first.webhook.id).not.toBe(second.webhook.id);
    });

    it('decision 0009: a second POST /webhook is 409 WEBHOOK_ALREADY_REGISTERED naming the id to PUT', async () => {
      const { caller, webhook } = await registered();
      await expectError(await post(caller, OTHER_URLS), 409, {
        code: 'WEBHOOK_ALREADY_REGISTERED',
        message: new RegExp(webhook.id),
      });
      // The refused POST changed nothing.
      expect(await api.get(caller.token)).toMatchObject({
        ...PUBLIC_URLS,
        id: webhook.id,
        signing_secret_last4: webhook.signing_secret_last4,
        updated_at: webhook.updated_at,
      });
    });
    it('decision 0009: one registration per business, even for concurrent POSTs', async () => {
      const caller = await api.caller();
      const responses = await Promise.all(Array.from({ length: 5 }, () => post(caller, PUBLIC_URLS)));
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409]);
      const winner = responses.find((response) => response.status === 201);
      const { data } = await jsonOf<{ data: WebhookJson }>(winner ?? responses[0]!, 201, 'register');
      for (const response of responses.filter((r) => r.status === 409)) {
        await expectError(response, 409, { code: 'WEBHOOK_ALREADY_REGISTERED', message: new RegExp(data.id) });
      }
      expect((await api.get(caller.token)).id).toBe(data.id);
    });

    it('decision 0009: the signing secret is stored encrypted, never in the clear', async () => {
      const { webhook } = await registered();
      const secret = String(webhook.signing_secret);
      const key = Buffer.from(secret.slice('whsec_'.length), 'base64url');
      expect(key).toHaveLength(32);
      // Every row of every table of notification's database, as text (bytea shows as hex).
      const url = platform.notificationDb?.url ?? '';
      const tables = await query<{ table_name: string }>(
        url,
        "select table_name from information_schema.tables where table_schema = 'public'",
      );
      const dump = (
        await Promise.all(
          tables.map(({ table_name }) =>
            query<{ row: string }>(url, `select row_to_json(t)::text as row from "${table_name}" t`),
          ),
        )
      )
        .flat()
        .map(({ row }) => row)
        .join('\n');
      expect(dump).toContain(webhook.id);
      for (const form of [
        secret,
        secret.slice('whsec_'.length),
        Buffer.from(secret).toString('hex'),
        key.toString('hex'),
        key.toString('base64'),
      ]) {
        expect({ form, stored: dump.includes(form) }).toEqual({ form, stored: false });
      }
    });
  });

  describe('update (seed 4.3; decision 0009)', () => {
    it('seed 4.3: PUT /webhook/{id} adds kyc_url to an existing registration', async () => {
      const { collection_url, payout_url, kyc_url } = PUBLIC_URLS;
      const { caller, webhook } = await registered({ collection_url, payout_url });
      const updated = await api.update(caller.token, webhook.id, { kyc_url });
      expect(Object.keys(updated).sort()).toEqual(WRITE_FIELDS);
      expect(updated).toMatchObject({ id: webhook.id, collection_url, payout_url, kyc_url });
      // Seed 4.3: PUT returns signing_secret too; decision 0009: the same one, never changed by PUT.
      expect(updated.signing_secret).toBe(webhook.signing_secret);
      expect(updated.signing_secret_last4).toBe(webhook.signing_secret_last4);
      expect(updated.created_at).toBe(webhook.created_at);
      expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(webhook.updated_at));
      expect(await api.get(caller.token)).toMatchObject({ id: webhook.id, collection_url, payout_url, kyc_url });
    });

    it('seed 2.1 rule 2, decision 0009: a property omitted on PUT is left untouched', async () => {
      const { caller, webhook } = await registered();
      const updated = await api.update(caller.token, webhook.id, { payout_url: OTHER_URLS.payout_url });
      const expected = { ...PUBLIC_URLS, payout_url: OTHER_URLS.payout_url, id: webhook.id };
      expect(updated).toMatchObject({ ...expected, signing_secret: webhook.signing_secret });
      expect(await api.get(caller.token)).toMatchObject(expected);

      // Every property at once, then none: {} changes nothing.
      await api.update(caller.token, webhook.id, OTHER_URLS);
      const unchanged = await api.update(caller.token, webhook.id, {});
      expect(unchanged).toMatchObject({ ...OTHER_URLS, id: webhook.id, signing_secret: webhook.signing_secret });
      expect(await api.get(caller.token)).toMatchObject(OTHER_URLS);
    });

    it('decision 0009: kyc_url: null on PUT removes it', async () => {
      const { caller, webhook } = await registered();
      expect(webhook.kyc_url).toBe(PUBLIC_URLS.kyc_url);
      const updated = await api.update(caller.token, webhook.id, { kyc_url: null });
      expect(updated).toMatchObject({
        collection_url: PUBLIC_URLS.collection_url,
        payout_url: PUBLIC_URLS.payout_url,
        kyc_url: null,
      });
      expect((await api.get(caller.token)).kyc_url).toBeNull();
    });

    it('seed 2.4, decision 0009: collection_url and payout_url cannot be removed: null on PUT is 422', async () => {
      const { caller, webhook } = await registered();
      await expectInvalid(await put(caller, webhook.id, { collection_url: null }), { collection_url: /\S/ });
      await expectInvalid(await put(caller, webhook.id, { payout_url: null, kyc_url: null }), {
        payout_url: /\S/,
      });
      // A refused PUT changes nothing, not even the valid part of it.
      expect(await api.get(caller.token)).toMatchObject({ ...PUBLIC_URLS, updated_at: webhook.updated_at });
    });

    it('seed 2.4: PUT checks each URL as POST does', async () => {
      const { caller, webhook } = await registered();
      await expectInvalid(await put(caller, webhook.id, { kyc_url: 'https://10.0.0.7/kyc' }), {
        kyc_url: /10\.0\.0\.7.*private/,
      });
      await expectInvalid(await put(caller, webhook.id, { payout_url: 'http://93.184.215.14/hooks/payout' }), {
        payout_url: /https/,
      });
      expect(await api.get(caller.token)).toMatchObject({ ...PUBLIC_URLS, updated_at: webhook.updated_at });
    });
  });

  describe('read (decision 0009)', () => {
    it('decision 0009: GET /webhook returns the registration without signing_secret, with its last four characters', async () => {
      const { caller, webhook } = await registered();
      const response = await get(caller);
      const text = await response.text();
      expect({ status: response.status, text }).toMatchObject({ status: 200 });
      const secret = String(webhook.signing_secret);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice('whsec_'.length));
      const { data } = JSON.parse(text) as { data: WebhookJson };
      expect(Object.keys(data).sort()).toEqual(READ_FIELDS);
      expect(data).toEqual({
        id: webhook.id,
        ...PUBLIC_URLS,
        signing_secret_last4: secret.slice(-4),
        created_at: webhook.created_at,
        updated_at: webhook.updated_at,
        url_health: { collection_url: HEALTHY, payout_url: HEALTHY, kyc_url: HEALTHY },
      });
    });

    it('decision 0009: GET /webhook before any registration is 404', async () => {
      const caller = await api.caller();
      await expectError(await get(caller), 404, { message: /webhook/i });
    });
  });

  describe('URLs (seed 2.4)', () => {
    it('seed 2.4: URLs must be HTTPS', async () => {
      const caller = await api.caller();
      await expectInvalid(
        await post(caller, { ...PUBLIC_URLS, collection_url: 'http://93.184.215.14/hooks/collection' }),
        { collection_url: /https/ },
      );
      await expectInvalid(await post(caller, { ...PUBLIC_URLS, kyc_url: 'ftp://93.184.215.14/kyc' }), {
        kyc_url: /https/,
      });
      await expectUnregistered(caller);
    });

    it.each(NOT_PUBLIC)(
      'seed 2.4: URLs must be publicly resolvable: %s in %s is 422 with the reason',
      async (url, field, reason) => {
        const caller = await api.caller();
        const { message } = await expectInvalid(await post(caller, { ...PUBLIC_URLS, [field]: url }), {
          [field]: reason,
        });
        expect(message).toMatch(new RegExp(`^${field} `));
        await expectUnregistered(caller);
      },
    );

    it('seed 2.4: several bad URLs are reported at once in errors', async () => {
      const caller = await api.caller();
      await expectInvalid(
        await post(caller, {
          collection_url: 'http://93.184.215.14/hooks/collection',
          payout_url: 'https://10.0.0.1/payout',
          kyc_url: 'not a url',
        }),
        { collection_url: /https/, payout_url: /10\.0\.0\.1.*private/, kyc_url: /absolute URL|not a URL/i },
      );
      await expectUnregistered(caller);
    });

    it('seed 2.4: collection_url and payout_url are required, and each URL is a string', async () => {
      const caller = await api.caller();
      await expectInvalid(await post(caller, {}), { collection_url: /required/, payout_url: /required/ });
      await expectInvalid(await post(caller, { ...PUBLIC_URLS, collection_url: 42, kyc_url: ['https://x'] }), {
        collection_url: /string/,
        kyc_url: /string/,
      });
      await expectUnregistered(caller);
    });

    it('decision 0009: a URL is at most 2048 characters and carries no credentials', async () => {
      const caller = await api.caller();
      const base = 'https://93.184.215.14/';
      const atLimit = `${base}${'a'.repeat(2048 - base.length)}`;
      await expectInvalid(await post(caller, { ...PUBLIC_URLS, payout_url: `${atLimit}a` }), { payout_url: /2048/ });
      await expectInvalid(
        await post(caller, { ...PUBLIC_URLS, collection_url: 'https://user:pass@93.184.215.14/hooks' }),
        { collection_url: /user name or password|credentials/ },
      );
      await expectUnregistered(caller);
      // The limit itself is allowed.
      expect((await api.register(caller.token, { ...PUBLIC_URLS, payout_url: atLimit })).payout_url).toBe(atLimit);
    });

    it.each([
      ['a scheme in capitals', 'HTTPS://93.184.215.14/hooks/collection'],
      ['a leading space', ' https://93.184.215.14/hooks/collection'],
      ['a non-ASCII path', 'https://93.184.215.14/hooks/ü'],
      // 422 characters as sent, 2422 once percent-encoded: the limit is on what is registered.
      ['a path that percent-encoding takes past 2048 characters', `https://93.184.215.14/${'ü'.repeat(400)}`],
    ])(
      'decision 0009: a URL is registered only in the form the document promises (https://, a URI, at most 2048 characters): %s',
      async (_case, url) => {
        const caller = await api.caller();
        const response = await post(caller, { ...PUBLIC_URLS, collection_url: url });
        // Normalised (as WHATWG URL parses it) or refused: either way the answer is the documented one.
        expect([201, 422]).toContain(response.status);
        await contract.expectDocumented(response, 'post', '/api/external/webhook');
      },
    );

    it('decision 0009: an unknown field is 422 naming it', async () => {
      const caller = await api.caller();
      await expectInvalid(await post(caller, { ...PUBLIC_URLS, signing_secret: 'whsec_chosen_by_the_platform' }), {
        signing_secret: /not a recognised field|unknown/,
      });
      await expectUnregistered(caller);
      const { caller: owner, webhook } = await registered();
      await expectInvalid(await put(owner, webhook.id, { events: ['collection.completed'] }), {
        events: /not a recognised field|unknown/,
      });
    });

    it('decision 0009: a body that is not a JSON object is 422 at (body)', async () => {
      const caller = await api.caller();
      await expectInvalid(await post(caller, [PUBLIC_URLS]), { '(body)': /JSON object/ });
      const { caller: owner, webhook } = await registered();
      await expectInvalid(await put(owner, webhook.id, [{ kyc_url: null }]), { '(body)': /JSON object/ });
      await expectUnregistered(caller);
    });
  });

  describe('scopes (seed 5)', () => {
    it('seed 5: webhook:write is required to register or change', async () => {
      const { webhook } = await registered();
      const reader = await api.caller(['webhook:read']);
      const refusal = { code: 'SCOPE_MISSING', message: /requires the scope webhook:write/ };
      await expectError(await post(reader, PUBLIC_URLS), 403, refusal);
      await expectError(await put(reader, webhook.id, { kyc_url: null }), 403, refusal);
      await expectError(await put(reader, UNKNOWN, { kyc_url: null }), 403, refusal);
      // The control: webhook:read alone reads (nothing registered yet), and registered nothing.
      await expectUnregistered(reader);
    });

    it('seed 5: webhook:read is required to read', async () => {
      const writer = await api.caller(['webhook:write']);
      // The control: webhook:write alone registers and changes.
      const webhook = await api.register(writer.token);
      await api.update(writer.token, webhook.id, { kyc_url: null });
      await expectError(await get(writer), 403, { code: 'SCOPE_MISSING', message: /requires the scope webhook:read/ });
    });
  });

  describe('tenancy', () => {
    it('decision 0009: PUT with another business’s webhook id is 404, and neither registration changes', async () => {
      const [first, second] = await Promise.all([registered(), registered({ ...OTHER_URLS })]);
      await expectError(
        await put(second.caller, first.webhook.id, { collection_url: OTHER_URLS.collection_url }),
        404,
        {
          message: /webhook/i,
        },
      );
      expect(await api.get(first.caller.token)).toMatchObject({
        ...PUBLIC_URLS,
        id: first.webhook.id,
        updated_at: first.webhook.updated_at,
      });
      expect(await api.get(second.caller.token)).toMatchObject({
        ...OTHER_URLS,
        id: second.webhook.id,
        updated_at: second.webhook.updated_at,
      });

      // A business with no registration cannot reach another's either.
      const stranger = await api.caller();
      await expectError(await put(stranger, first.webhook.id, { kyc_url: null }), 404);
      await expectUnregistered(stranger);
    });

    it('decision 0009: PUT with an id that names no registration is 404', async () => {
      const { caller } = await registered();
      await expectError(await put(caller, UNKNOWN, { kyc_url: null }), 404, { message: /webhook/i });
    });
  });

  describe('the OpenAPI document (STYLE contracts: checked against real responses)', () => {
    const ROUTES: [method: string, path: string, scope: string, statuses: number[]][] = [
      ['post', '/api/external/webhook', 'webhook:write', [201, 401, 403, 409, 422]],
      ['put', '/api/external/webhook/{id}', 'webhook:write', [200, 401, 403, 404, 422]],
      ['get', '/api/external/webhook', 'webhook:read', [200, 401, 403, 404]],
    ];

    it.each(ROUTES)(
      'decision 0009: %s %s is documented with scope %s and statuses %j',
      (method, path, scope, statuses) => {
        const operation = contract.operation(method, path);
        expect(operation.security).toEqual([{ oauth2: [scope] }]);
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(statuses.map(String)));
        if (method !== 'get') expect(operation.requestBody?.content['application/json']).toBeDefined();
      },
    );

    it('decision 0009: real answers of every webhook route match the document', async () => {
      const documented = async (response: Response, method: string, path: string, status: number) => {
        if (response.status !== status) {
          throw new Error(`${method} ${path}: expected ${status}, got ${response.status} ${await response.text()}`);
        }
        return contract.expectDocumented(response, method, path);
      };
      const collection = '/api/external/webhook';
      const one = '/api/external/webhook/{id}';
      const caller = await api.caller();

      await documented(await get(caller), 'get', collection, 404);
      await documented(await post(caller, { ...PUBLIC_URLS, kyc_url: 'https://10.0.0.1/' }), 'post', collection, 422);
      const created = (await documented(await post(caller, PUBLIC_URLS), 'post', collection, 201)).data as WebhookJson;
      await documented(await post(caller, PUBLIC_URLS), 'post', collection, 409);
      await documented(await put(caller, created.id, { kyc_url: null }), 'put', one, 200);
      await documented(await put(caller, created.id, { collection_url: null }), 'put', one, 422);
      await documented(await put(caller, UNKNOWN, { kyc_url: null }), 'put', one, 404);
      await documented(await get(caller), 'get', collection, 200);

      const reader = await api.caller(['webhook:read']);
      await documented(await post(reader, PUBLIC_URLS), 'post', collection, 403);
      await documented(await api.call('not-a-token', 'GET', '/webhook'), 'get', collection, 401);
    });

    it('decision 0009: the schemas are closed: GET’s data cannot carry signing_secret, POST’s must', async () => {
      const caller = await api.caller();
      const written = await contract.expectDocumented(await post(caller, PUBLIC_URLS), 'post', '/api/external/webhook');
      const read = await contract.expectDocumented(await get(caller), 'get', '/api/external/webhook');
      const validateRead = contract.bodySchema('get', '/api/external/webhook', 200);
      const validateWrite = contract.bodySchema('post', '/api/external/webhook', 201);
      const data = read.data as Record<string, unknown>;
      const { signing_secret: secret, ...withoutSecret } = written.data as Record<string, unknown>;
      expect(validateRead({ ...read, data: { ...data, signing_secret: secret } })).toBe(false);
      const { id: _id, ...withoutId } = data;
      expect(validateRead({ ...read, data: withoutId })).toBe(false);
      expect(validateWrite({ ...written, data: withoutSecret })).toBe(false);
    });
  });
});
