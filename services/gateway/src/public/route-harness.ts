import type { AddressInfo } from 'node:net';
import { callerMetadata } from '@corridor/grpc';
import { createLogger } from '@corridor/logging';
import express from 'express';
import { jsonBody, requestId } from '../http/common.js';
import { errorHandler } from '../http/errors.js';
import { expressPath, type PublicRoute, type RouteContext } from './routes.js';

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
  app.use(requestId);
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
      await route.handle({ req, res, metadata, call: { metadata }, clients } as unknown as RouteContext);
    });
  }
  app.use(errorHandler(createLogger('test', { level: 'silent' })));
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
