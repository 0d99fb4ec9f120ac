import {
  AttemptErrorClass,
  AttemptOutcome,
  AttemptTrigger,
} from '@corridor/contracts/corridor/notification/v1/notification_service_pb';
import { DomainError, invalidArgument, notFound, permissionDenied, Status } from '@corridor/grpc';
import { serveRoutes } from '../../../test/public/route-harness.js';
import type { PublicRoute } from '../../floor/route-context.js';
import {
  BUSINESS_ID,
  DELIVERY_BODY,
  DELIVERY_ID,
  startFakeNotificationService,
  webhookAttempt,
  webhookDelivery,
} from '../../../test/public/webhooks/fake-notification-service.js';
import { webhookListenRoutes } from './listen-routes.js';

const SIGNED = {
  'content-type': 'application/json',
  'user-agent': 'Corridor-Webhooks/1.0',
  'x-corridor-timestamp': '1795770000',
  'x-corridor-signature': 'ab'.repeat(32),
  'x-corridor-webhook-id': DELIVERY_ID,
};

/** The routes with a token that expires `expiresInMs` from now (the harness has no authentication). */
function withToken(routes: readonly PublicRoute[], expiresInMs: () => number): PublicRoute[] {
  return routes.map((route) => ({
    ...route,
    handle: (context) =>
      route.handle({ ...context, auth: { caller: { expiresAt: (Date.now() + expiresInMs()) / 1000 } } as never }),
  }));
}

interface Sse {
  status: number;
  contentType: string | null;
  /** Every event and comment so far, as raw text. */
  text: () => string;
  /** Resolves once the text so far satisfies `until`. */
  waitFor: (until: (text: string) => boolean) => Promise<string>;
  ended: Promise<void>;
  close: () => void;
}

