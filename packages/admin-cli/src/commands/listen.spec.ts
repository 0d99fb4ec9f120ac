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

const event = (id: string, deliveryId: string, name = 'customer.status_changed') =>
  `id: ${id}\ndata: ${JSON.stringify({ delivery_id: deliveryId, event: name, body: BODY, headers: HEADERS })}\n\n`;

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

  const run = async (args: string[], events = [event(`1_${DELIVERY}`, DELIVERY), event('2_x', 'second')]) => {
    const fake = fakeFetch(respond);
    const fetch: Fetch = async (url, init) => {
      const answer = await fake.fetch(url, init);
      return url.endsWith('/api/external/webhook/listen') ? stream(events, init.signal) : answer;
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

  it('--until-event forwards every webhook up to the first of that event, reports each, and exits 0', async () => {
    const result = await run(
      ['--until-event', 'collection.successful'],
      [
        event('1_a', 'first'),
        event('2_b', 'second', 'payout.pending'),
        event('3_c', 'third', 'collection.successful'),
        event('4_d', 'fourth', 'collection.successful'),
      ],
    );
    expect(result.code).toBe(0);
    const reported = result.requests
      .filter((request) => request.url.endsWith('/listen-attempts'))
      .map((request) => request.url.split('/').at(-2));
    expect(reported).toEqual(['first', 'second', 'third']);
    expect(result.stdout.split('\n').filter((line) => line.startsWith('→ '))).toEqual([
      expect.stringMatching(/^→ customer\.status_changed 200 \d+ms \[first\]$/),
      expect.stringMatching(/^→ payout\.pending 200 \d+ms \[second\]$/),
      expect.stringMatching(/^→ collection\.successful 200 \d+ms \[third\]$/),
    ]);
  });

  it('--until-event must be an event’s name', async () => {
    const result = await run(['--until-event', 'collection successful']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/--until-event/);
    expect(result.requests).toEqual([]);
  });
});
