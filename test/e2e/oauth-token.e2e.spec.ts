import { randomBytes } from 'node:crypto';
import { PUBLIC_ROUTES } from '../../services/gateway/dist/public/routes.js';
import {
  awaitRoomInMinute,
  callRoute,
  expectError,
  jwtParts,
  Platform,
  type Credentials,
  type TokenResponse,
} from '../support/platform.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const TOKEN_REQUESTS_PER_MINUTE = 8;

const basic = (clientId: string, clientSecret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;

const unknownClientId = () => `ci_test_${randomBytes(16).toString('hex')}`;

describe('POST /oauth/token: the client-credentials grant (seed 4.1, RFC 6749 section 4.4)', () => {
  const platform = new Platform({ gatewayEnv: { TOKEN_REQUESTS_PER_MINUTE: String(TOKEN_REQUESTS_PER_MINUTE) } });
  let businessId: string;
  /** full-access; a handful of requests in this file, below the per-client_id budget. */
  let full: Credentials;
  /** read-only bundle: for the scope rules. */
  let readOnly: Credentials;

  beforeAll(async () => {
    await platform.start();
    businessId = (await platform.createBusiness('Token Co')).id;
    [full, readOnly] = await Promise.all([
      platform.createCredentials(businessId),
      platform.createCredentials(businessId, { bundles: ['read-only'] }),
    ]);
  });
  afterAll(() => platform.stop());

  describe('success', () => {
    it('RFC 6749 4.4.3: a form body gives {access_token, token_type Bearer, expires_in 3600, scope} with Cache-Control: no-store', async () => {
      const response = await platform.requestToken(full, 'customer:read wallet:read');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('x-request-id')).toBeTruthy();
      const body = (await response.json()) as TokenResponse;
      expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
      expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'wallet:read customer:read' });

      // Signed (EdDSA) with a key id, issuer and audience of this environment, an hour's lifetime.
      const { header, payload } = jwtParts(body.access_token);
      expect(header).toMatchObject({ alg: 'EdDSA', typ: 'at+jwt' });
      expect(header.kid).toEqual(expect.any(String));
      expect(payload).toMatchObject({
        iss: 'corridor:sandbox',
        aud: 'corridor-api:sandbox',
        sub: businessId,
        client_id: full.client_id,
        scope: 'wallet:read customer:read',
        env: 'sandbox',
      });
      expect(Number(payload.exp) - Number(payload.iat)).toBe(3600);
      expect(Math.abs(Number(payload.iat) - Date.now() / 1000)).toBeLessThan(30);
      expect(body).not.toHaveProperty('refresh_token');

      // The token works.
      const whoami = await platform.api('/api/external/whoami', body.access_token);
      expect(whoami.status).toBe(200);
      expect(await whoami.json()).toMatchObject({
        data: { business_id: businessId, client_id: full.client_id, scopes: ['wallet:read', 'customer:read'] },
      });
    });

    it('RFC 6749 2.3.1: HTTP Basic client authentication is accepted', async () => {
      const response = await platform.postToken(new URLSearchParams({ grant_type: 'client_credentials', scope: '' }), {
        ...FORM,
        authorization: basic(full.client_id, full.client_secret),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ token_type: 'Bearer', scope: '' });
    });

    it('seed 4.1: no scope gives a token with scope "" that authenticates (whoami) but is refused by every scoped route', async () => {
      const response = await platform.requestToken(readOnly);
      expect(response.status).toBe(200);
      const body = (await response.json()) as TokenResponse;
      expect(body.scope).toBe('');
      expect(jwtParts(body.access_token).payload.scope).toBe('');

      const whoami = await platform.api('/api/external/whoami', body.access_token);
      expect(whoami.status).toBe(200);
      expect(await whoami.json()).toMatchObject({ data: { scopes: [] } });

      for (const route of PUBLIC_ROUTES.filter((r) => r.scope !== null)) {
        await expectError(await callRoute(route, body.access_token, (p, t, i) => platform.api(p, t, i)), 403, {
          code: 'SCOPE_MISSING',
          message: new RegExp(`requires the scope ${route.scope}`),
        });
      }
    });
  });

  describe('malformed requests: 400 invalid_request or unsupported_grant_type', () => {
    it('RFC 6749 2.3: credentials in HTTP Basic and in the body at once are 400 invalid_request', async () => {
      const form = new URLSearchParams({ grant_type: 'client_credentials', ...full });
      const response = await platform.postToken(form, {
        ...FORM,
        authorization: basic(full.client_id, full.client_secret),
      });
      await expectError(response, 400, { error: 'invalid_request', message: /one client authentication method/ });
      expect(response.headers.get('cache-control')).toBe('no-store');
    });

    it('RFC 6749 2.3.1: an Authorization header that is not valid HTTP Basic is 400 invalid_request', async () => {
      const form = new URLSearchParams({ grant_type: 'client_credentials' });
      for (const authorization of [
        `Bearer ${full.client_secret}`,
        `Basic ${Buffer.from('no-colon').toString('base64')}`,
        // Basic credentials are form-urlencoded: a stray % cannot be decoded.
        `Basic ${Buffer.from(`${full.client_id}:100%`).toString('base64')}`,
      ]) {
        await expectError(await platform.postToken(form, { ...FORM, authorization }), 400, {
          error: 'invalid_request',
          message: /not valid HTTP Basic credentials/,
        });
      }
    });

    it('RFC 6749 5.2: a missing grant_type is 400 invalid_request', async () => {
      await expectError(
        await platform.postToken(new URLSearchParams({ client_id: full.client_id, client_secret: 'x' }), FORM),
        400,
        { error: 'invalid_request', message: /grant_type is required/ },
      );
    });

    it('RFC 6749 5.2: a grant_type other than client_credentials is 400 unsupported_grant_type naming it', async () => {
      await expectError(await platform.postToken(new URLSearchParams({ grant_type: 'password', ...full }), FORM), 400, {
        error: 'unsupported_grant_type',
        message: /grant_type password is not supported; use client_credentials/,
      });
    });

    it('RFC 6749 3.2: a parameter sent twice is 400 invalid_request naming it', async () => {
      await expectError(
        await platform.postToken(
          `grant_type=client_credentials&client_id=${full.client_id}&client_secret=x&scope=a&scope=b`,
          FORM,
        ),
        400,
        { error: 'invalid_request', message: /parameter scope must appear once/ },
      );
    });

    it('a form the endpoint cannot read is refused in both error contracts: 413 too large, 415 unknown charset', async () => {
      await expectError(
        await platform.postToken(
          new URLSearchParams({ grant_type: 'client_credentials', pad: 'x'.repeat(20_000) }),
          FORM,
        ),
        413,
        { error: 'invalid_request', message: /^request body is larger than the 16384 byte limit$/ },
      );
      await expectError(
        await platform.postToken('grant_type=client_credentials', {
          'content-type': 'application/x-www-form-urlencoded; charset=latin1',
        }),
        415,
        { error: 'invalid_request', message: /charset/ },
      );
    });

    it('seed 4.1: a JSON body is 415 (the endpoint takes application/x-www-form-urlencoded only)', async () => {
      const response = await fetch(`${platform.publicUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', ...full }),
      });
      await expectError(response, 415, {
        error: 'invalid_request',
        message: /content type application\/json is not supported; send application\/x-www-form-urlencoded/,
      });
    });
  });

  describe('client authentication: 401 invalid_client in both error contracts', () => {
    it('RFC 6749 5.2: a wrong secret is 401 invalid_client with error, error_description, status false and message', async () => {
      const body = await expectError(
        await platform.requestToken({ client_id: full.client_id, client_secret: `cs_test_${'A'.repeat(43)}` }),
        401,
        { error: 'invalid_client', code: 'INVALID_CLIENT', message: /client authentication failed/ },
      );
      expect(body).toEqual({
        error: 'invalid_client',
        error_description: body.message,
        status: false,
        message: body.message,
        code: 'INVALID_CLIENT',
      });
    });

    it('RFC 6749 5.2: an unknown client_id is 401 invalid_client, indistinguishable from a wrong secret', async () => {
      const wrongSecret = await expectError(
        await platform.requestToken({ client_id: full.client_id, client_secret: 'nope' }),
        401,
        { error: 'invalid_client' },
      );
      const unknown = await expectError(
        await platform.requestToken({ client_id: unknownClientId(), client_secret: full.client_secret }),
        401,
        { error: 'invalid_client' },
      );
      expect(unknown).toEqual(wrongSecret);
    });

    it('RFC 6749 5.2: a wrong secret over HTTP Basic is 401 with WWW-Authenticate: Basic', async () => {
      const response = await platform.postToken(new URLSearchParams({ grant_type: 'client_credentials' }), {
        ...FORM,
        authorization: basic(full.client_id, 'wrong'),
      });
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic /);
      await expectError(response, 401, { error: 'invalid_client' });
    });

    it('RFC 6749 5.2: no client credentials at all is 401 invalid_client', async () => {
      await expectError(
        await platform.postToken(new URLSearchParams({ grant_type: 'client_credentials' }), FORM),
        401,
        { error: 'invalid_client', message: /client_id and client_secret are required/ },
      );
    });
  });

  describe('seed 4.1: scope is individual scopes assigned to the credentials, else 400 invalid_scope naming it', () => {
    it('seed 4.1: a bundle name in scope is invalid_scope', async () => {
      await expectError(await platform.requestToken(readOnly, 'wallet:read read-only'), 400, {
        error: 'invalid_scope',
        message: /read-only is a bundle/,
      });
    });

    it('seed 4.1: an unknown scope is invalid_scope', async () => {
      await expectError(await platform.requestToken(readOnly, 'wallet:read wallet:write'), 400, {
        error: 'invalid_scope',
        message: /unknown scope wallet:write/,
      });
    });

    it('seed 4.1: a scope not assigned to the credentials is invalid_scope', async () => {
      await expectError(await platform.requestToken(readOnly, 'wallet:read payout:create'), 400, {
        error: 'invalid_scope',
        message: /scope payout:create is not assigned to these credentials/,
      });
    });
  });

  it('seed 7 (403): a business without API services gets 403 on token requests', async () => {
    const business = await platform.createBusiness('Disabled Co');
    const credentials = await platform.createCredentials(business.id);
    await platform.patchBusiness(business.id, { api_enabled: false });
    await expectError(await platform.requestToken(credentials, 'wallet:read'), 403, {
      error: 'unauthorized_client',
      message: /no longer has API services/,
    });
  });

  it('issue 3 item 5: token requests are limited per client_id (failed attempts count) with 429 and Retry-After', async () => {
    const credentials = await platform.createCredentials(businessId);
    await awaitRoomInMinute(10);
    // Guessing secrets spends the budget of the client_id.
    for (let i = 0; i < TOKEN_REQUESTS_PER_MINUTE; i += 1) {
      expect((await platform.requestToken({ client_id: credentials.client_id, client_secret: 'guess' })).status).toBe(
        401,
      );
    }
    const limited = await platform.requestToken(credentials, 'wallet:read');
    const retryAfter = Number(limited.headers.get('retry-after'));
    const body = await expectError(limited, 429, {
      message: new RegExp(`too many token requests for this client_id: ${TOKEN_REQUESTS_PER_MINUTE} per minute`),
    });
    expect(body.error).toEqual(expect.any(String));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(String(body.message)).toContain(`retry in ${retryAfter} s`);

    // Another client_id of the same business has its own budget.
    expect((await platform.requestToken(readOnly, 'wallet:read')).status).toBe(200);
  });

  it('decision 0007: made-up client_ids from one address share a per-address budget, so they cannot load identity without bound', async () => {
    const perAddress = 5;
    const gateway = await platform.startGateway({
      TOKEN_REQUESTS_PER_MINUTE_PER_ADDRESS: String(perAddress),
      // Its own counters, so this gateway's budget is not the platform gateway's.
      REDIS_KEY_PREFIX: `corridor-per-address-${randomBytes(4).toString('hex')}`,
    });
    try {
      await awaitRoomInMinute(10);
      const post = (clientId: string) =>
        fetch(`${gateway.publicUrl}/oauth/token`, {
          method: 'POST',
          headers: FORM,
          body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: 'guess' }),
        });
      for (let i = 0; i < perAddress; i += 1) expect((await post(unknownClientId())).status).toBe(401);
      const limited = await post(unknownClientId());
      await expectError(limited, 429, {
        message: new RegExp(`too many token requests from this address: ${perAddress} per minute`),
      });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await gateway.stop();
    }
  });
});
