import { DomainError, notFound, Status } from '@corridor/grpc';
import { WebhookDestination } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { serveRoutes } from '../../../test/public/route-harness.js';
import {
  BUSINESS_ID,
  CREATED,
  DISABLED_AT,
  startFakeNotificationService,
  URL_HEALTH,
  WEBHOOK_ID,
  webhookConfig,
} from '../../../test/public/webhooks/fake-notification-service.js';
import { ENDPOINT_ROUTES } from './endpoint-routes.js';
import { WEBHOOK_ROUTES } from './index.js';

/** Enabling a disabled URL (decision 0068) against notification over real gRPC (a fake on loopback). */
describe('the endpoint health routes (decision 0068)', () => {
  let service: Awaited<ReturnType<typeof startFakeNotificationService>>;
  let routes: Awaited<ReturnType<typeof serveRoutes>>;
  const audits: object[] = [];

  beforeAll(async () => {
    service = await startFakeNotificationService();
    routes = await serveRoutes(
      [...WEBHOOK_ROUTES, ...ENDPOINT_ROUTES],
      { businessId: BUSINESS_ID, scopes: ['webhook:read', 'webhook:write'] },
      {
        notification: service.client,
        members: {
          recordAudit: async (request: object) => {
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
  });

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
    const response = await routes.call('post', ENABLE);
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
    await routes.call('post', ENABLE.replace('collection_url', 'kyc_url'), { replay: false });
    expect(service.calls[1]?.request).toMatchObject({ urlKind: WebhookDestination.KYC_URL, replay: false });
  });

  it('refuses a kind that is no URL field, or a replay that is no boolean, 422 naming it, before notification', async () => {
    expect(await routes.call('post', ENABLE.replace('collection_url', 'callback_url'))).toEqual({
      status: 422,
      body: {
        status: false,
        code: 'VALIDATION_FAILED',
        message: 'kind must be one of kyc_url, collection_url, payout_url',
        errors: { kind: ['must be one of kyc_url, collection_url, payout_url, got "callback_url"'] },
      },
    });
    for (const body of [{ replay: 'yes' }, { replay: true, since: 'now' }]) {
      expect(await routes.call('post', ENABLE, body)).toMatchObject({
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
    expect(await routes.call('post', ENABLE)).toMatchObject({
      status: 404,
      body: { status: false, code: 'WEBHOOK_NOT_FOUND' },
    });
    expect(audits).toHaveLength(0);
  });

  it('answers 503 on this route only when notification is a release before 0068 (no EnableWebhookUrl)', async () => {
    service.answers.set('enableWebhookUrl', () => {
      throw new DomainError(Status.UNIMPLEMENTED, 'UNIMPLEMENTED', 'unknown method');
    });
    expect(await routes.call('post', ENABLE)).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE' } });
    // GET still answers, without url_health, which that release does not send.
    const read = await routes.call('get', '/api/external/webhook');
    expect(read.status).toBe(200);
    expect(read.body.data).not.toHaveProperty('url_health');
  });

  it('GET /webhook shows each URL’s health: disabled, since when and why', async () => {
    service.answers.set('getWebhook', () => ({ webhook: webhookConfig({ urlHealth: URL_HEALTH }) }));
    expect((await routes.call('get', '/api/external/webhook')).body.data).toMatchObject({
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
