import { createTestCertificates, type TestCertificates } from '@corridor/testing';
import { verifyWebhook } from '@corridor/sdk';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcpServer, connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { unique } from '../support/customers.js';
import { Platform, type GatewayProcess } from '../support/platform.js';
import { nuban, ordinarySerial, PayoutsApi, type PayoutJson } from '../support/payouts.js';
import { ReceivingBusiness, receiverEnv, sleep } from '../support/receiving-business.js';

/**
 * Decision 0034 on a live platform: the built `corridor listen` forwards a business's webhooks to a
 * plain HTTP server on 127.0.0.1, signed as notification signs them, reports each answer as a
 * `listen` attempt, and after its gateway restarts resumes without missing what was made meanwhile.
 * The real events are a customer's and an NGN payout's, made through the API (issue 31's "done when").
 */

interface Received {
  rawBody: string;
  headers: IncomingHttpHeaders;
}

/** The developer's local handler: records every request and answers 200. */
async function localReceiver() {
  const received: Received[] = [];
  const server: Server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ rawBody: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('handled locally');
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, server };
}

/** A fixed address in front of whichever gateway runs now: "the gateway restarted" at one URL. */
async function gatewayProxy() {
  let target: number | undefined;
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    if (target === undefined) return void client.destroy();
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    to(gateway: GatewayProcess | undefined) {
      target = gateway ? Number(new URL(gateway.publicUrl).port) : undefined;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('corridor listen (decision 0034)', () => {
  let certificates: TestCertificates;
  let platform: Platform;
  let business: ReceivingBusiness;
  let local: Awaited<ReturnType<typeof localReceiver>>;
  let proxy: Awaited<ReturnType<typeof gatewayProxy>>;
  let gateway: GatewayProcess | undefined;
  let cli: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    certificates = await createTestCertificates();
    platform = new Platform({ notificationEnv: receiverEnv(certificates, [0, 200, 200, 200, 200]) });
    await platform.start();
    business = await ReceivingBusiness.create(platform, certificates);
    [local, proxy, gateway] = await Promise.all([localReceiver(), gatewayProxy(), platform.startGateway()]);
    proxy.to(gateway);
    cli = spawn(
      process.execPath,
      [
        join(import.meta.dirname, '../../packages/admin-cli/dist/main.js'),
        'listen',
        '--forward-to',
        local.url,
        '--base-url',
        proxy.url,
      ],
      {
        env: {
          ...process.env,
          CORRIDOR_CLIENT_ID: business.credentials.client_id,
          CORRIDOR_CLIENT_SECRET: business.credentials.client_secret,
          CORRIDOR_LOCAL: join(import.meta.dirname, 'no-such-local-directory'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    cli.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    cli.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await until('the listener to be ready', () => (output.includes('Ready!') ? true : undefined));
  }, 120_000);

  afterAll(async () => {
    cli?.kill('SIGTERM');
    await proxy?.close();
    await new Promise((resolve) => local?.server.close(resolve));
    await business?.stop();
    await platform?.stop();
  });

  const arrivedLocally = (deliveryId: string) =>
    until(`delivery ${deliveryId} on the local URL`, () =>
      local.received.find((request) => request.headers['x-corridor-webhook-id'] === deliveryId),
    );

  const listenAttempt = (deliveryId: string) =>
    until(`the listen attempt of ${deliveryId}`, async () => {
      const delivery = await platform.webhooks.delivery(business.token, deliveryId);
      return delivery.attempts.find((attempt) => (attempt.trigger as string) === 'listen');
    });

  it('forwards a mock event and a real one, signed with the business’s secret, and logs the local answers', async () => {
    const mock = await platform.webhooks.mock(business.token, { event: 'collection.successful' });
    const forwarded = await arrivedLocally(mock.id);
    const event = verifyWebhook({ rawBody: forwarded.rawBody, headers: forwarded.headers, secret: business.secret });
    expect(event.event).toBe('collection.successful');
    expect(forwarded.rawBody).toBe(JSON.stringify(mock.payload));
    expect(await listenAttempt(mock.id)).toMatchObject({ outcome: 'succeeded', status_code: 200 });
    expect(output).toMatch(new RegExp(`→ collection\\.successful 200 \\d+ms \\[${mock.id}\\]`));

    // A real event: a customer submitted for review.
    const { customerId } = await business.submitNew();
    const real = await until('the customer’s webhook locally', () =>
      local.received.find((request) => request.rawBody.includes(customerId)),
    );
    expect(verifyWebhook({ rawBody: real.rawBody, headers: real.headers, secret: business.secret }).event).toBe(
      'customer.status_changed',
    );
    const deliveryId = String(real.headers['x-corridor-webhook-id']);
    expect(await listenAttempt(deliveryId)).toMatchObject({ outcome: 'succeeded', response_body: 'handled locally' });
    // The copy changed nothing of the real delivery: the registered receiver has it as well.
    await business.waitForCustomer(customerId);
  });

  it('forwards a real payout’s payout.pending, .processing and .successful, each signed and logged', async () => {
    const payouts = new PayoutsApi(platform);
    await payouts.fund(business.businessId, 'NGN', 1_000_000_00);
    const payout = await payouts.payout(await business.tokenWith(['payout:create']), {
      amount: 2_500_00,
      currency: 'NGN',
      bank_code: '058',
      account_number: nuban('058', ordinarySerial()),
      narration: `Invoice ${unique()}`,
      reference: `listen-${unique()}`,
    });
    expect(payout.status).toBe('pending');

    const forwarded = await until(
      'the payout’s three webhooks locally',
      () => {
        const mine = local.received.filter(
          (request) => (JSON.parse(request.rawBody) as { data?: Partial<PayoutJson> }).data?.id === payout.id,
        );
        return mine.length >= 3 ? mine : undefined;
      },
      60_000,
    );
    const events = forwarded.map((request) => {
      const event = verifyWebhook({ rawBody: request.rawBody, headers: request.headers, secret: business.secret });
      expect((event.data as Partial<PayoutJson>).status).toBe(event.event.replace('payout.', ''));
      return event.event;
    });
    expect(events.sort()).toEqual(['payout.pending', 'payout.processing', 'payout.successful']);
    for (const request of forwarded) {
      const deliveryId = String(request.headers['x-corridor-webhook-id']);
      expect(await listenAttempt(deliveryId)).toMatchObject({ outcome: 'succeeded', status_code: 200 });
      expect(output).toMatch(new RegExp(`→ payout\\.[a-z]+ 200 \\d+ms \\[${deliveryId}\\]`));
    }
  });

  it('resumes after its gateway restarts: what was made meanwhile still arrives', async () => {
    await gateway?.stop();
    proxy.to(undefined);
    await until('the listener to notice', () => (/connection lost|reconnect/.test(output) ? true : undefined));
    // Made through the platform's own gateway while the listener's is down.
    const during = await platform.webhooks.mock(business.token, { event: 'payout.successful' });
    await sleep(500);
    expect(local.received.some((request) => request.headers['x-corridor-webhook-id'] === during.id)).toBe(false);

    gateway = await platform.startGateway();
    proxy.to(gateway);
    const forwarded = await arrivedLocally(during.id);
    expect(
      verifyWebhook({ rawBody: forwarded.rawBody, headers: forwarded.headers, secret: business.secret }).event,
    ).toBe('payout.successful');
    const after = await platform.webhooks.mock(business.token, { event: 'collection.failed' });
    await arrivedLocally(after.id);
    // Each delivery reached the local URL once.
    const ids = local.received.map((request) => request.headers['x-corridor-webhook-id']);
    expect(ids.filter((id) => id === during.id)).toHaveLength(1);
  });
});
