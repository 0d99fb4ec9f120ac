import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  SandboxClockCopyService,
  SandboxClockSchema,
  SandboxClockService,
  type SandboxClock,
} from '@corridor/contracts/corridor/clock/v1/sandbox_clock_pb';
import {
  createClient,
  DomainError,
  notFound,
  registration,
  startGrpcServer,
  Status,
  type RunningGrpcServer,
} from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import { serveRoutes } from '../../../test/public/route-harness.js';
import { PUBLIC_ROUTES } from '../routes.js';
import { SANDBOX_CLOCK_ROUTES } from './clock-routes.js';

const BUSINESS_ID = '0b6f1c1e-4d3a-4f55-9a63-3c1f2a7e5b10';
const CREATED = new Date('2026-11-29T08:00:00.000Z');

/**
 * The sandbox clock's routes (decision 0069) against fakes of payments (the clock) and of the two
 * services that keep copies, over real gRPC on loopback.
 */
describe('the sandbox clock routes (decision 0069)', () => {
  let offsetMs: bigint | undefined;
  /** What each copy was set to, in order; a copy named in `failing` answers that status instead. */
  const copies: { service: string; offsetMs: bigint; businessId: string | undefined }[] = [];
  const failing = new Map<string, Status>();
  let ownerUnimplemented = false;
  const servers: RunningGrpcServer[] = [];
  let served: Awaited<ReturnType<typeof serveRoutes>>;

  const clockOf = (offset: bigint): SandboxClock =>
    create(SandboxClockSchema, {
      businessId: BUSINESS_ID,
      offsetMs: offset,
      now: timestampFromDate(new Date(Date.now() + Number(offset))),
      createdAt: timestampFromDate(CREATED),
      updatedAt: timestampFromDate(CREATED),
    });
  const logger = createLogger('test', { level: 'silent' });
  const serve = async (services: Parameters<typeof startGrpcServer>[0]['services']) => {
    const server = await startGrpcServer({ address: '127.0.0.1:0', services, logger });
    servers.push(server);
    return `127.0.0.1:${server.port}`;
  };
  const owner = () => {
    if (ownerUnimplemented) throw new DomainError(Status.UNIMPLEMENTED, 'UNIMPLEMENTED', 'no such method');
  };
  const copy = (service: string) =>
    registration(SandboxClockCopyService, {
      async setSandboxClock(request, call) {
        const status = failing.get(service);
        if (status !== undefined) throw new DomainError(status, 'FAKE', `${service} refuses`);
        copies.push({ service, offsetMs: request.offsetMs, businessId: call.caller.businessId });
        return { clock: clockOf(request.offsetMs) };
      },
    });

  beforeAll(async () => {
    const payments = await serve([
      registration(SandboxClockService, {
        async getSandboxClock() {
          owner();
          if (offsetMs === undefined) throw notFound('SANDBOX_CLOCK_NOT_FOUND', 'this business has no sandbox clock');
          return { clock: clockOf(offsetMs) };
        },
        async startSandboxClock() {
          owner();
          const created = offsetMs === undefined;
          offsetMs ??= 0n;
          return { clock: clockOf(offsetMs), created };
        },
        async advanceSandboxClock(request) {
          owner();
          if (offsetMs === undefined) throw notFound('SANDBOX_CLOCK_NOT_FOUND', 'this business has no sandbox clock');
          offsetMs += request.seconds * 1000n;
          return { clock: clockOf(offsetMs) };
        },
      }),
    ]);
    const customerKyb = await serve([copy('customer-kyb')]);
    const notification = await serve([copy('notification')]);
    served = await serveRoutes(
      SANDBOX_CLOCK_ROUTES,
      { businessId: BUSINESS_ID, scopes: ['mock:webhook:trigger'] },
      {
        sandboxClock: createClient(SandboxClockService, { address: payments }),
        customerKybClockCopy: createClient(SandboxClockCopyService, { address: customerKyb }),
        notificationClockCopy: createClient(SandboxClockCopyService, { address: notification }),
      },
    );
  });
  afterAll(async () => {
    await served.close();
    await Promise.all(servers.map((server) => server.shutdown(1_000)));
  });
  beforeEach(() => {
    copies.length = 0;
    failing.clear();
    ownerUnimplemented = false;
  });

  it('are three public routes under mock:webhook:trigger, the simulations’ scope', () => {
    expect(SANDBOX_CLOCK_ROUTES.map((route) => [route.operationId, route.method, route.path, route.scope])).toEqual([
      ['getSandboxClock', 'get', '/api/external/sandbox/clock', 'mock:webhook:trigger'],
      ['startSandboxClock', 'post', '/api/external/sandbox/clock', 'mock:webhook:trigger'],
      ['advanceSandboxClock', 'post', '/api/external/sandbox/clock/advance', 'mock:webhook:trigger'],
    ]);
    for (const route of SANDBOX_CLOCK_ROUTES) expect(PUBLIC_ROUTES).toContain(route);
  });

  it('starts a clock (201, then 200 with the same clock), sets both copies each time, and reads it back', async () => {
    offsetMs = undefined;
    expect(await served.call('get', '/api/external/sandbox/clock')).toMatchObject({
      status: 404,
      body: { status: false, code: 'SANDBOX_CLOCK_NOT_FOUND' },
    });
    const started = await served.call('post', '/api/external/sandbox/clock', {});
    expect(started).toEqual({
      status: 201,
      body: {
        message: 'sandbox clock started',
        data: {
          now: expect.any(String),
          offset_seconds: 0,
          created_at: CREATED.toISOString(),
          updated_at: CREATED.toISOString(),
        },
      },
    });
    expect(await served.call('post', '/api/external/sandbox/clock')).toMatchObject({
      status: 200,
      body: { message: 'sandbox clock retrieved', data: { offset_seconds: 0 } },
    });
    expect(copies.map(({ service, offsetMs: offset, businessId }) => [service, offset, businessId]).sort()).toEqual([
      ['customer-kyb', 0n, BUSINESS_ID],
      ['customer-kyb', 0n, BUSINESS_ID],
      ['notification', 0n, BUSINESS_ID],
      ['notification', 0n, BUSINESS_ID],
    ]);
    expect(await served.call('get', '/api/external/sandbox/clock')).toMatchObject({
      status: 200,
      body: { message: 'sandbox clock retrieved', data: { offset_seconds: 0 } },
    });
  });

  it('advances by seconds and sets each copy to the offset payments answered, before answering', async () => {
    offsetMs = 0n;
    const advanced = await served.call('post', '/api/external/sandbox/clock/advance', { seconds: 176_400 });
    expect(advanced).toMatchObject({
      status: 200,
      body: { message: 'sandbox clock advanced', data: { offset_seconds: 176_400 } },
    });
    expect(Date.parse(String((advanced.body.data as { now: string }).now)) - Date.now()).toBeGreaterThan(
      176_400_000 - 5_000,
    );
    expect(copies.map((set) => [set.service, set.offsetMs]).sort()).toEqual([
      ['customer-kyb', 176_400_000n],
      ['notification', 176_400_000n],
    ]);
  });

  it.each([
    [{}, 'is required'],
    [{ seconds: -1 }, 'must be from 0 to 31536000 (a year), got -1'],
    [{ seconds: 31_536_001 }, 'must be from 0 to 31536000 (a year), got 31536001'],
    [{ seconds: 1.5 }, 'must be a whole number of seconds (a JSON integer), got 1.5'],
    [{ seconds: '60' }, 'must be a whole number of seconds (a JSON integer), got a string'],
  ])('refuses %j with 422 naming seconds, and moves nothing', async (body, problem) => {
    offsetMs = 0n;
    const refused = await served.call('post', '/api/external/sandbox/clock/advance', body);
    expect(refused).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED', errors: { seconds: [problem] } } });
    expect(offsetMs).toBe(0n);
    expect(copies).toEqual([]);
  });

  it('a copy that did not take the clock is 503 (the clock moved; the same request sets it again); an older one is passed over', async () => {
    offsetMs = 0n;
    failing.set('notification', Status.UNAVAILABLE);
    expect(await served.call('post', '/api/external/sandbox/clock/advance', { seconds: 60 })).toMatchObject({
      status: 503,
      body: { code: 'SERVICE_UNAVAILABLE' },
    });
    failing.set('notification', Status.UNIMPLEMENTED);
    expect(await served.call('post', '/api/external/sandbox/clock/advance', { seconds: 0 })).toMatchObject({
      status: 200,
      body: { data: { offset_seconds: 60 } },
    });
    expect(copies.map((set) => [set.service, set.offsetMs])).toEqual([
      ['customer-kyb', 60_000n],
      ['customer-kyb', 60_000n],
    ]);
  });

  it('a payments release without the clock is 503, never a 500', async () => {
    ownerUnimplemented = true;
    for (const [method, path] of [
      ['get', '/api/external/sandbox/clock'],
      ['post', '/api/external/sandbox/clock'],
      ['post', '/api/external/sandbox/clock/advance'],
    ] as const) {
      const body = path.endsWith('advance') ? { seconds: 1 } : method === 'post' ? {} : undefined;
      expect(await served.call(method, path, body)).toMatchObject({
        status: 503,
        body: { code: 'SERVICE_UNAVAILABLE' },
      });
    }
  });
});
