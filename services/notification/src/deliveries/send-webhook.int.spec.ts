import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createTestCertificates,
  eventually,
  freePort,
  type TestCertificates,
  WebhookReceiver,
} from '@corridor/testing';
import { signWebhook } from '@corridor/webhook-signature';
import { RESPONSE_BODY_LIMIT, WebhookSender, type WebhookRequest, type WebhookSenderOptions } from './send-webhook.js';

// Real HTTPS receivers on loopback with a throwaway CA; nothing here is mocked below the sender.
const SECRET = 'whsec_send_webhook_test';
const BODY = '{"event":"customer.status_changed","data":{"customer_id":"cus_1","note":"Zo\u00eb \u00dcnal"}}';
const LOOPBACK = ['127.0.0.0/8'];

let certificates: TestCertificates;
let receiver: WebhookReceiver;
const senders: WebhookSender[] = [];
const receivers: WebhookReceiver[] = [];

function sender(options: Partial<WebhookSenderOptions> = {}): WebhookSender {
  const made = new WebhookSender({
    allowCidrs: LOOPBACK,
    extraCa: certificates.caPem,
    timeoutMs: 5_000,
    connectTimeoutMs: 2_000,
    ...options,
  });
  senders.push(made);
  return made;
}

async function startReceiver(options: Partial<Parameters<typeof WebhookReceiver.start>[0]> = {}) {
  const started = await WebhookReceiver.start({ certificates, secret: SECRET, ...options });
  receivers.push(started);
  return started;
}

function webhook(url: string, overrides: Partial<WebhookRequest> = {}): WebhookRequest {
  return { url, body: BODY, secret: SECRET, webhookId: `wh_${randomUUID()}`, ...overrides };
}

const receivedWith = (target: WebhookReceiver, webhookId: string) =>
  target.requests.filter((request) => request.webhookId === webhookId);

beforeAll(async () => {
  certificates = await createTestCertificates();
  receiver = await startReceiver();
});

beforeEach(() => receiver.respondWith([]));

afterAll(async () => {
  await Promise.all(senders.map((made) => made.close()));
  await Promise.all(receivers.map((started) => started.stop()));
});

