import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../cli.js';
import type { Fetch } from '../http.js';
import { captureIo, fakeFetch, json, type RecordedRequest } from '../testing/fake-fetch.js';

const DELIVERY = '0b7e3c55-2f4a-4c1e-9d63-8a1f2e4b7c10';
const BODY = '{"event":"customer.status_changed","data":{}}';
const HEADERS = { 'content-type': 'application/json', 'x-corridor-webhook-id': DELIVERY };

/** A stream that sends `events`, then stays open as the gateway's does, until the client leaves. */
function stream(events: string[], signal: AbortSignal | null | undefined): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(': listening from 1_00000000-0000-0000-0000-000000000000\n\n'));
      for (const event of events) controller.enqueue(encoder.encode(event));
      signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

const event = (id: string, deliveryId: string) =>
  `id: ${id}\ndata: ${JSON.stringify({ delivery_id: deliveryId, event: 'customer.status_changed', body: BODY, headers: HEADERS })}\n\n`;

describe('corridor listen (in-process, fake gateway and local URL)', () => {
  let localDir: string;
  beforeEach(async () => {
    localDir = await mkdtemp(join(tmpdir(), 'corridor-cli-listen-'));
  });
  afterEach(() => rm(localDir, { recursive: true, force: true }));

  const respond = (request: RecordedRequest): Response => {
    if (request.url.endsWith('/oauth/token')) return json(200, { access_token: 't', expires_in: 3600 });
    if (request.url.startsWith('http://local.test/')) return new Response('handled', { status: 200 });
    return json(201, { message: 'listen attempt recorded', data: {} });
  };

  const run = async (args: string[]) => {
    const fake = fakeFetch(respond);
    const fetch: Fetch = async (url, init) => {
      const answer = await fake.fetch(url, init);
      return url.endsWith('/api/external/webhook/listen')
        ? stream([event(`1_${DELIVERY}`, DELIVERY), event('2_x', 'second')], init.signal)
        : answer;
    };
    const captured = captureIo(fetch, {
      CORRIDOR_LOCAL: localDir,
      CORRIDOR_BASE_URL: 'http://gateway.test',
      CORRIDOR_CLIENT_ID: 'ci_test_x',
      CORRIDOR_CLIENT_SECRET: 'secret',
    });
    const code = await runCli(['listen', '--forward-to', 'http://local.test/hooks', ...args], captured.io);
    return { code, requests: fake.requests, stdout: captured.stdout(), stderr: captured.stderr() };
  };

  it('--max-events 1 forwards the first webhook byte for byte, reports its answer, and exits 0', async () => {
    const result = await run(['--max-events', '1']);
    expect(result.code).toBe(0);
    expect(result.requests.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'POST http://gateway.test/oauth/token',
      'GET http://gateway.test/api/external/webhook/listen',
      'POST http://local.test/hooks',
      `POST http://gateway.test/api/external/webhook/deliveries/${DELIVERY}/listen-attempts`,
    ]);
    expect(result.requests[2]).toMatchObject({ body: BODY, headers: expect.objectContaining(HEADERS) });
    expect(JSON.parse(result.requests[3]?.body ?? '{}')).toMatchObject({ status_code: 200, response_body: 'handled' });
    expect(result.stdout).toMatch(
      new RegExp(`^Ready! .*\\n→ customer\\.status_changed 200 \\d+ms \\[${DELIVERY}\\]\\n$`),
    );
  });

  it('--max-events must be a whole number from 1', async () => {
    const result = await run(['--max-events', '0']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/--max-events/);
    expect(result.requests).toEqual([]);
  });
});
