import type { AddressInfo } from 'node:net';
import { callerMetadata } from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import express from 'express';
import { jsonBody, requestId } from '../../src/http/common.js';
import { errorHandler } from '../../src/http/errors.js';
import { refuseHostileQuery } from '../../src/http/input-boundary.js';
import { expressPath } from '../../src/http/route-table.js';
import type { PublicRoute, RouteContext } from '../../src/floor/route-context.js';

/**
 * Route handlers served on loopback as the public router serves them, minus authentication (which
 * has suites of its own): every request is a caller of `businessId` with `scopes`, and the handlers
 * reach `clients` (fake gRPC services). For route specs.
 */
export async function serveRoutes(
  routes: readonly PublicRoute[],
  caller: { businessId: string; scopes: string[] },
  clients: Record<string, unknown>,
) {
  const app = express();
  const logger = createLogger('test', { level: 'silent' });
  app.use(requestId);
  app.use(refuseHostileQuery);
  for (const route of routes) {
    const body = route.requestBody ? jsonBody('1mb') : [];
    app[route.method](expressPath(route.path), ...body, async (req, res) => {
      const metadata = callerMetadata({
        businessId: caller.businessId,
        credentialId: 'ci_test_1',
        scopes: caller.scopes,
        environment: 'sandbox',
        requestId: res.locals.requestId as string,
      });
      const auth = { caller: { businessId: caller.businessId, clientId: 'ci_test_1', scopes: caller.scopes } };
      await route.handle({ req, res, metadata, call: { metadata }, clients, logger, auth } as unknown as RouteContext);
    });
  }
  app.use(errorHandler(logger));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    /** One request; a string body is sent as is (malformed JSON), anything else as JSON. */
    async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const response = await fetch(`${base}${path}`, {
        method: method.toUpperCase(),
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

type ServedRoutes = Awaited<ReturnType<typeof serveRoutes>>;

/** What every fake gRPC service of the specs has: the calls it received and the answers a spec sets. */
export interface FakeService {
  calls: unknown[];
  answers: Map<string, unknown>;
  stop(): Promise<void>;
}

/**
 * The hooks every spec of routes over a fake service needs: the fake and what serves the routes
 * start before the describe's tests and stop after them, and each test starts with no calls and the
 * default answers. Read them through `service()` and `served()` inside tests.
 */
export function fakeUnderTest<Service extends FakeService, Served extends { close(): Promise<unknown> }>(
  start: () => Promise<Service>,
  serve: (service: Service) => Promise<Served>,
) {
  let service: Service | undefined;
  let served: Served | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the routes are used outside their describe');
    return value;
  };
  beforeAll(async () => {
    service = await start();
    served = await serve(service);
  });
  afterAll(async () => {
    await served?.close();
    await service?.stop();
  });
  beforeEach(() => {
    started(service).calls.length = 0;
    started(service).answers.clear();
  });
  return { service: () => started(service), served: () => started(served) };
}

/** Public routes over a fake service: `calls` and `answers` are the fake's; `call` and `base` reach the routes. */
export function routesUnderTest<Service extends FakeService>(
  start: () => Promise<Service>,
  serve: (service: Service) => Promise<ServedRoutes>,
) {
  const { service, served } = fakeUnderTest(start, serve);
  return {
    get calls(): Service['calls'] {
      return service().calls;
    },
    get answers(): Service['answers'] {
      return service().answers;
    },
    get base() {
      return served().base;
    },
    call: (...args: Parameters<ServedRoutes['call']>) => served().call(...args),
  };
}