describe('WebhookSender', () => {
  it('POSTs the body byte for byte with exactly the signed headers, and succeeds on 2xx', async () => {
    const clock = new Date(Date.now() - 60_000);
    const request = webhook(receiver.url('/hooks/corridor?tenant=1'));

    const result = await sender({ now: () => clock }).send(request);

    expect(result).toEqual({
      startedAt: clock,
      durationMs: expect.any(Number),
      outcome: 'succeeded',
      statusCode: 200,
      errorClass: null,
      errorMessage: null,
      responseBody: '{"received":true}',
    });
    const [received, ...others] = receivedWith(receiver, request.webhookId);
    expect(others).toHaveLength(0);
    expect(received).toMatchObject({ method: 'POST', path: '/hooks/corridor?tenant=1', rawBody: BODY, verified: true });
    const signed = signWebhook({
      secret: SECRET,
      body: BODY,
      timestamp: Math.floor(clock.getTime() / 1000),
      webhookId: request.webhookId,
    });
    expect(received?.headers).toEqual({
      ...signed,
      host: `127.0.0.1:${receiver.port}`,
      connection: 'keep-alive',
      'content-length': String(Buffer.byteLength(BODY)),
    });
  });

  it('keeps the webhook id and signs each attempt anew, over a kept-alive connection', async () => {
    let clock = new Date(Date.now() - 120_000);
    const send = sender({ now: () => clock });
    const request = webhook(receiver.url());

    const first = await send.send(request);
    clock = new Date(clock.getTime() + 61_000);
    // undici hands the connection back to its pool a moment after the reply's last byte.
    await sleep(20);
    const retry = await send.send(request);

    expect([first.outcome, retry.outcome]).toEqual(['succeeded', 'succeeded']);
    const [one, two] = receivedWith(receiver, request.webhookId);
    expect(one?.verified && two?.verified).toBe(true);
    expect(two?.headers['x-corridor-webhook-id']).toBe(request.webhookId);
    expect(Number(two?.headers['x-corridor-timestamp']) - Number(one?.headers['x-corridor-timestamp'])).toBe(61);
    expect(two?.headers['x-corridor-signature']).not.toBe(one?.headers['x-corridor-signature']);
    expect(two?.remotePort).toBe(one?.remotePort);
  });

  it('fails a non-2xx reply as http_status, keeping the first 4 KiB of the body', async () => {
    receiver.respondWith([{ status: 500, body: 'x'.repeat(10_240) }]);

    const result = await sender().send(webhook(receiver.url()));

    expect(result).toMatchObject({
      outcome: 'failed',
      statusCode: 500,
      errorClass: 'http_status',
      errorMessage: 'receiver answered 500',
      responseBody: 'x'.repeat(RESPONSE_BODY_LIMIT),
    });
  });

  it('cuts the kept body on a character boundary', async () => {
    // 1 + 2 × 2,500 bytes: byte 4,096 is the first half of an "é".
    receiver.respondWith([{ status: 422, body: `a${'\u00e9'.repeat(2_500)}` }]);

    const { responseBody } = await sender().send(webhook(receiver.url()));

    expect(responseBody).toBe(`a${'\u00e9'.repeat(2_047)}`);
  });

  it('gives up on a receiver that never answers after timeoutMs, and closes its connection', async () => {
    const hanging = await startReceiver();
    hanging.respondWith(['hang']);
    const request = webhook(hanging.url());

    const result = await sender({ timeoutMs: 500 }).send(request);

    expect(result).toMatchObject({
      outcome: 'failed',
      statusCode: null,
      errorClass: 'timeout',
      errorMessage: 'no reply within 500 ms',
      responseBody: null,
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(490);
    expect(result.durationMs).toBeLessThan(1_500);
    expect(receivedWith(hanging, request.webhookId)).toHaveLength(1);
    await eventually(() => expect(hanging.openConnections).toBe(0), 2_000, 20);
  });

  it('fails a refused connection as connect', async () => {
    const port = await freePort();

    const result = await sender().send(webhook(`https://127.0.0.1:${port}/hooks`));

    expect(result).toMatchObject({
      outcome: 'failed',
      statusCode: null,
      errorClass: 'connect',
      errorMessage: `connection refused by 127.0.0.1:${port}`,
    });
  });

  it('fails a connection the receiver resets as connect, without sending it twice', async () => {
    receiver.respondWith(['destroy']);
    const request = webhook(receiver.url());

    const result = await sender().send(request);

    expect(result).toMatchObject({ outcome: 'failed', statusCode: null, errorClass: 'connect' });
    expect(result.errorMessage).toMatch(/^connection (reset|closed) by .+ before a reply$/);
    expect(receivedWith(receiver, request.webhookId)).toHaveLength(1);
  });

  it('fails a certificate from a CA it does not trust as tls, sending nothing', async () => {
    const untrusted = await startReceiver({ certificates: await createTestCertificates() });
    const request = webhook(untrusted.url());

    const result = await sender().send(request);

    expect(result).toMatchObject({ outcome: 'failed', statusCode: null, errorClass: 'tls' });
    expect(result.errorMessage).toMatch(/^certificate not trusted: /);
    expect(untrusted.requests).toHaveLength(0);
  });

  it('fails a certificate for another host as tls', async () => {
    // The certificate names 127.0.0.1 and localhost, not 127.0.0.2.
    const elsewhere = await startReceiver({ host: '127.0.0.2' });

    const result = await sender().send(webhook(elsewhere.url()));

    expect(result).toMatchObject({ outcome: 'failed', errorClass: 'tls' });
    expect(result.errorMessage).toMatch(/^certificate does not match the host: .*127\.0\.0\.2/);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('fails a receiver that accepts TCP but never completes TLS within connectTimeoutMs as connect', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as { port: number };
    try {
      const result = await sender({ connectTimeoutMs: 300 }).send(webhook(`https://127.0.0.1:${port}/hooks`));

      expect(result).toMatchObject({
        outcome: 'failed',
        statusCode: null,
        errorClass: 'connect',
        errorMessage: `no connection to 127.0.0.1:${port} within 300 ms`,
      });
      expect(result.durationMs).toBeLessThan(2_000);
    } finally {
      sockets.forEach((socket) => socket.destroy());
      silent.close();
    }
  });

  it('does not follow a redirect', async () => {
    receiver.respondWith([{ status: 301, headers: { location: '/moved' } }]);
    const request = webhook(receiver.url());

    const result = await sender().send(request);

    expect(result).toMatchObject({
      outcome: 'failed',
      statusCode: 301,
      errorClass: 'redirect',
      errorMessage: `redirect to ${receiver.url('/moved')} not followed (301)`,
    });
    expect(receivedWith(receiver, request.webhookId)).toHaveLength(1);
  });

  it('refuses a URL that reaches a non-public address without connecting', async () => {
    const request = webhook(receiver.url());

    const result = await sender({ allowCidrs: [] }).send(request);

    expect(result).toMatchObject({ outcome: 'failed', statusCode: null, errorClass: 'address_refused' });
    expect(result.errorMessage).toMatch(/^webhook URL must reach a public address: 127\.0\.0\.1 is /);
    expect(receivedWith(receiver, request.webhookId)).toHaveLength(0);
  });

  it('fails a host that does not resolve as dns', async () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    const result = await sender({ resolve: () => Promise.reject(notFound) }).send(
      webhook('https://hooks.corridor.test/x'),
    );

    expect(result).toMatchObject({ outcome: 'failed', errorClass: 'dns' });
    expect(result.errorMessage).toBe('webhook URL host hooks.corridor.test could not be resolved: ENOTFOUND');
  });

  it('fails a resolver that never answers as dns once timeoutMs has passed', async () => {
    const result = await sender({ timeoutMs: 300, resolve: () => new Promise(() => undefined) }).send(
      webhook('https://hooks.corridor.test/x'),
    );

    expect(result).toMatchObject({
      outcome: 'failed',
      errorClass: 'dns',
      errorMessage: 'webhook URL host hooks.corridor.test was not resolved within 300 ms',
    });
  });

  it('connects to the address it checked, with the URL name as SNI and Host', async () => {
    // Listening on 127.0.0.2 only: the system's answer for localhost (127.0.0.1, ::1) would miss it.
    const pinnedReceiver = await startReceiver({ host: '127.0.0.2' });
    const asked: string[] = [];
    const resolve = async (hostname: string) => {
      asked.push(hostname);
      return [{ address: '127.0.0.2', family: 4 }];
    };
    const request = webhook(`https://localhost:${pinnedReceiver.port}/hooks`);

    const result = await sender({ resolve }).send(request);

    expect(result).toMatchObject({ outcome: 'succeeded', statusCode: 200 });
    expect(asked).toEqual(['localhost']);
    const [received] = receivedWith(pinnedReceiver, request.webhookId);
    expect(received?.tlsServername).toBe('localhost');
    expect(received?.headers.host).toBe(`localhost:${pinnedReceiver.port}`);
  });

  it('checks the address again at every attempt, so a DNS change to a private address is refused', async () => {
    const answers = ['127.0.0.1', '10.0.0.1'];
    const resolve = async () => [{ address: answers.shift() ?? '10.0.0.1', family: 4 }];
    // Only the receiver's own address is allowed, as in the service's tests.
    const send = sender({ resolve, allowCidrs: ['127.0.0.1'] });
    const request = webhook(`https://localhost:${receiver.port}/hooks`);

    const first = await send.send(request);
    const second = await send.send(request);

    expect(first.outcome).toBe('succeeded');
    expect(second).toMatchObject({ outcome: 'failed', statusCode: null, errorClass: 'address_refused' });
    expect(second.errorMessage).toMatch(/localhost resolves to 10\.0\.0\.1, and 10\.0\.0\.1 is a private address/);
    expect(receivedWith(receiver, request.webhookId)).toHaveLength(1);
  });
});
