import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { WebhookEvent } from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { invalidArgument, notFound } from '@corridor/grpc';
import { serveRoutes } from '../../../test/public/route-harness.js';
import {
  BUSINESS_ID,
  CREATED,
  DELIVERY_BODY,
  EVENT_ID,
  historyEvent,
  startFakeNotificationService,
} from '../../../test/public/webhooks/fake-notification-service.js';
import { PUBLIC_ROUTES } from '../routes.js';
import { EVENT_ROUTES, webhookSchemaComponents } from './index.js';

/**
 * The event history's routes (decisions 0066, 0067) against notification over real gRPC (a fake
 * service on loopback). Token checks are the public router's; here every request is BUSINESS_ID's.
 */
describe('the event history routes (decision 0066)', () => {
  let service: Awaited<ReturnType<typeof startFakeNotificationService>>;
  let served: Awaited<ReturnType<typeof serveRoutes>>;

  beforeAll(async () => {
    service = await startFakeNotificationService();
    served = await serveRoutes(
      EVENT_ROUTES,
      { businessId: BUSINESS_ID, scopes: ['webhook:read'] },
      {
        notification: service.client,
      },
    );
  });
  afterAll(async () => {
    await served.close();
    await service.stop();
  });
  beforeEach(() => {
    service.calls.length = 0;
    service.answers.clear();
  });

  const event = {
    id: EVENT_ID,
    event: 'customer.status_changed',
    sequence: 7,
    payload: JSON.parse(DELIVERY_BODY) as unknown,
    occurred_at: new Date(CREATED.getTime() - 40).toISOString(),
    created_at: CREATED.toISOString(),
  };

  it('are two public GETs under webhook:read, each with one documented success, in the public table', () => {
    expect(EVENT_ROUTES.map((route) => [route.operationId, route.method, route.path, route.scope])).toEqual([
      ['listEvents', 'get', '/api/external/event', 'webhook:read'],
      ['getEvent', 'get', '/api/external/event/{id}', 'webhook:read'],
    ]);
    for (const route of EVENT_ROUTES) {
      expect(Object.keys(route.responses).filter((code) => code.startsWith('2'))).toEqual(['200']);
      expect(PUBLIC_ROUTES).toContain(route);
    }
    expect(Object.keys(webhookSchemaComponents.Event?.properties ?? {})).toEqual(Object.keys(event));
  });

  it('answers the first cursor page newest first, the event with its sequence and the body as payload', async () => {
    const response = await served.call('get', '/api/external/event');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [event],
      links: { first: null, last: null, prev: null, next: null },
      meta: { path: `${served.base}/api/external/event`, per_page: 15, next_cursor: null, prev_cursor: null },
    });
    const [received] = service.calls;
    expect(received?.method).toBe('listEvents');
    expect(received?.request).toMatchObject({ cursorPage: { cursor: '', limit: 0 } });
    for (const filter of ['eventType', 'createdFrom', 'createdTo']) expect(received?.request[filter]).toBeUndefined();
    expect(received?.caller).toMatchObject({ businessId: BUSINESS_ID });
  });

  it('sends type, from, to, cursor and per_page on, and links the next and previous pages with them', async () => {
    service.answers.set('listEvents', () => ({
      events: [historyEvent({ sequence: 12n })],
      cursorPage: { nextCursor: 'older-one', previousCursor: 'newer-one', limit: 50 },
    }));
    const query = 'type=refund_initiated&from=2026-11-21T10%3A00%3A00%2B01%3A00&to=2026-11-22T00:00:00Z&per_page=50';
    const response = await served.call('get', `/api/external/event?${query}&cursor=given`);
    expect(response.status).toBe(200);
    const request = service.calls[0]?.request ?? {};
    expect(request).toMatchObject({
      eventType: WebhookEvent.REFUND_INITIATED,
      cursorPage: { cursor: 'given', limit: 50 },
    });
    expect(timestampDate(request.createdFrom as Timestamp).toISOString()).toBe('2026-11-21T09:00:00.000Z');
    expect(timestampDate(request.createdTo as Timestamp).toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(response.body).toMatchObject({
      data: [{ sequence: 12 }],
      meta: { per_page: 50, next_cursor: 'older-one', prev_cursor: 'newer-one' },
    });
  });

  it.each([
    ['an unknown parameter', 'status=failed', 'status'],
    ['a numbered page (the history has cursor pages only)', 'page=2', 'page'],
    ['an unknown type', 'type=payment.done', 'type'],
    ['a repeated type', 'type=refund_initiated&type=refund_initiated', 'type'],
    ['a from without a time zone', 'from=2026-11-21T10:00:00', 'from'],
    ['from not before to', 'from=2026-11-22T00:00:00Z&to=2026-11-21T00:00:00Z', 'from'],
    ['per_page over 100', 'per_page=101', 'per_page'],
    ['an empty cursor', 'cursor=', 'cursor'],
  ])('refuses %s with 422 naming the parameter, without calling notification', async (_case, query, name) => {
    const response = await served.call('get', `/api/external/event?${query}`);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: { [name]: [expect.any(String)] } });
    expect(service.calls).toHaveLength(0);
  });

  it('answers notification’s refusal of a cursor as 422 naming cursor', async () => {
    service.answers.set('listEvents', () => {
      throw invalidArgument('cursor is not a cursor this API returned', {
        cursor: ['is not a cursor this API returned'],
      });
    });
    const response = await served.call('get', '/api/external/event?cursor=bm90LWEtY3Vyc29y');
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ errors: { cursor: ['is not a cursor this API returned'] } });
  });

  it('GET /event/{id} answers the event; another business’s id is 404 EVENT_NOT_FOUND', async () => {
    const found = await served.call('get', `/api/external/event/${EVENT_ID}`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ message: 'event retrieved', data: event });
    expect(service.calls[0]).toMatchObject({ method: 'getEvent', request: { eventId: EVENT_ID } });

    service.answers.set('getEvent', () => {
      throw notFound('EVENT_NOT_FOUND', `event ${EVENT_ID} not found`);
    });
    const missing = await served.call('get', `/api/external/event/${EVENT_ID}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'EVENT_NOT_FOUND' });
  });
});
