import { eventually, freePort, OtlpReceiver } from '@corridor/testing';
import { awaitRoomInMinute, expectError, Platform } from '../support/platform.js';

const WHOAMI = '/api/external/whoami';
/** OTLP span kind of a server span. */
const SERVER = 2;

interface Window {
  limit: number;
  remaining: number;
  reset_seconds: number;
}

const header = (response: Response, name: string) => Number(response.headers.get(name));

describe('rate limits (seed 8): per business and environment, two fixed windows counted atomically in Redis', () => {
  // Identity's spans tell how often the gateway called it.
  const receiver = new OtlpReceiver();
  let platform: Platform;
  /** A token of a business of its own, used only to read Redis's clock (RateLimit-Reset of the minute). */
  let clockToken: string;

  /** Seconds left in Redis's current minute window, as the gateway reports it. */
  const secondsLeftInWindow = async () => {
    const response = await platform.api(WHOAMI, clockToken);
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: { rate_limits: { per_minute: Window } } }).data.rate_limits.per_minute
      .reset_seconds;
  };

  /** identity's server spans of one gRPC method so far. */
  const identityCalls = (method: string) =>
    receiver.spans.filter((s) => s.service === 'identity' && s.kind === SERVER && s.name.endsWith(`/${method}`)).length;

  beforeAll(async () => {
    await receiver.start();
    platform = await new Platform({ otlpEndpoint: receiver.endpoint }).start();
    clockToken = (await platform.tokenFor([])).token;
  });
  afterAll(async () => {
    await platform?.stop();
    await receiver.stop();
  });

  it('seed 8: 300 concurrent requests in one minute admit exactly 120; the other 180 are 429 naming the minute window', async () => {
    const { token } = await platform.tokenFor([]);
    // A burst must not straddle two minute windows.
    await awaitRoomInMinute(15, await secondsLeftInWindow());
    await new Promise((resolve) => setTimeout(resolve, 500)); // identity's spans so far are exported
    const before = { credential: identityCalls('GetCredential'), business: identityCalls('GetBusiness') };
    const responses = await Promise.all(Array.from({ length: 300 }, () => platform.api(WHOAMI, token)));

    const admitted = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect({ admitted: admitted.length, limited: limited.length }).toEqual({ admitted: 120, limited: 180 });

    // Every admitted request counted once: the remaining budgets are 119 … 0, each exactly once.
    expect(admitted.map((r) => header(r, 'ratelimit-remaining')).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 120 }, (_, i) => i),
    );
    for (const response of admitted) {
      expect(header(response, 'ratelimit-limit')).toBe(120);
      expect(header(response, 'ratelimit-reset')).toBeGreaterThanOrEqual(1);
      expect(header(response, 'ratelimit-reset')).toBeLessThanOrEqual(60);
    }
    for (const response of limited) {
      const retryAfter = header(response, 'retry-after');
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(header(response, 'ratelimit-reset')).toBe(retryAfter);
      expect(header(response, 'ratelimit-limit')).toBe(120);
      expect(header(response, 'ratelimit-remaining')).toBe(0);
      await expectError(response, 429, {
        code: 'RATE_LIMITED',
        message: new RegExp(`^rate limit exceeded: 120 requests per minute; retry in ${retryAfter} s$`),
      });
    }
    await Promise.all(admitted.map((r) => r.arrayBuffer()));

    // DESIGN.md: no per-request call to identity. The burst met a cold cache: its 300 misses cost
    // identity one read of the credentials and one of the business, not one per request.
    await eventually(() => expect(identityCalls('GetCredential')).toBeGreaterThan(before.credential));
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // any further span would be exported by now
    expect({ credential: identityCalls('GetCredential'), business: identityCalls('GetBusiness') }).toEqual({
      credential: before.credential + 1,
      business: before.business + 1,
    });
  });

  it('seed 8: every response carries RateLimit-* of the tighter window, matching the budget whoami reports', async () => {
    const { token } = await platform.tokenFor([]);
    const first = await platform.api(WHOAMI, token);
    expect(first.status).toBe(200);
    const { per_minute: minute, per_hour: hour } = (
      (await first.json()) as { data: { rate_limits: { per_minute: Window; per_hour: Window } } }
    ).data.rate_limits;
    expect(minute).toMatchObject({ limit: 120, remaining: 119 });
    expect(hour).toMatchObject({ limit: 1500, remaining: 1499 });
    expect(hour.reset_seconds).toBeGreaterThanOrEqual(minute.reset_seconds);
    // The minute window is the tighter one here.
    expect(header(first, 'ratelimit-limit')).toBe(120);
    expect(header(first, 'ratelimit-remaining')).toBe(119);
    expect(header(first, 'ratelimit-reset')).toBe(minute.reset_seconds);
  });

  it('seed 8: when the hour budget is spent, the 429 names the hour window and Retry-After waits for it', async () => {
    const { token, businessId } = await platform.tokenFor([]);
    // Both windows at 5: after five requests both are spent, and only the end of the hour frees a request.
    await platform.patchBusiness(businessId, { rate_limits: { per_minute: 5, per_hour: 5 } });
    const secondsToHour = 3600 - (Math.floor(Date.now() / 1000) % 3600);
    if (secondsToHour < 15) await new Promise((resolve) => setTimeout(resolve, (secondsToHour + 1) * 1000));
    for (let i = 0; i < 5; i += 1) expect((await platform.api(WHOAMI, token)).status).toBe(200);

    const limited = await platform.api(WHOAMI, token);
    const retryAfter = header(limited, 'retry-after');
    await expectError(limited, 429, {
      code: 'RATE_LIMITED',
      message: new RegExp(`^rate limit exceeded: 5 requests per hour; retry in ${retryAfter} s$`),
    });
    const secondsLeftInHour = 3600 - (Math.floor(Date.now() / 1000) % 3600);
    expect(Math.abs(retryAfter - secondsLeftInHour)).toBeLessThanOrEqual(2);
    expect(header(limited, 'ratelimit-reset')).toBe(retryAfter);
    expect(header(limited, 'ratelimit-limit')).toBe(5);
    expect(header(limited, 'ratelimit-remaining')).toBe(0);
  });

  it('seed 8: per_hour below per_minute is refused with 422 naming the field', async () => {
    const { businessId } = await platform.tokenFor([]);
    await expectError(
      await platform.admin(`/admin/businesses/${businessId}`, {
        method: 'PATCH',
        body: JSON.stringify({ rate_limits: { per_minute: 10, per_hour: 5 } }),
      }),
      422,
      { code: 'VALIDATION_FAILED', message: /^rate_limits\.per_hour must be at least per_minute \(10\)/ },
    );
  });

  it('issue 3 item 5: limits changed through the admin API apply to the very next request', async () => {
    const { token, businessId } = await platform.tokenFor([]);
    await awaitRoomInMinute(15, await secondsLeftInWindow());
    for (let i = 0; i < 3; i += 1) expect((await platform.api(WHOAMI, token)).status).toBe(200);

    await platform.patchBusiness(businessId, { rate_limits: { per_minute: 3, per_hour: 1500 } });
    await expectError(await platform.api(WHOAMI, token), 429, { message: /3 requests per minute/ });

    await platform.patchBusiness(businessId, { rate_limits: { per_minute: 10, per_hour: 1500 } });
    const raised = await platform.api(WHOAMI, token);
    expect(raised.status).toBe(200);
    expect(header(raised, 'ratelimit-limit')).toBe(10);
    expect(header(raised, 'ratelimit-remaining')).toBe(6);
  });

  it('seed 8 (decision 0007): the budget is per business, shared by all its credentials, and no other business', async () => {
    const { token: first, businessId } = await platform.tokenFor([]);
    const second = await platform.accessToken(await platform.createCredentials(businessId), '');
    const { token: otherBusiness } = await platform.tokenFor([]);
    await platform.patchBusiness(businessId, { rate_limits: { per_minute: 4, per_hour: 1500 } });
    await awaitRoomInMinute(15, await secondsLeftInWindow());

    for (const token of [first, second, first, second]) expect((await platform.api(WHOAMI, token)).status).toBe(200);
    await expectError(await platform.api(WHOAMI, first), 429, { code: 'RATE_LIMITED' });
    await expectError(await platform.api(WHOAMI, second), 429, { code: 'RATE_LIMITED' });
    expect((await platform.api(WHOAMI, otherBusiness)).status).toBe(200);
  });

  it('decision 0007: with Redis unreachable the gateway fails closed: 503 on API and token calls, /readyz 503, each with Retry-After', async () => {
    const { token, credentials } = await platform.tokenFor([]);
    const gateway = await platform.startGateway({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    try {
      // Once it has the signing keys from identity, only Redis is missing.
      await eventually(async () => {
        const readiness = await expectError(await gateway.api('/readyz', undefined), 503, {
          code: 'NOT_READY',
          message: /^not ready: redis unavailable$/,
        });
        expect(readiness.dependencies).toMatchObject({ identity: 'ok', signing_keys: 'ok' });
      });

      const limiterAway = await gateway.api(WHOAMI, token);
      await expectError(limiterAway, 503, {
        code: 'RATE_LIMITER_UNAVAILABLE',
        message: /cannot check revocation and rate limits/,
      });
      const tokenRequest = await fetch(`${gateway.publicUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', ...credentials }),
      });
      await expectError(tokenRequest, 503, { error: 'temporarily_unavailable', message: /cannot rate-limit/ });
      // Issue 37: every 503 says when to try again.
      const notReady = await gateway.api('/readyz', undefined);
      expect(
        [limiterAway, tokenRequest, notReady].map((answer) => [answer.status, answer.headers.get('retry-after')]),
      ).toEqual([
        [503, '2'],
        [503, '2'],
        [503, '2'],
      ]);

      // The same token on the platform's gateway, whose Redis is up: served.
      expect((await platform.api(WHOAMI, token)).status).toBe(200);

      // An admin change gateways could not be told about is refused before anything is committed:
      // the rotation did not happen, so the current secret still gets tokens.
      const rotate = await gateway.admin(`/admin/credentials/${credentials.client_id}/rotate`, {
        method: 'POST',
        body: '{}',
      });
      await expectError(rotate, 503, { code: 'CACHE_UNAVAILABLE', message: /nothing was changed/ });
      expect((await platform.requestToken(credentials)).status).toBe(200);
    } finally {
      await gateway.stop();
    }
  });
});
