import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import {
  AttemptErrorClass,
  AttemptOutcome,
  AttemptTrigger,
  DeliveryStatus,
  WebhookEvent,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { callerMetadata, DomainError, failedPrecondition, invalidArgument, readCaller, Status } from '@corridor/grpc';
import type { PublicRoute } from '../../floor/route-context.js';
import { serveRoutes } from '../../../test/public/route-harness.js';
import { ATTEMPT_CALL_TIMEOUT_MS, SANDBOX_ONLY_MESSAGE } from './delivery-routes.js';
import {
  ATTEMPT_STARTED,
  BUSINESS_ID,
  CREATED,
  DELIVERY_BODY,
  DELIVERY_ID,
  EVENT_ID,
  NEXT_ATTEMPT,
  startFakeNotificationService,
  UPDATED,
  webhookAttempt,
  webhookDelivery,
} from '../../../test/public/webhooks/fake-notification-service.js';
import { WEBHOOK_DELIVERY_ROUTES, webhookSchemaComponents } from './index.js';

/**
 * The delivery routes' handlers (decision 0010) against notification over real gRPC (a fake service
 * on loopback). Token checks are the public router's, with suites of their own; here every request is
 * a sandbox caller of BUSINESS_ID, or a production one where a test says so.
 */
describe('the webhook delivery routes (decision 0010)', () => {
  let service: Awaited<ReturnType<typeof startFakeNotificationService>>;
  let sandbox: Awaited<ReturnType<typeof serveRoutes>>;
  let production: Awaited<ReturnType<typeof serveRoutes>>;
  /** The deadline each handler asked for, by method (undefined: the client's default). */
  const deadlines: { method: string; timeoutMs: number | undefined }[] = [];

  /**
   * The same routes, their caller moved to production as the public router would forward it: in
   * the context's metadata and in the call settings every handler passes to notification.
   */
  const inProduction = (routes: readonly PublicRoute[]): PublicRoute[] =>
    routes.map((route) => ({
      ...route,
      handle: (context) => {
        const metadata = callerMetadata({ ...readCaller(context.metadata), environment: 'production' });
        return route.handle({ ...context, metadata, call: { ...context.call, metadata } });
      },
    }));

  beforeAll(async () => {
    service = await startFakeNotificationService();
    const client = service.client;
    // The real client, recording the call settings each handler passes.
    const notification = new Proxy(client, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (typeof value !== 'function' || name === 'close') return value;
        return (request: unknown, settings?: { timeoutMs?: number }) => {
          deadlines.push({ method: String(name), timeoutMs: settings?.timeoutMs });
          return (value as (...args: unknown[]) => unknown).call(target, request, settings);
        };
      },
    });
    const caller = { businessId: BUSINESS_ID, scopes: ['webhook:read', 'webhook:replay', 'mock:webhook:trigger'] };
    sandbox = await serveRoutes(WEBHOOK_DELIVERY_ROUTES, caller, { notification });
    production = await serveRoutes(inProduction(WEBHOOK_DELIVERY_ROUTES), caller, { notification });
  });
  afterAll(async () => {
    await sandbox.close();
    await production.close();
    await service.stop();
  });
  beforeEach(() => {
    service.calls.length = 0;
    service.answers.clear();
    deadlines.length = 0;
  });

  const call = (...args: Parameters<typeof sandbox.call>) => sandbox.call(...args);
  const D = `/api/external/webhook/deliveries/${DELIVERY_ID}`;
  const keysOf = (name: string) => Object.keys(webhookSchemaComponents[name]?.properties ?? {});

  /** DELIVERY_BODY as the API shows it. */
  const payload = JSON.parse(DELIVERY_BODY) as unknown;
  const listed = {
    id: DELIVERY_ID,
    event_id: EVENT_ID,
    event: 'customer.status_changed',
    destination: 'collection_url',
    url: 'https://platform.example/hooks/collections',
    status: 'pending',
    attempt_count: 1,
    next_attempt_at: NEXT_ATTEMPT.toISOString(),
    mock: false,
    skipped_reason: null,
    payload,
    created_at: CREATED.toISOString(),
    updated_at: UPDATED.toISOString(),
  };
  const failedAttempt = {
    number: 1,
    trigger: 'scheduled',
    started_at: ATTEMPT_STARTED.toISOString(),
    duration_ms: 412,
    outcome: 'failed',
    status_code: 503,
    error_class: 'http_status',
    error_message: 'the receiver answered 503',
    response_body: 'try later',
  };
  const replayAttempt = {
    ...failedAttempt,
    number: 2,
    trigger: 'replay',
    duration_ms: 96,
    outcome: 'succeeded',
    status_code: 200,
    error_class: null,
    error_message: null,
    response_body: null,
  };
  const attempted = {
    ...listed,
    status: 'succeeded',
    attempt_count: 2,
    next_attempt_at: null,
    attempts: [failedAttempt, replayAttempt],
    attempt: replayAttempt,
  };

  describe('the route table', () => {
    const table = [
      ['listWebhookDeliveries', 'get', '/api/external/webhook/deliveries', 'webhook:read', 200],
      ['getWebhookDelivery', 'get', '/api/external/webhook/deliveries/{id}', 'webhook:read', 200],
      ['replayWebhookDelivery', 'post', '/api/external/webhook/deliveries/{id}/replay', 'webhook:replay', 200],
      ['replayFailedWebhookDeliveries', 'post', '/api/external/webhook/deliveries/replay', 'webhook:replay', 202],
      ['triggerMockWebhook', 'post', '/api/external/webhook/mock', 'mock:webhook:trigger', 200],
    ] as const;

    it('lists exactly the five routes of decision 0010, each with its scope and one documented success', () => {
      expect(
        WEBHOOK_DELIVERY_ROUTES.map((route) => [route.operationId, route.method, route.path, route.scope]),
      ).toEqual(expect.arrayContaining(table.map(([id, method, path, scope]) => [id, method, path, scope])));
      expect(WEBHOOK_DELIVERY_ROUTES).toHaveLength(table.length);
      for (const [operationId, , , , status] of table) {
        const route = WEBHOOK_DELIVERY_ROUTES.find((candidate) => candidate.operationId === operationId);
        expect(Object.keys(route?.responses ?? {}).filter((code) => code.startsWith('2'))).toEqual([String(status)]);
        expect(route?.responses[status]?.schema).toBeDefined();
      }
    });

    it('takes a body on the POST routes that send one, and none elsewhere', () => {
      const withBody = WEBHOOK_DELIVERY_ROUTES.filter((route) => route.requestBody).map((route) => route.operationId);
      expect(withBody.sort()).toEqual(['replayFailedWebhookDeliveries', 'triggerMockWebhook']);
    });
  });

  describe('GET /webhook/deliveries', () => {
    it('answers the first cursor page of deliveries without attempts; no filter is sent as absent', async () => {
      const response = await call('get', '/api/external/webhook/deliveries');
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        data: [listed],
        links: { first: null, last: null, prev: null, next: null },
        meta: {
          path: `${sandbox.base}/api/external/webhook/deliveries`,
          per_page: 15,
          next_cursor: null,
          prev_cursor: null,
        },
      });
      const [received] = service.calls;
      expect(received?.method).toBe('listDeliveries');
      expect(received?.request).toMatchObject({ page: 0, cursorPage: { cursor: '', limit: 0 } });
      for (const filter of ['status', 'eventType', 'createdFrom', 'createdTo'])
        expect(received?.request[filter]).toBeUndefined();
      expect(received?.caller).toMatchObject({ businessId: BUSINESS_ID, environment: 'sandbox' });
    });

    it('passes cursor and per_page on, and links the next and previous pages with the filters kept', async () => {
      service.answers.set('listDeliveries', () => ({
        deliveries: [webhookDelivery({ status: DeliveryStatus.FAILED, nextAttemptAt: undefined })],
        cursorPage: { nextCursor: 'older-one', previousCursor: 'newer-one', limit: 50 },
      }));
      const response = await call('get', '/api/external/webhook/deliveries?status=failed&per_page=50&cursor=given');
      expect(service.calls[0]?.request).toMatchObject({
        status: DeliveryStatus.FAILED,
        page: 0,
        cursorPage: { cursor: 'given', limit: 50 },
      });
      const url = (cursor: string) =>
        `${sandbox.base}/api/external/webhook/deliveries?status=failed&per_page=50&cursor=${cursor}`;
      expect(response.body).toMatchObject({
        links: { first: null, last: null, prev: url('newer-one'), next: url('older-one') },
        meta: { per_page: 50, next_cursor: 'older-one', prev_cursor: 'newer-one' },
      });
    });

    it('answers exactly the properties of the closed WebhookDelivery schema for each item', async () => {
      const { body } = await call('get', '/api/external/webhook/deliveries');
      const [item] = body.data as Record<string, unknown>[];
      expect(Object.keys(item ?? {})).toEqual(keysOf('WebhookDelivery'));
      expect(item).not.toHaveProperty('attempts');
    });

    it('sends the filters to notification and keeps them, encoded, in every link', async () => {
      service.answers.set('listDeliveries', () => ({
        deliveries: [webhookDelivery({ status: DeliveryStatus.FAILED, nextAttemptAt: undefined })],
        page: { currentPage: 2, perPage: 15, lastPage: 3, total: 31n, totalCapped: false },
      }));
      const query =
        'status=failed&event=refund_initiated&from=2026-11-21T10%3A00%3A00%2B01%3A00&to=2026-11-22T00:00:00.500Z';
      const response = await call('get', `/api/external/webhook/deliveries?${query}&page=2`);
      expect(response.status).toBe(200);
      const request = service.calls[0]?.request ?? {};
      // The words cross as notification's enums (decision 0026).
      expect(request).toMatchObject({
        status: DeliveryStatus.FAILED,
        eventType: WebhookEvent.REFUND_INITIATED,
        page: 2,
      });
      expect(timestampDate(request.createdFrom as Timestamp).toISOString()).toBe('2026-11-21T09:00:00.000Z');
      expect(timestampDate(request.createdTo as Timestamp).toISOString()).toBe('2026-11-22T00:00:00.500Z');
      const url = (page: number) =>
        `${sandbox.base}/api/external/webhook/deliveries?status=failed&event=refund_initiated&from=2026-11-21T10%3A00%3A00%2B01%3A00&to=2026-11-22T00%3A00%3A00.500Z&page=${page}`;
      expect(response.body).toMatchObject({
        data: [expect.objectContaining({ status: 'failed', next_attempt_at: null })],
        links: { first: url(1), last: url(3), prev: url(1), next: url(3) },
        meta: { current_page: 2, from: 16, to: 16, last_page: 3, per_page: 15, total: 31, total_capped: false },
      });
    });

    it('says when a numbered page’s total stopped at its cap', async () => {
      service.answers.set('listDeliveries', () => ({
        deliveries: [webhookDelivery()],
        page: { currentPage: 1, perPage: 15, lastPage: 100, total: 10_000n, totalCapped: true },
      }));
      const { body } = await call('get', '/api/external/webhook/deliveries?page=1');
      expect(body).toMatchObject({ meta: { total: 10_000, total_capped: true, last_page: 100 } });
    });

    it('answers an empty page with from and to null and one page', async () => {
      service.answers.set('listDeliveries', () => ({
        deliveries: [],
        page: { currentPage: 1, perPage: 15, lastPage: 0, total: 0n, totalCapped: false },
      }));
      expect((await call('get', '/api/external/webhook/deliveries?status=pending&page=1')).body).toMatchObject({
        data: [],
        meta: { from: null, to: null, last_page: 1, total: 0 },
      });
    });

    it.each([
      [
        'an unknown parameter',
        'state=failed',
        { state: [expect.stringContaining('is not a recognised query parameter')] },
      ],
      ['a repeated parameter', 'status=failed&status=pending', { status: ['must be given once'] }],
      [
        'a status outside its values',
        'status=FAILED',
        { status: [expect.stringContaining('pending, succeeded, failed')] },
      ],
      ['from not a date-time', 'from=yesterday', { from: [expect.stringContaining('ISO 8601 date-time')] }],
      ['to without a time zone', 'to=2026-11-21T10:00:00', { to: [expect.stringContaining('with a time zone')] }],
      ['a day that does not exist', 'from=2026-02-30T00:00:00Z', { from: [expect.any(String)] }],
      ['an hour that does not exist', 'to=2026-11-21T24:00:00Z', { to: [expect.any(String)] }],
      [
        'an unencoded + in an offset, read as a space',
        'from=2026-11-21T10:00:00+01:00',
        { from: [expect.stringContaining('%2B')] },
      ],
      [
        'from not before to',
        'from=2026-11-22T00:00:00Z&to=2026-11-21T00:00:00Z',
        { from: [expect.stringContaining('must be before to')] },
      ],
      ['from equal to to', 'from=2026-11-21T00:00:00Z&to=2026-11-21T01:00:00%2B01:00', { from: [expect.any(String)] }],
      ['page 0', 'page=0', { page: [expect.stringContaining('whole number')] }],
      ['page 101', 'page=101', { page: [expect.stringContaining('from 1 to 100')] }],
      ['page with a cursor', 'page=2&cursor=abc', { page: ['cannot be combined with cursor'] }],
      ['per_page 0', 'per_page=0', { per_page: [expect.stringContaining('from 1 to 100')] }],
      ['page not a number', 'page=two', { page: [expect.any(String)] }],
    ])('refuses %s with 422 naming the parameter, without calling notification', async (_case, query, errors) => {
      const response = await call('get', `/api/external/webhook/deliveries?${query}`);
      expect(response).toEqual({
        status: 422,
        body: { status: false, code: 'VALIDATION_FAILED', message: expect.any(String), errors },
      });
      const [name] = Object.keys(errors);
      expect(response.body.message).toMatch(new RegExp(`^${name} `));
      expect(service.calls).toHaveLength(0);
    });

    it('names every bad parameter at once', async () => {
      const response = await call('get', '/api/external/webhook/deliveries?status=x&from=y&page=-1&sort=new');
      expect(Object.keys(response.body.errors as object).sort()).toEqual(['from', 'page', 'sort', 'status']);
    });

    it('refuses an unknown event name itself (it crosses as an enum, decision 0026), without calling notification', async () => {
      const response = await call('get', '/api/external/webhook/deliveries?event=customer.created');
      expect(response).toMatchObject({
        status: 422,
        body: {
          code: 'VALIDATION_FAILED',
          message: expect.stringMatching(
            /^event must be one of customer\.status_changed, .*, got "customer\.created"$/,
          ),
          errors: { event: [expect.stringContaining('payout.reversed')] },
        },
      });
      expect(service.calls).toHaveLength(0);
    });
  });

  describe('GET /webhook/deliveries/{id}', () => {
    it('answers {message, data}: the delivery with its attempts, the path id sent as delivery_id', async () => {
      const response = await call('get', D, undefined, { 'x-request-id': 'req-get-delivery' });
      expect(response).toEqual({
        status: 200,
        body: { message: 'webhook delivery retrieved', data: { ...listed, attempts: [failedAttempt] } },
      });
      expect(Object.keys(response.body.data as object)).toEqual(keysOf('WebhookDeliveryWithAttempts'));
      expect(service.calls[0]).toMatchObject({
        method: 'getDelivery',
        request: { deliveryId: DELIVERY_ID },
        caller: { businessId: BUSINESS_ID, requestId: 'req-get-delivery' },
      });
    });

    it('answers proto3 zero values as null: no status code, error, reply or next attempt', async () => {
      service.answers.set('getDelivery', () => ({
        delivery: webhookDelivery({
          status: DeliveryStatus.FAILED,
          nextAttemptAt: undefined,
          mock: true,
          attempts: [
            webhookAttempt({
              statusCode: 0,
              errorClass: AttemptErrorClass.TIMEOUT,
              errorMessage: 'no reply in 30 s',
              responseBody: '',
            }),
          ],
        }),
      }));
      const { body } = await call('get', D);
      expect(body.data).toMatchObject({
        status: 'failed',
        next_attempt_at: null,
        mock: true,
        attempts: [
          { status_code: null, error_class: 'timeout', error_message: 'no reply in 30 s', response_body: null },
        ],
      });
      const [attempt] = (body.data as { attempts: object[] }).attempts;
      expect(Object.keys(attempt ?? {})).toEqual(keysOf('WebhookAttempt'));
    });

    it('issue 18: answers an attempt no answer ended (in_flight, interrupted) with duration_ms null', async () => {
      const interrupted = {
        durationMs: 0,
        outcome: AttemptOutcome.INTERRUPTED,
        statusCode: 0,
        errorClass: AttemptErrorClass.INTERRUPTED,
        errorMessage: 'the delivering process stopped before an answer was recorded',
        responseBody: '',
      };
      const inFlight = {
        number: 2,
        durationMs: 0,
        outcome: AttemptOutcome.IN_FLIGHT,
        statusCode: 0,
        errorClass: AttemptErrorClass.UNSPECIFIED,
        errorMessage: '',
        responseBody: '',
      };
      service.answers.set('getDelivery', () => ({
        delivery: webhookDelivery({ attempts: [webhookAttempt(interrupted), webhookAttempt(inFlight)] }),
      }));
      const { body } = await call('get', D);
      expect((body.data as { attempts: object[] }).attempts).toEqual([
        expect.objectContaining({
          number: 1,
          outcome: 'interrupted',
          duration_ms: null,
          status_code: null,
          error_class: 'interrupted',
          error_message: 'the delivering process stopped before an answer was recorded',
        }),
        expect.objectContaining({ number: 2, outcome: 'in_flight', duration_ms: null, error_class: null }),
      ]);
    });

    it('leaves a non-UUID id to notification, whose NOT_FOUND is 404, as every route with an id', async () => {
      service.answers.set('getDelivery', () => {
        throw new DomainError(Status.NOT_FOUND, 'WEBHOOK_DELIVERY_NOT_FOUND', 'webhook delivery not-a-uuid not found');
      });
      expect(await call('get', '/api/external/webhook/deliveries/not-a-uuid')).toEqual({
        status: 404,
        body: {
          status: false,
          code: 'WEBHOOK_DELIVERY_NOT_FOUND',
          message: 'webhook delivery not-a-uuid not found',
        },
      });
      expect(service.calls[0]?.request).toMatchObject({ deliveryId: 'not-a-uuid' });
    });

    it('answers 500, not a made-up payload, when notification sends a body that is not JSON', async () => {
      service.answers.set('getDelivery', () => ({ delivery: webhookDelivery({ body: '{"event":' }) }));
      expect(await call('get', D)).toMatchObject({ status: 500, body: { code: 'INTERNAL' } });
    });
  });

  describe('POST /webhook/deliveries/{id}/replay', () => {
    it('answers 200 {message, data}: the delivery with its attempts and the attempt just made', async () => {
      const response = await call('post', `${D}/replay`);
      expect(response).toEqual({ status: 200, body: { message: 'webhook delivery replayed', data: attempted } });
      expect(Object.keys(response.body.data as object)).toEqual(keysOf('WebhookDeliveryAttempted'));
      expect(service.calls.map(({ method, request }) => [method, request.deliveryId])).toEqual([
        ['replayDelivery', DELIVERY_ID],
      ]);
    });

    it('waits longer than an attempt can take (30 s + 5 s connect) for the outcome', async () => {
      await call('post', `${D}/replay`);
      expect(deadlines).toEqual([{ method: 'replayDelivery', timeoutMs: ATTEMPT_CALL_TIMEOUT_MS }]);
      expect(ATTEMPT_CALL_TIMEOUT_MS).toBeGreaterThan(30_000 + 5_000);
    });

    it('answers a failed replay as 200 with its outcome, not as an error', async () => {
      const attempt = webhookAttempt({
        number: 6,
        trigger: AttemptTrigger.REPLAY,
        statusCode: 0,
        errorClass: AttemptErrorClass.CONNECT,
      });
      service.answers.set('replayDelivery', () => ({
        delivery: webhookDelivery({ status: DeliveryStatus.FAILED, nextAttemptAt: undefined, attempts: [attempt] }),
        attempt,
      }));
      const response = await call('post', `${D}/replay`);
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        status: 'failed',
        attempt: { number: 6, outcome: 'failed', status_code: null, error_class: 'connect' },
      });
    });
  });

  describe('POST /webhook/deliveries/replay', () => {
    it('is not taken for a delivery id: since and until go to ReplayFailedDeliveries as instants, 202 {message, data: {queued}}', async () => {
      const body = { since: '2026-11-20T01:00:00+01:00', until: '2026-11-21T00:00:00.250Z' };
      expect(await call('post', '/api/external/webhook/deliveries/replay', body)).toEqual({
        status: 202,
        body: { message: 'failed webhook deliveries queued for replay', data: { queued: 3 } },
      });
      const instant = (stamp: unknown) => timestampDate(stamp as Timestamp).toISOString();
      expect(
        service.calls.map(({ method, request }) => [method, instant(request.since), instant(request.until)]),
      ).toEqual([['replayFailedDeliveries', '2026-11-20T00:00:00.000Z', '2026-11-21T00:00:00.250Z']]);
      expect(deadlines).toEqual([{ method: 'replayFailedDeliveries', timeoutMs: undefined }]);
      await call('post', '/api/external/webhook/deliveries/replay', { since: body.since });
      expect(service.calls[1]?.request.until).toBeUndefined();
    });

    it("answers notification's refusal of the window with 422 and its errors", async () => {
      service.answers.set('replayFailedDeliveries', () => {
        throw invalidArgument('until must be after since', { until: ['must be after since'] });
      });
      const backwards = { since: '2026-11-21T00:00:00Z', until: '2026-11-20T00:00:00Z' };
      expect(await call('post', '/api/external/webhook/deliveries/replay', backwards)).toEqual({
        status: 422,
        body: {
          status: false,
          message: 'until must be after since',
          code: 'VALIDATION_FAILED',
          errors: { until: ['must be after since'] },
        },
      });
    });

    it('refuses a missing since, a time that is not an RFC 3339 date-time and an unknown field, without calling notification', async () => {
      const response = await call('post', '/api/external/webhook/deliveries/replay', {
        until: 'soon',
        window: 'P1D',
      });
      expect(response).toMatchObject({
        status: 422,
        body: { code: 'VALIDATION_FAILED', message: 'since is required' },
      });
      expect(response.body.errors).toEqual({
        since: ['is required'],
        until: ['must be an ISO 8601 date-time with a time zone, such as 2026-11-22T00:00:00Z, got "soon"'],
        window: ['is not a recognised field'],
      });
      expect(service.calls).toHaveLength(0);
    });

    it('refuses until: null with 422 naming until, without calling notification (issue 18)', async () => {
      const body = { since: '2026-11-20T00:00:00Z', until: null };
      expect(await call('post', '/api/external/webhook/deliveries/replay', body)).toMatchObject({
        status: 422,
        body: {
          code: 'VALIDATION_FAILED',
          message: expect.stringMatching(/^until must be an ISO 8601 date-time/),
          errors: { until: [expect.stringMatching(/null$/)] },
        },
      });
      expect(service.calls).toHaveLength(0);
    });

    it('refuses a body that is not a JSON object with 422, without calling notification', async () => {
      expect(await call('post', '/api/external/webhook/deliveries/replay', '["2026-11-20"]')).toMatchObject({
        status: 422,
        body: { code: 'VALIDATION_FAILED', errors: { '(body)': ['must be a JSON object'] } },
      });
      expect(service.calls).toHaveLength(0);
    });
  });

  describe('POST /webhook/mock', () => {
    it('in sandbox: sends the event as its enum and data as sent, answers the mock delivery and its attempt', async () => {
      const data = { customer_reference: 'user-42', requirements: ['SELFIE'], rejection_reason: null };
      const body = { event: 'merchant.kyc.session.completed', data };
      const response = await call('post', '/api/external/webhook/mock', body);
      expect(response).toEqual({ status: 200, body: { message: 'mock webhook sent', data: attempted } });
      expect(service.calls.map(({ method, request }) => [method, request.event, request.data])).toEqual([
        ['triggerMockWebhook', WebhookEvent.MERCHANT_KYC_SESSION_COMPLETED, data],
      ]);
      expect(service.calls[0]?.caller).toMatchObject({ environment: 'sandbox' });
      expect(deadlines).toEqual([{ method: 'triggerMockWebhook', timeoutMs: ATTEMPT_CALL_TIMEOUT_MS }]);
    });

    it('sends no data when data is omitted or null: nothing of the example is replaced', async () => {
      await call('post', '/api/external/webhook/mock', { event: 'refund' });
      await call('post', '/api/external/webhook/mock', { event: 'refund', data: null });
      expect(service.calls.map(({ request }) => [request.event, request.data])).toEqual([
        [WebhookEvent.REFUND, undefined],
        [WebhookEvent.REFUND, undefined],
      ]);
    });

    it('refuses an unknown event, data that is not an object and an unknown field, without calling notification', async () => {
      const response = await call('post', '/api/external/webhook/mock', {
        event: 'customer.created',
        data: ['x'],
        url: 'https://a.example/',
      });
      expect(response).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED' } });
      expect(response.body.errors).toEqual({
        event: [
          expect.stringMatching(
            /^must be one of customer\.status_changed, .*payout\.reversed, got "customer\.created"$/,
          ),
        ],
        data: ["must be an object of fields replacing the example's, got an array"],
        url: ['is not a recognised field'],
      });
      expect((await call('post', '/api/external/webhook/mock', {})).body.errors).toEqual({ event: ['is required'] });
      expect(service.calls).toHaveLength(0);
    });

    it('in production: 403 SANDBOX_ONLY without calling notification', async () => {
      expect(await production.call('post', '/api/external/webhook/mock', { event: 'refund' })).toEqual({
        status: 403,
        body: { status: false, message: SANDBOX_ONLY_MESSAGE, code: 'SANDBOX_ONLY' },
      });
      expect(SANDBOX_ONLY_MESSAGE).toBe('the mock webhook trigger is a sandbox simulation; production has none');
      expect(service.calls).toHaveLength(0);
    });

    it('in production, the other delivery routes still answer', async () => {
      expect((await production.call('get', D)).status).toBe(200);
      expect(service.calls[0]?.caller).toMatchObject({ environment: 'production' });
    });

    it("answers notification's own PERMISSION_DENIED SANDBOX_ONLY with 403 as well", async () => {
      service.answers.set('triggerMockWebhook', () => {
        throw new DomainError(Status.PERMISSION_DENIED, 'SANDBOX_ONLY', SANDBOX_ONLY_MESSAGE);
      });
      expect(await call('post', '/api/external/webhook/mock', { event: 'refund' })).toEqual({
        status: 403,
        body: { status: false, message: SANDBOX_ONLY_MESSAGE, code: 'SANDBOX_ONLY' },
      });
    });
  });

  describe("notification's refusals, through the gateway's one mapping", () => {
    it.each([
      ['INVALID_ARGUMENT', () => invalidArgument('event is not a webhook event', { event: ['is unknown'] }), 422],
      ['FAILED_PRECONDITION', () => failedPrecondition('WEBHOOK_NOT_REGISTERED', 'register webhook URLs first'), 400],
      ['NOT_FOUND', () => new DomainError(Status.NOT_FOUND, 'WEBHOOK_NOT_FOUND', 'no webhook registered'), 404],
      ['PERMISSION_DENIED', () => new DomainError(Status.PERMISSION_DENIED, 'SANDBOX_ONLY', 'sandbox only'), 403],
      ['UNAVAILABLE', () => new DomainError(Status.UNAVAILABLE, 'DOWN', 'database down'), 503],
    ] as const)('%s → %i on every route', async (_status, refusal, httpStatus) => {
      for (const method of [
        'listDeliveries',
        'getDelivery',
        'replayDelivery',
        'replayFailedDeliveries',
        'triggerMockWebhook',
      ]) {
        service.answers.set(method, () => {
          throw refusal();
        });
      }
      for (const [method, path, body] of [
        ['get', '/api/external/webhook/deliveries', undefined],
        ['get', D, undefined],
        ['post', `${D}/replay`, undefined],
        ['post', '/api/external/webhook/deliveries/replay', { since: '2026-11-20T00:00:00Z' }],
        ['post', '/api/external/webhook/mock', { event: 'refund' }],
      ] as const) {
        const response = await call(method, path, body);
        expect({ path, method, status: response.status, status_: response.body.status }).toEqual({
          path,
          method,
          status: httpStatus,
          status_: false,
        });
      }
      expect(service.calls).toHaveLength(5);
    });

    it('answers a replay without its attempt as 500: notification must say what it just did', async () => {
      service.answers.set('replayDelivery', () => ({ delivery: webhookDelivery(), attempt: undefined }));
      expect(await call('post', `${D}/replay`)).toMatchObject({ status: 500, body: { code: 'INTERNAL' } });
    });
  });
});