async function openStream(base: string, headers: Record<string, string> = {}): Promise<Sse> {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/external/webhook/listen`, { headers, signal: controller.signal });
  let text = '';
  const waiting = new Set<() => void>();
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        text += decoder.decode(chunk as Uint8Array, { stream: true });
        for (const check of waiting) check();
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: () => text,
    waitFor: (until) =>
      new Promise((resolve, reject) => {
        const timeout = setTimeout(() => reject(new Error(`stream never showed it; got:\n${text}`)), 4_000);
        const check = () => {
          if (!until(text)) return;
          clearTimeout(timeout);
          waiting.delete(check);
          resolve(text);
        };
        waiting.add(check);
        check();
      }),
    ended,
    close: () => controller.abort(),
  };
}

/** The data of every `data:` line, parsed. */
const events = (text: string) =>
  text
    .split('\n\n')
    .filter((block) => block.includes('\ndata: ') || block.startsWith('data: '))
    .map((block) => {
      const lines = block.split('\n');
      return {
        id: lines.find((line) => line.startsWith('id: '))?.slice(4),
        data: JSON.parse(lines.find((line) => line.startsWith('data: '))?.slice(6) ?? 'null') as Record<
          string,
          unknown
        >,
      };
    });

describe('the listen routes (decision 0034)', () => {
  let service: Awaited<ReturnType<typeof startFakeNotificationService>>;
  let routes: Awaited<ReturnType<typeof serveRoutes>>;
  let expiresInMs = 3_600_000;

  beforeAll(async () => {
    service = await startFakeNotificationService();
    routes = await serveRoutes(
      withToken(webhookListenRoutes({ pollMs: 20, heartbeatMs: 150, retryMs: 30 }), () => expiresInMs),
      { businessId: BUSINESS_ID, scopes: ['webhook:read'] },
      { notification: service.client },
    );
  });
  afterAll(async () => {
    await routes.close();
    await service.stop();
  });
  beforeEach(() => {
    service.calls.length = 0;
    service.answers.clear();
    expiresInMs = 3_600_000;
  });

  /** notification's answers: from `start` on, one delivery at position p1, then nothing new. */
  const oneDelivery = (start = 'p0') => {
    service.answers.set('listenDeliveries', (request) =>
      request.afterPosition === ''
        ? { position: start }
        : request.afterPosition === start
          ? {
              deliveries: [
                {
                  delivery: webhookDelivery({ url: 'https://platform.example/hooks/collections' }),
                  position: 'p1',
                  headers: SIGNED,
                },
              ],
              position: 'p1',
            }
          : { deliveries: [], position: request.afterPosition },
    );
  };

  it('streams each new delivery with its position as the event id, the raw body and the signed headers', async () => {
    oneDelivery();
    const stream = await openStream(routes.base);
    expect(stream.status).toBe(200);
    expect(stream.contentType).toBe('text/event-stream; charset=utf-8');
    await stream.waitFor((text) => events(text).length === 1 && text.includes(': heartbeat'));
    stream.close();
    const [event] = events(stream.text());
    expect(event).toEqual({
      id: 'p1',
      data: {
        delivery_id: DELIVERY_ID,
        event: 'customer.status_changed',
        destination: 'collection_url',
        url: 'https://platform.example/hooks/collections',
        mock: false,
        created_at: '2026-11-21T09:00:00.000Z',
        body: DELIVERY_BODY,
        headers: SIGNED,
      },
    });
    expect(stream.text()).toMatch(/^retry: 1000\n: listening from p0\n\n/);
    // From now, then after each position it was given; always for the caller's business.
    const asked = service.calls.map(({ request }) => request.afterPosition);
    expect(asked.slice(0, 3)).toEqual(['', 'p0', 'p1']);
    expect(new Set(service.calls.map(({ caller }) => caller.businessId))).toEqual(new Set([BUSINESS_ID]));
    expect(service.calls[0]?.request.limit).toBe(100);
  });

  it('resumes after Last-Event-ID', async () => {
    oneDelivery('p7');
    const stream = await openStream(routes.base, { 'last-event-id': 'p7' });
    await stream.waitFor((text) => events(text).length === 1);
    stream.close();
    // (A poll of the previous test's stream may land here before its server side sees the close.)
    const asked = service.calls.map(({ request }) => request.afterPosition);
    expect(asked).toContain('p7');
    expect(asked).not.toContain('');
  });

  it('answers a refusal as a JSON error before any of the stream', async () => {
    service.answers.set('listenDeliveries', () => {
      throw permissionDenied('SANDBOX_ONLY', 'corridor listen forwards sandbox webhooks');
    });
    const refused = await fetch(`${routes.base}/api/external/webhook/listen`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'SANDBOX_ONLY' });

    service.answers.set('listenDeliveries', () => {
      throw invalidArgument('last_event_id must be an event id this stream sent', {
        last_event_id: ['must be an event id this stream sent'],
      });
    });
    const bad = await fetch(`${routes.base}/api/external/webhook/listen`, { headers: { 'last-event-id': 'nope' } });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ errors: { last_event_id: ['must be an event id this stream sent'] } });
  });

  it('keeps the stream open while notification is away, and carries on from the same position', async () => {
    let away = true;
    service.answers.set('listenDeliveries', (request) => {
      if (request.afterPosition === '') return { position: 'p0' };
      if (away) throw new DomainError(Status.UNAVAILABLE, 'UNAVAILABLE', 'notification restarting');
      return request.afterPosition === 'p0'
        ? { deliveries: [{ delivery: webhookDelivery(), position: 'p1', headers: SIGNED }], position: 'p1' }
        : { deliveries: [], position: request.afterPosition };
    });
    const stream = await openStream(routes.base);
    await stream.waitFor((text) => text.includes('notification unavailable'));
    away = false;
    await stream.waitFor((text) => events(text).length === 1);
    stream.close();
    expect(stream.text().match(/notification unavailable/g)).toHaveLength(1);
  });

  it('ends the stream when the token expires, so the listener comes back with a fresh one', async () => {
    oneDelivery();
    expiresInMs = 300;
    const stream = await openStream(routes.base);
    await stream.ended;
    expect(stream.text()).toContain(': token expired; reconnect with a new token and Last-Event-ID');
  });

  it('records the local answer as a listen attempt', async () => {
    service.answers.set('recordListenAttempt', () => ({
      attempt: webhookAttempt({
        number: 2,
        trigger: AttemptTrigger.LISTEN,
        durationMs: 12,
        outcome: AttemptOutcome.SUCCEEDED,
        statusCode: 200,
        errorClass: AttemptErrorClass.UNSPECIFIED,
        errorMessage: '',
        responseBody: 'ok',
      }),
    }));
    const path = `/api/external/webhook/deliveries/${DELIVERY_ID}/listen-attempts`;
    const answer = await routes.call('post', path, { status_code: 200, duration_ms: 12, response_body: 'ok' });
    expect(answer).toEqual({
      status: 201,
      body: {
        message: 'listen attempt recorded',
        data: {
          number: 2,
          trigger: 'listen',
          started_at: '2026-11-21T10:30:00.000Z',
          duration_ms: 12,
          outcome: 'succeeded',
          status_code: 200,
          error_class: null,
          error_message: null,
          response_body: 'ok',
        },
      },
    });
    // By method: the stream of the test before may still finish a poll it had sent when it ended.
    const recorded = () => service.calls.filter((call) => call.method === 'recordListenAttempt');
    expect(recorded()[0]?.request).toMatchObject({
      deliveryId: DELIVERY_ID,
      statusCode: 200,
      durationMs: 12,
      errorMessage: '',
      responseBody: 'ok',
    });

    await routes.call('post', path, { status_code: null, duration_ms: 3, error: 'connect ECONNREFUSED' });
    expect(recorded()[1]?.request).toMatchObject({ errorMessage: 'connect ECONNREFUSED' });
    expect(recorded()[1]?.request.statusCode).toBeUndefined();
  });

  it('refuses a report of the wrong shape before notification, and passes its 404 on', async () => {
    const path = `/api/external/webhook/deliveries/${DELIVERY_ID}/listen-attempts`;
    const bad = await routes.call('post', path, { status_code: 42, duration_ms: -1, extra: 1 });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors as object).sort()).toEqual(['duration_ms', 'extra', 'status_code']);
    const noReason = await routes.call('post', path, { status_code: null, duration_ms: 3 });
    expect(noReason).toMatchObject({
      status: 422,
      body: { errors: { error: [expect.stringContaining('is required')] } },
    });
    expect(service.calls).toHaveLength(0);

    service.answers.set('recordListenAttempt', () => {
      throw notFound('DELIVERY_NOT_FOUND', `webhook delivery ${DELIVERY_ID} not found`);
    });
    expect(await routes.call('post', path, { status_code: 200, duration_ms: 1 })).toMatchObject({
      status: 404,
      body: { code: 'DELIVERY_NOT_FOUND' },
    });
  });

  it('documents what it refuses: without status_code, an error that is blank by trim() fails the schema too', async () => {
    const route = webhookListenRoutes().find(({ operationId }) => operationId === 'recordWebhookListenAttempt');
    const [answered, why] = ((route?.requestBody?.allOf?.[0] as { anyOf?: unknown[] } | undefined)?.anyOf ?? []) as {
      required?: string[];
      properties: { status_code?: unknown; error?: { pattern: string } };
    }[];
    expect(answered).toEqual({ properties: { status_code: { type: 'integer' } } });
    expect(why?.required).toEqual(['error']);
    const then = { properties: { error: { pattern: why?.properties.error?.pattern ?? '' } } };
    // Every UTF-16 unit: the pattern finds one exactly where trim() keeps one.
    const notBlank = new RegExp(then.properties.error.pattern);
    const disagree = Array.from({ length: 0x10000 }, (_, code) => String.fromCharCode(code)).filter(
      (character) => notBlank.test(` ${character} `) !== (` ${character} `.trim() !== ''),
    );
    expect(disagree).toEqual([]);
    const path = `/api/external/webhook/deliveries/${DELIVERY_ID}/listen-attempts`;
    for (const error of [' ', '\u3000\n', '\uFEFF']) {
      const blank = await routes.call('post', path, { status_code: null, duration_ms: 3, error });
      expect({ error, status: blank.status }).toEqual({ error, status: 422 });
    }
    expect(service.calls).toHaveLength(0);
  });
});
