import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { DomainError, invalidArgument, notFound, Status } from '@corridor/grpc';
import { WebhookDestination } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { serveRoutes } from '../../../test/public/route-harness.js';
import {
  BUSINESS_ID,
  CREATED,
  SIGNING_SECRET,
  startFakeNotificationService,
  UPDATED,
  WEBHOOK_ID,
  DISABLED_AT,
  URL_HEALTH,
  webhookConfig,
} from '../../../test/public/webhooks/fake-notification-service.js';
import { ENDPOINT_ROUTES } from './endpoint-routes.js';
import { WEBHOOK_ROUTES, webhookSchemaComponents } from './index.js';

/**
 * The webhook routes' handlers against notification over real gRPC (a fake service on loopback).
 * Authentication and scopes are the public router's and have their own suites; here every request
 * is a caller of BUSINESS_ID.
 */
describe('the webhook routes (decision 0009)', () => {
  let service: Awaited<ReturnType<typeof startFakeNotificationService>>;
  let routes: Awaited<ReturnType<typeof serveRoutes>>;
  const audits: object[] = [];
  let auditFails = false;

  beforeAll(async () => {
    service = await startFakeNotificationService();
    routes = await serveRoutes(
      [...WEBHOOK_ROUTES, ...ENDPOINT_ROUTES],
      { businessId: BUSINESS_ID, scopes: ['webhook:read', 'webhook:write'] },
      {
        notification: service.client,
        members: {
          recordAudit: async (request: object) => {
            if (auditFails) throw new Error('identity is down');
            audits.push(request);
            return {};
          },
        },
      },
    );
  });
  afterAll(async () => {
    await routes.close();
    await service.stop();
  });
  beforeEach(() => {
    service.calls.length = 0;
    service.answers.clear();
    audits.length = 0;
    auditFails = false;
  });

  const call = (...args: Parameters<typeof routes.call>) => routes.call(...args);

  const W = `/api/external/webhook/${WEBHOOK_ID}`;
  const URLS = { collection_url: 'https://a.example/c', payout_url: 'https://a.example/p' };
  const registered = {
    id: WEBHOOK_ID,
    collection_url: 'https://platform.example/hooks/collections',
    payout_url: 'https://platform.example/hooks/payouts',
    kyc_url: null,
    signing_secret: SIGNING_SECRET,
    signing_secret_last4: 'kYz1',
    created_at: CREATED.toISOString(),
    updated_at: UPDATED.toISOString(),
  };
  const { signing_secret: _secret, ...withoutSecret } = registered;
  const NO_OVERLAP = { previous_signing_secret_last4: null, previous_signing_secret_expires_at: null };

  const cases = [
    [
      'registerWebhook',
      'post',
      '/api/external/webhook',
      { collection_url: 'https://a.example/c', payout_url: 'https://a.example/p' },
      { collectionUrl: 'https://a.example/c', payoutUrl: 'https://a.example/p', kycUrl: undefined },
      201,
      'webhook registered',
      registered,
    ],
    [
      'updateWebhook',
      'put',
      W,
      { kyc_url: null, payout_url: 'https://a.example/p2' },
      {
        webhookId: WEBHOOK_ID,
        collectionUrl: undefined,
        payoutUrl: 'https://a.example/p2',
        kycUrlChange: { case: 'removeKycUrl', value: true },
      },
      200,
      'webhook updated',
      registered,
    ],
    ['getWebhook', 'get', '/api/external/webhook', undefined, {}, 200, 'webhook retrieved', withoutSecret],
    [
      'rotateWebhookSecret',
      'post',
      `${W}/signing-secret/rotate`,
      { overlap_seconds: 3600 },
      { webhookId: WEBHOOK_ID, overlapSeconds: 3600 },
      200,
      'signing secret rotated',
      { ...registered, ...NO_OVERLAP },
    ],
    [
      'endWebhookSecretOverlap',
      'delete',
      `${W}/signing-secret/previous`,
      undefined,
      { webhookId: WEBHOOK_ID },
      200,
      'previous signing secret retired',
      { ...withoutSecret, ...NO_OVERLAP },
    ],
  ] as const;

  it('covers every route of the table', () => {
    expect(cases.map(([operationId]) => operationId).sort()).toEqual(
      WEBHOOK_ROUTES.map((route) => route.operationId).sort(),
    );
  });

  it.each(cases)(
    '%s: the path id and the body as typed fields (decision 0026), the caller as metadata; answers {message, data}',
    async (operationId, method, path, body, fields, status, message, data) => {
      const response = await call(method, path, body, { 'x-request-id': `req-${operationId}` });
      expect(response).toEqual({ status, body: { message, data } });
      expect(Object.keys(response.body)).toEqual(['message', 'data']);
      expect(service.calls).toHaveLength(1);
      const [received] = service.calls;
      expect(received?.method).toBe(operationId);
      for (const [field, value] of Object.entries(fields))
        expect([field, received?.request[field]]).toEqual([field, value]);
      expect(received?.caller).toMatchObject({
        businessId: BUSINESS_ID,
        credentialId: 'ci_test_1',
        environment: 'sandbox',
        requestId: `req-${operationId}`,
      });
    },
  );

  it('answers exactly the properties its closed schema lists: the secret on POST and PUT only', async () => {
    service.answers.set('getWebhook', () => ({ webhook: webhookConfig({ urlHealth: URL_HEALTH }) }));
    const keysOf = (name: string) => Object.keys(webhookSchemaComponents[name]?.properties ?? {}).sort();
    for (const [method, path, schema] of [
      ['post', '/api/external/webhook', 'WebhookWithSecret'],
      ['put', W, 'WebhookWithSecret'],
      ['get', '/api/external/webhook', 'Webhook'],
    ] as const) {
      const response = await call(method, path, method === 'get' ? undefined : method === 'post' ? URLS : {});
      expect(Object.keys(response.body.data as object).sort()).toEqual(keysOf(schema));
    }
    expect(keysOf('WebhookWithSecret')).toContain('signing_secret');
    expect(keysOf('Webhook')).not.toContain('signing_secret');
  });

  it('rotation (decision 0065): webhook:write, the overlap answered, no body the default, a bad overlap 422 before notification', async () => {
    for (const operationId of ['rotateWebhookSecret', 'endWebhookSecretOverlap']) {
      expect(WEBHOOK_ROUTES.find((route) => route.operationId === operationId)?.scope).toBe('webhook:write');
    }
    const until = new Date('2026-11-22T10:30:00.000Z');
    service.answers.set('rotateWebhookSecret', () => ({
      webhook: webhookConfig({
        previousSigningSecretLast4: 'old1',
        previousSigningSecretExpiresAt: timestampFromDate(until),
      }),
    }));
    const rotated = await call('post', `${W}/signing-secret/rotate`);
    expect(rotated.body.data).toMatchObject({
      signing_secret: SIGNING_SECRET,
      previous_signing_secret_last4: 'old1',
      previous_signing_secret_expires_at: until.toISOString(),
    });
    expect(service.calls[0]?.request).toMatchObject({ webhookId: WEBHOOK_ID });
    expect(service.calls[0]?.request.overlapSeconds).toBeUndefined();
    service.calls.length = 0;
    for (const [overlap, problem] of [
      [-1, 'must be from 0 to 604800 (7 days)'],
      [604_801, 'must be from 0 to 604800 (7 days)'],
      [1.5, 'must be a whole number of seconds'],
      ['3600', expect.stringMatching(/whole number of seconds/)],
    ] as const) {
      expect(await call('post', `${W}/signing-secret/rotate`, { overlap_seconds: overlap })).toEqual({
        status: 422,
        body: {
          status: false,
          message: expect.stringMatching(/^overlap_seconds /),
          code: 'VALIDATION_FAILED',
          errors: { overlap_seconds: [problem] },
        },
      });
    }
    expect(await call('post', `${W}/signing-secret/rotate`, { overlap: 1 })).toMatchObject({
      status: 422,
      body: { errors: { overlap: [expect.any(String)] } },
    });
    expect(service.calls).toHaveLength(0);
    expect(audits).toHaveLength(1);
  });

  it('records each rotation and early end in the business’s audit log, and answers the secret if that fails', async () => {
    const until = new Date('2026-11-22T10:30:00.000Z');
    service.answers.set('rotateWebhookSecret', () => ({
      webhook: webhookConfig({
        previousSigningSecretLast4: 'old1',
        previousSigningSecretExpiresAt: timestampFromDate(until),
      }),
    }));
    await call('post', `${W}/signing-secret/rotate`, { overlap_seconds: 86_400 });
    await call('delete', `${W}/signing-secret/previous`);
    expect(audits).toEqual([
      {
        businessId: BUSINESS_ID,
        action: 'webhook.secret_rotated',
        target: WEBHOOK_ID,
        details: `Signing secret rotated through the API (client ci_test_1): …kYz1 signs now; the previous …old1 signs beside it until ${until.toISOString()}`,
      },
      {
        businessId: BUSINESS_ID,
        action: 'webhook.secret_overlap_ended',
        target: WEBHOOK_ID,
        details: 'Previous signing secret retired through the API (client ci_test_1): only …kYz1 signs',
      },
    ]);
    expect(JSON.stringify(audits)).not.toContain(SIGNING_SECRET);
    auditFails = true;
    expect(await call('post', `${W}/signing-secret/rotate`)).toMatchObject({
      status: 200,
      body: { data: { signing_secret: SIGNING_SECRET } },
    });
  });

  it('answers a registered kyc_url as it is, an empty one as null', async () => {
    service.answers.set('getWebhook', () => ({ webhook: webhookConfig({ kycUrl: 'https://a.example/kyc' }) }));
    expect((await call('get', '/api/external/webhook')).body.data).toMatchObject({ kyc_url: 'https://a.example/kyc' });
    service.answers.set('getWebhook', () => ({ webhook: webhookConfig({ kycUrl: '' }) }));
    expect((await call('get', '/api/external/webhook')).body.data).toMatchObject({ kyc_url: null });
  });

  it('never shows the secret on GET, even if notification sends it', async () => {
    const response = await call('get', '/api/external/webhook');
    expect(response.status).toBe(200);
    expect(JSON.stringify(response.body)).not.toContain(SIGNING_SECRET);
    expect(response.body.data).toMatchObject({ signing_secret_last4: 'kYz1' });
  });

  it('answers 500, not a registration without its secret, when notification leaves the secret out', async () => {
    service.answers.set('registerWebhook', () => ({ webhook: webhookConfig({ signingSecret: '' }) }));
    expect(await call('post', '/api/external/webhook', URLS)).toMatchObject({
      status: 500,
      body: { status: false, code: 'INTERNAL' },
    });
  });

  it('refuses no body at all with 422 at (body), without calling notification (issue 18)', async () => {
    expect(await call('put', W)).toMatchObject({ status: 422, body: { errors: { '(body)': [expect.any(String)] } } });
    expect(service.calls).toHaveLength(0);
  });

  it.each([['[]'], ['["https://a.example/c"]']])(
    'refuses the JSON array %s as a body with 422, without calling notification',
    async (raw) => {
      expect(await call('post', '/api/external/webhook', raw)).toEqual({
        status: 422,
        body: {
          status: false,
          message: 'the request body must be a JSON object',
          code: 'VALIDATION_FAILED',
          errors: { '(body)': ['must be a JSON object'] },
        },
      });
      expect(service.calls).toHaveLength(0);
    },
  );

  it('register: kyc_url null crosses as no kyc_url, as omitting it does (seed 2.4)', async () => {
    await call('post', '/api/external/webhook', { ...URLS, kyc_url: null });
    await call('post', '/api/external/webhook', { ...URLS, kyc_url: 'https://a.example/k' });
    expect(service.calls.map(({ request }) => request.kycUrl)).toEqual([undefined, 'https://a.example/k']);
  });

  it('update: an omitted kyc_url changes nothing, a URL sets it (decision 0026: absent, null and a URL differ)', async () => {
    await call('put', W, {});
    await call('put', W, { kyc_url: 'https://a.example/k' });
    expect(service.calls.map(({ request }) => request.kycUrlChange)).toEqual([
      { case: undefined },
      { case: 'kycUrl', value: 'https://a.example/k' },
    ]);
  });

  it.each([
    ['post', '/api/external/webhook', {}, { collection_url: ['is required'], payout_url: ['is required'] }],
    [
      'post',
      '/api/external/webhook',
      { ...URLS, collection_url: 42, kyc_url: ['https://a.example/k'], signing_secret: 'whsec_mine' },
      {
        collection_url: ['must be a string, got 42'],
        kyc_url: ['must be a string or null, got an array'],
        signing_secret: ['is not a recognised field'],
      },
    ],
    [
      'put',
      W,
      { collection_url: null, payout_url: null, kyc_url: null, events: ['refund'] },
      {
        collection_url: ['cannot be null; omit it to leave it unchanged'],
        payout_url: ['cannot be null; omit it to leave it unchanged'],
        events: ['is not a recognised field'],
      },
    ],
  ] as const)(
    '%s %s refuses a body of the wrong shape with 422 naming every field, without calling notification',
    async (method, path, body, errors) => {
      const response = await call(method, path, body);
      expect(response).toMatchObject({ status: 422, body: { status: false, code: 'VALIDATION_FAILED' } });
      expect(response.body.errors).toEqual(errors);
      expect(service.calls).toHaveLength(0);
    },
  );

  it("answers notification's refusals: a second registration 409, a bad URL 422, none yet 404", async () => {
    service.answers.set('registerWebhook', () => {
      throw new DomainError(
        Status.ALREADY_EXISTS,
        'WEBHOOK_ALREADY_REGISTERED',
        `this business already registered its webhooks (${WEBHOOK_ID}); change them with PUT /api/external/webhook/${WEBHOOK_ID}`,
      );
    });
    expect(await call('post', '/api/external/webhook', URLS)).toMatchObject({
      status: 409,
      body: { status: false, code: 'WEBHOOK_ALREADY_REGISTERED', message: expect.stringContaining(WEBHOOK_ID) },
    });
    service.answers.set('updateWebhook', () => {
      throw invalidArgument('collection_url resolves to 10.0.0.7, a private address', {
        collection_url: ['resolves to 10.0.0.7, a private address'],
        kyc_url: ['must use https, not http'],
      });
    });
    expect(
      await call('put', W, { collection_url: 'https://internal.example/', kyc_url: 'http://a.example/k' }),
    ).toEqual({
      status: 422,
      body: {
        status: false,
        message: 'collection_url resolves to 10.0.0.7, a private address',
        code: 'VALIDATION_FAILED',
        errors: {
          collection_url: ['resolves to 10.0.0.7, a private address'],
          kyc_url: ['must use https, not http'],
        },
      },
    });
    service.answers.set('getWebhook', () => {
      throw new DomainError(Status.NOT_FOUND, 'WEBHOOK_NOT_FOUND', 'no webhook is registered for this business');
    });
    expect(await call('get', '/api/external/webhook')).toMatchObject({
      status: 404,
      body: { status: false, code: 'WEBHOOK_NOT_FOUND' },
    });
  });

  describe('enabling a disabled URL (decision 0068)', () => {
    const ENABLE = `/api/external/webhook/${WEBHOOK_ID}/endpoint/collection_url/enable`;
    const healthy = {
      status: 'enabled',
      disabled_at: null,
      reason: null,
      failing_since: CREATED.toISOString(),
      consecutive_failures: 2,
    };

    it('takes webhook:write', () => {
      expect(ENDPOINT_ROUTES.map((route) => [route.operationId, route.scope])).toEqual([
        ['enableWebhookUrl', 'webhook:write'],
      ]);
    });

    it('enables with replay by default: the kind as its enum, how many were queued, the health, audited', async () => {
      const response = await call('post', ENABLE);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        message: 'webhook url enabled',
        data: { queued: 4, webhook: { id: WEBHOOK_ID, url_health: { payout_url: healthy } } },
      });
      expect(service.calls[0]).toMatchObject({
        method: 'enableWebhookUrl',
        request: { webhookId: WEBHOOK_ID, urlKind: WebhookDestination.COLLECTION_URL, replay: true },
        caller: { businessId: BUSINESS_ID },
      });
      expect(audits).toEqual([
        {
          businessId: BUSINESS_ID,
          action: 'webhook.url_enabled',
          target: WEBHOOK_ID,
          details: 'collection_url enabled through the API (client ci_test_1): 4 held deliveries queued',
        },
      ]);
      await call('post', ENABLE.replace('collection_url', 'kyc_url'), { replay: false });
      expect(service.calls[1]?.request).toMatchObject({ urlKind: WebhookDestination.KYC_URL, replay: false });
    });

    it('refuses a kind that is no URL field, or a replay that is no boolean, 422 naming it, before notification', async () => {
      expect(await call('post', ENABLE.replace('collection_url', 'callback_url'))).toEqual({
        status: 422,
        body: {
          status: false,
          code: 'VALIDATION_FAILED',
          message: 'kind must be one of kyc_url, collection_url, payout_url',
          errors: { kind: ['must be one of kyc_url, collection_url, payout_url, got "callback_url"'] },
        },
      });
      for (const body of [{ replay: 'yes' }, { replay: true, since: 'now' }]) {
        expect(await call('post', ENABLE, body)).toMatchObject({
          status: 422,
          body: { code: 'VALIDATION_FAILED', errors: expect.any(Object) },
        });
      }
      expect(service.calls).toHaveLength(0);
    });

    it('answers 404 for another business’s webhook, as notification says', async () => {
      service.answers.set('enableWebhookUrl', () => {
        throw notFound('WEBHOOK_NOT_FOUND', `webhook configuration ${WEBHOOK_ID} not found`);
      });
      expect(await call('post', ENABLE)).toMatchObject({
        status: 404,
        body: { status: false, code: 'WEBHOOK_NOT_FOUND' },
      });
      expect(audits).toHaveLength(0);
    });

    it('answers 503 on this route only when notification is a release before 0068 (no EnableWebhookUrl)', async () => {
      service.answers.set('enableWebhookUrl', () => {
        throw new DomainError(Status.UNIMPLEMENTED, 'UNIMPLEMENTED', 'unknown method');
      });
      expect(await call('post', ENABLE)).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE' } });
      // GET still answers, without url_health, which that release does not send.
      const read = await call('get', '/api/external/webhook');
      expect(read.status).toBe(200);
      expect(read.body.data).not.toHaveProperty('url_health');
    });

    it('GET /webhook shows each URL’s health: disabled, since when and why', async () => {
      service.answers.set('getWebhook', () => ({ webhook: webhookConfig({ urlHealth: URL_HEALTH }) }));
      expect((await call('get', '/api/external/webhook')).body.data).toMatchObject({
        url_health: {
          collection_url: {
            status: 'disabled',
            disabled_at: DISABLED_AT.toISOString(),
            reason: 'gone',
            failing_since: DISABLED_AT.toISOString(),
            consecutive_failures: 1,
          },
          payout_url: healthy,
        },
      });
    });
  });
});
