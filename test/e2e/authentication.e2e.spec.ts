import { generateKeyPairSync, sign } from 'node:crypto';
import { eventually, freePort, startService } from '@corridor/testing';
import { expectError, jwtParts, Platform, type Credentials, type TokenResponse } from '../support/platform.js';

const WHOAMI = '/api/external/whoami';

/** A JWT with the given header and claims, signed with an Ed25519 key that is not Corridor's. */
function forgedToken(header: Record<string, unknown>, payload: Record<string, unknown>): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  const encode = (part: Record<string, unknown>) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const signingInput = `${encode(header)}.${encode(payload)}`;
  return `${signingInput}.${sign(null, Buffer.from(signingInput), privateKey).toString('base64url')}`;
}

/**
 * What it tolerates (issue 37): a loaded machine. It starts its own identity and gateway processes
 * (replicas included), each awaited by what it reports (its listening line, /readyz) for a window
 * in quiet-machine time (@corridor/testing MachineClock); starved by a build beside it, it once
 * gave up on a fixed window.
 */
describe('authentication on /api/external/*: 401 {status false, message} saying which case (issue 3 item 3)', () => {
  const sandbox = Platform.shared();
  const production = new Platform({ environment: 'production' });
  let credentials: Credentials;
  let token: string;
  /** Every 401 message seen, by case: each case must read differently. */
  const messages = new Map<string, string>();

  const expect401 = async (response: Response, problem: string, code: string, message: RegExp) => {
    const body = await expectError(response, 401, { code, message });
    messages.set(problem, String(body.message));
    return body;
  };

  beforeAll(async () => {
    await Promise.all([sandbox.start(), production.start()]);
    const business = await sandbox.createBusiness('Auth Co');
    credentials = await sandbox.createCredentials(business.id);
    token = await sandbox.accessToken(credentials, 'wallet:read');
  });
  afterAll(() => Promise.all([sandbox.stop(), production.stop()]));

  it('a valid bearer token is authenticated (the control for every case below)', async () => {
    const response = await sandbox.api(WHOAMI, token);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(await response.json()).toMatchObject({
      data: { client_id: credentials.client_id, environment: 'sandbox', scopes: ['wallet:read'] },
    });
  });

  it('seed 7 (401): a missing token says it is missing, with WWW-Authenticate: Bearer', async () => {
    const response = await sandbox.api(WHOAMI, undefined);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="corridor"');
    await expect401(response, 'missing', 'TOKEN_MISSING', /missing Authorization header/);
  });

  it('seed 7 (401): an Authorization header that is not Bearer is malformed', async () => {
    const basic = `Basic ${Buffer.from(`${credentials.client_id}:${credentials.client_secret}`).toString('base64')}`;
    const response = await sandbox.api(WHOAMI, undefined, { headers: { authorization: basic } });
    expect(response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    await expect401(response, 'not bearer', 'TOKEN_MALFORMED', /malformed: expected "Bearer <access_token>"/);
    await expectError(await sandbox.api(WHOAMI, undefined, { headers: { authorization: 'Bearer' } }), 401, {
      code: 'TOKEN_MALFORMED',
    });
  });

  it('seed 7 (401): a bearer token that is not a JWT is malformed', async () => {
    await expect401(
      await sandbox.api(WHOAMI, 'not-a-jwt'),
      'not a jwt',
      'TOKEN_MALFORMED',
      /malformed: it is not a Corridor access token/,
    );
    // A client secret sent as a bearer token is the classic mistake.
    await expectError(await sandbox.api(WHOAMI, credentials.client_secret), 401, { code: 'TOKEN_MALFORMED' });
  });

  it('seed 7 (401): an expired token says it expired and when', async () => {
    // An identity replica whose clock runs two hours behind, behind a gateway replica, mints a real
    // token, signed with the real key, that expired an hour ago (CLOCK_OFFSET_SECONDS is test-only
    // and refused in production, below).
    const address = `127.0.0.1:${await freePort()}`;
    const [lagging, gateway] = await Promise.all([
      sandbox.startIdentityReplica({ CLOCK_OFFSET_SECONDS: '-7200', IDENTITY_GRPC_ADDRESS: address }),
      sandbox.startGateway({ IDENTITY_GRPC_ADDRESS: address }),
    ]);
    const response = await eventually(async () => {
      const answer = await fetch(`${gateway.publicUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', ...credentials, scope: 'wallet:read' }),
      });
      if (answer.status !== 200) throw new Error(`token: ${answer.status} ${await answer.text()}`);
      return answer;
    });
    const expired = ((await response.json()) as TokenResponse).access_token;
    const exp = Number(jwtParts(expired).payload.exp);
    expect(exp).toBeLessThan(Date.now() / 1000 - 3000);
    await expect401(
      await sandbox.api(WHOAMI, expired),
      'expired',
      'TOKEN_EXPIRED',
      new RegExp(`the access token expired at ${new Date(exp * 1000).toISOString()}; request a new one`),
    );
    await Promise.all([gateway.stop(), lagging.process.kill()]);
  });

  it('CLOCK_OFFSET_SECONDS is test-only: identity refuses to start with it in production', async () => {
    const identity = await startService({
      service: 'identity',
      env: production.identityEnv({
        IDENTITY_GRPC_ADDRESS: `127.0.0.1:${await freePort()}`,
        CLOCK_OFFSET_SECONDS: '-7200',
      }),
    });
    expect(await identity.exited).toBe(78);
    expect(identity.output()).toMatch(/identity: refusing to start, invalid configuration:[\s\S]*CLOCK_OFFSET_SECONDS/);
  });

  it('seed 7 (401): a token signed with another key (same header and claims) has a bad signature', async () => {
    const { header, payload } = jwtParts(token);
    await expect401(
      await sandbox.api(WHOAMI, forgedToken(header, payload)),
      'bad signature',
      'TOKEN_SIGNATURE_INVALID',
      /signature is invalid/,
    );
    // A key id Corridor never issued: same answer.
    await expectError(await sandbox.api(WHOAMI, forgedToken({ ...header, kid: 'not-a-corridor-key' }, payload)), 401, {
      code: 'TOKEN_SIGNATURE_INVALID',
    });
  });

  it('seed 7 (401): a real token whose claims were edited (scope widened) has a bad signature', async () => {
    const [encodedHeader, , signature] = token.split('.');
    const widened = { ...jwtParts(token).payload, scope: 'wallet:read payout:create' };
    const tampered = `${encodedHeader}.${Buffer.from(JSON.stringify(widened)).toString('base64url')}.${signature}`;
    await expectError(await sandbox.api(WHOAMI, tampered), 401, {
      code: 'TOKEN_SIGNATURE_INVALID',
      message: /signature is invalid/,
    });
  });

  it('seed 5 rule 5: a sandbox token is refused by production as from another environment (and vice versa)', async () => {
    await expect401(
      await production.api(WHOAMI, token),
      'wrong environment',
      'TOKEN_WRONG_ENVIRONMENT',
      /belongs to another environment \(it was issued for sandbox\); this API is corridor-api:production/,
    );
    const business = await production.createBusiness('Live Co');
    const live = await production.createCredentials(business.id);
    expect(live.client_id).toMatch(/^ci_live_/);
    expect(live.client_secret).toMatch(/^cs_live_/);
    const liveToken = await production.accessToken(live, 'wallet:read');
    expect((await production.api(WHOAMI, liveToken)).status).toBe(200);
    await expectError(await sandbox.api(WHOAMI, liveToken), 401, {
      code: 'TOKEN_WRONG_ENVIRONMENT',
      message: /issued for production/,
    });
    // Credentials are per environment too (seed 5 rule 5).
    await expectError(await production.requestToken(credentials), 401, { error: 'invalid_client' });
  });

  it('seed 5 rule 1: after rotation the previous token is refused as revoked, saying the credentials were rotated', async () => {
    const business = await sandbox.createBusiness('Rotating Co');
    const rotating = await sandbox.createCredentials(business.id);
    const before = await sandbox.accessToken(rotating, 'wallet:read');
    expect((await sandbox.api(WHOAMI, before)).status).toBe(200);
    await sandbox.rotateCredentials(rotating.client_id);
    await expect401(
      await sandbox.api(WHOAMI, before),
      'rotated',
      'TOKEN_REVOKED',
      /revoked: its credentials were rotated; request a new token with the current client_secret/,
    );
  });

  it('seed 5 rule 1: after revocation the token is refused as revoked, saying the credentials were revoked', async () => {
    const business = await sandbox.createBusiness('Revoked Co');
    const revoked = await sandbox.createCredentials(business.id);
    const before = await sandbox.accessToken(revoked, 'wallet:read');
    expect((await sandbox.api(WHOAMI, before)).status).toBe(200);
    await sandbox.revokeCredentials(revoked.client_id);
    await expect401(
      await sandbox.api(WHOAMI, before),
      'revoked',
      'TOKEN_REVOKED',
      /revoked: its credentials have been revoked/,
    );
  });

  it('seed 5 rule 4: the legacy x-corridor-api-key header is 401, deprecated, saying how to get a token', async () => {
    await expect401(
      await sandbox.api(WHOAMI, undefined, { headers: { 'x-corridor-api-key': 'sk_live_legacy' } }),
      'legacy',
      'LEGACY_API_KEY_DEPRECATED',
      /x-corridor-api-key header is deprecated.*POST \/oauth\/token.*Authorization: Bearer/,
    );
  });

  it('issue 3 item 3: each case has its own message', () => {
    expect([...messages.keys()].sort()).toEqual(
      [
        'bad signature',
        'expired',
        'legacy',
        'missing',
        'not a jwt',
        'not bearer',
        'revoked',
        'rotated',
        'wrong environment',
      ].sort(),
    );
    expect(new Set(messages.values()).size).toBe(messages.size);
  });
});
